-- ingest.merge_supersede_one_per_key: the first statement of the merge
-- (ingest.write_batch) for a batch with one record per key (as many
-- distinct invoice numbers as records) some of whose keys history holds:
-- the current version of each key the batch wins gives way.  With one
-- record per key, staging.key_version holds each key's record beside its
-- versions (batch_revision; cleared for a record rejected since,
-- ingest.reject_revision_conflicts), so the typed rows are not read at
-- all.  Each superseded version is found through the one-current index,
-- one lookup per key: with statistics on staging.key_version
-- (ingest.analyze_staging) the planner, costing pages as if read from
-- disk, would rather scan and hash all of the history's current versions
-- (3.2 s against 0.25 s over 5M versions for 90,000 keys); hence
-- enable_seqscan = off, for this statement only.  Planned for the batch at
-- hand on every call (plan_cache_mode), as a statement run by EXECUTE is.
-- The form for several records per key: ingest.merge_supersede.
-- Returns the number of versions superseded.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.merge_supersede_one_per_key(
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
   where h.batch_id = p_batch_id and h.is_current and h.batch_revision > h.revision
     and cv.source = p_source and cv.invoice_number = h.invoice_number
     and cv.revision = h.revision and cv.is_current;
  get diagnostics v_rows = row_count;
  return v_rows;
end;
$$;
comment on function ingest.merge_supersede_one_per_key(bigint, text, timestamptz) is
  E'The merge: the current versions a batch with one record per key wins give way.\nErrors: none.';
revoke all on function ingest.merge_supersede_one_per_key(bigint, text, timestamptz) from public;
