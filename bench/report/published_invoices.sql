-- bench/report/published_invoices.sql: how many invoices of batch :batch_id
-- reporting.invoice shows (a load that published all of its file shows
-- them all). Variables: batch_id.
select count(*) from reporting.invoice where batch_id = :batch_id;
