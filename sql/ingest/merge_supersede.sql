-- ingest.merge_supersede: the first statement of the merge
-- (ingest.write_batch) for a batch with several records of a key, some of
-- whose keys history holds: the current version of each key the batch has
-- a higher revision of gives way.  Which keys: a semi-join with the typed
-- rows (a hash of every row: 0.25 s of a million).  The versions are found
-- through the one-current index (enable_seqscan = off), and the statement
-- is planned for the batch at hand on every call (plan_cache_mode), as in
-- ingest.merge_supersede_one_per_key, which says why.
-- Returns the number of versions superseded.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.merge_supersede(
  p_batch_id bigint, p_source text, p_now timestamptz)
returns bigint
language plpgsql
set search_path = ''
set enable_seqscan = off
set plan_cache_mode = force_custom_plan
as $$
declare
  v_rows bigint;
begin
  update core.invoice_version as cv
     set is_current = false, superseded_by_batch_id = p_batch_id, superseded_at = p_now
    from staging.key_version as h
   where h.batch_id = p_batch_id and h.is_current
     and exists (select from staging.invoice_valid as v
                 where v.batch_id = p_batch_id and not v.is_duplicate
                   and v.invoice_number = h.invoice_number
                   and v.revision > h.revision)
     and cv.source = p_source and cv.invoice_number = h.invoice_number
     and cv.revision = h.revision and cv.is_current;
  get diagnostics v_rows = row_count;
  return v_rows;
end;
$$;
comment on function ingest.merge_supersede(bigint, text, timestamptz) is
  E'The merge: the current versions a batch with several records per key wins give way.\nErrors: none.';
revoke all on function ingest.merge_supersede(bigint, text, timestamptz) from public;
