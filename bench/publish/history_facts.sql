-- bench/publish/history_facts.sql: what the built history holds: versions,
-- current versions, invoices, batches, the watermark's date and the
-- database's size.
select count(*), count(*) filter (where is_current), count(distinct invoice_number),
       (select count(*) from ingest.batch),
       (select business_date from ingest.watermark),
       pg_size_pretty(pg_database_size(current_database()))
from core.invoice_version;
