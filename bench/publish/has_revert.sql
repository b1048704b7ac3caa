-- bench/publish/has_revert.sql: whether this schema has
-- ingest.revert_batch; without it the revert row is skipped.
select to_regprocedure('ingest.revert_batch(bigint,text)') is not null;
