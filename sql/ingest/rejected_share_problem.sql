-- ingest.rejected_share_problem: the partial policy's test: under `partial`,
-- more rejected records than the source's max_rejected_share of the file's
-- records is a file-level problem (rule policy.rejected_share), returned as a
-- rejection reason for
-- ingest.quarantine_batch; NULL when the share is kept, or the source is
-- all-or-nothing (where any rejected record quarantines: the callers test
-- that themselves).
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.rejected_share_problem(
  p_source   ingest.source,
  p_rejected integer,
  p_records  integer)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select case
    when p_rejected > 0 and p_source.policy = 'partial'
         and p_rejected::numeric > p_source.max_rejected_share * p_records
      then pg_catalog.jsonb_build_object('rule', 'policy.rejected_share', 'record_no', 0,
             'detail', pg_catalog.format('%s of %s records rejected; the source allows a share of %s',
                                         p_rejected, p_records, p_source.max_rejected_share))
  end
$$;
comment on function ingest.rejected_share_problem(ingest.source, integer, integer) is
  E'The policy.rejected_share reason when a partial source''s share is exceeded, else NULL.\nErrors: none.';
revoke all on function ingest.rejected_share_problem(ingest.source, integer, integer) from public;
