-- bench/catchup/published.sql: the published batches of :source and the
-- invoices reporting.invoice shows, after a catch-up (every date must be
-- published, with all its invoices). Variables: source.
select (select count(*) from ingest.batch_overview
        where source = :'source' and state = 'published'),
       (select count(*) from reporting.invoice where source = :'source');
