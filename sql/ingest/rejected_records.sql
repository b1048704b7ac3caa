-- ingest.rejected_records: how many records of a batch are rejected: the
-- distinct record numbers with a rejection row (record_no 0, the whole
-- file, is not a record).  A record failing several rules counts once.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.rejected_records(p_batch_id bigint)
returns integer
language sql
stable
set search_path = ''
as $$
  select count(distinct r.record_no)::integer
  from ingest.rejection_row as r
  where r.batch_id = p_batch_id and r.record_no > 0
$$;
comment on function ingest.rejected_records(bigint) is
  E'The number of distinct rejected records of a batch (record_no > 0).\nErrors: none.';
revoke all on function ingest.rejected_records(bigint) from public;
