-- bench/history/sample_keys.sql: :n invoice numbers of :source that
-- reporting.invoice shows, spread over the whole history (ordered by their
-- md5: the same sample for the same history), for the by-key lookups.
-- Variables: source, n.
select invoice_number from reporting.invoice
where source = :'source'
order by md5(invoice_number)
limit :n;
