-- 0021: ingest.merge_written goes (sql/ installed it with 0019): the read
-- back of what a merge wrote is a plain SELECT INTO in publish_batch again.
-- As a RETURN QUERY function it was to run in parallel, and inside a
-- publication it never did (its statistics predate the insert;
-- docs/PERFORMANCE.md).  IF EXISTS: a new database never had it.
set local role invoice_owner;

drop function if exists ingest.merge_written(bigint);
