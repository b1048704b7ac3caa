-- bench/sources/published.sql: how many sources published :date, and how
-- many invoices reporting.invoice shows (harness/sources.py).
-- Variables: date.
select (select count(*) from ingest.batch
        where business_date = :'date' and state = 'published'),
       (select count(*) from reporting.invoice);
