-- 0017: no insert-triggered autovacuum on the staging tables
-- (docs/PERFORMANCE.md).  After a big COPY,
-- autovacuum soon starts an insert-triggered VACUUM of the table (PostgreSQL
-- 13+: more than 1,000 + 20% new rows), and ingest.analyze_staging, which
-- summarizes the BRIN ranges and analyzes the same table, then waits for
-- it until the deadlock check cancels it: a second, one run in a few,
-- between validation and publication.  Such a VACUUM does nothing useful
-- here (staging rows live for minutes: no pages to freeze or mark all
-- visible for long); the VACUUMs after publication's deletes stay.
set local role invoice_owner;

alter table staging.invoice_line set (autovacuum_vacuum_insert_threshold = -1);
alter table staging.invoice_valid set (autovacuum_vacuum_insert_threshold = -1);
alter table staging.key_version set (autovacuum_vacuum_insert_threshold = -1);
