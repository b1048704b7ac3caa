-- ingest.restage_lost_batch: a staged or validated batch whose staged rows
-- do not hold what its checkpoint says goes back to received, so that the
-- load stages the file again, rather than trusting a checkpoint that no
-- longer holds (DESIGN.md decision 3).  Two causes: the staging tables are
-- UNLOGGED (migrations/0008) and a crash of the server empties them; or
-- rows were written next to the batch's own (before migrations/0011 any
-- loader session could; since, only the owner), so that the count differs
-- from the checkpoint (this was IV204, a dead end: every later load failed
-- the same way).  Every staged row of the batch is deleted, raw and typed,
-- and what validation derived from them (rejections, counts) is derived
-- again.  The event's reason says which cause it was, with the counts.
-- Internal (called by validate_batch and publish_batch, which hold the batch
-- row lock): no EXECUTE grants.
-- Errors: IV201/IV202/IV208 as ingest.transition.
create or replace function ingest.restage_lost_batch(
  p_batch_id   bigint,
  p_from       text,
  p_attempt_id bigint)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_batch ingest.batch;
  v_raw   bigint;
  v_typed bigint;
begin
  select * into v_batch from ingest.batch as b where b.batch_id = p_batch_id;
  select count(*) into v_typed from staging.invoice_valid as v where v.batch_id = p_batch_id;
  perform ingest.clear_typed_staging(p_batch_id);
  delete from staging.invoice_line as l where l.batch_id = p_batch_id;
  get diagnostics v_raw = row_count;
  delete from ingest.rejection_row as r where r.batch_id = p_batch_id;
  update ingest.batch as b
     set staged_count = null, accepted_count = null, rejected_count = null,
         distinct_keys = null
   where b.batch_id = p_batch_id;
  perform ingest.transition(p_batch_id, p_from, 'received', p_attempt_id,
    case when v_raw = 0 or (p_from = 'validated' and v_typed = 0)
         then jsonb_build_object('reason',
                'staged records lost (the staging tables are unlogged and '
                || 'a server crash empties them); the load stages the file again')
         else jsonb_build_object('reason',
                format('staged records do not match the checkpoint (%s raw rows for %s staged '
                       || 'records, %s typed rows for %s accepted); the load stages the file again',
                       v_raw, v_batch.staged_count, v_typed,
                       coalesce(v_batch.accepted_count::text, 'none yet')),
                'raw_rows', v_raw, 'staged_count', v_batch.staged_count,
                'typed_rows', v_typed, 'accepted_count', v_batch.accepted_count)
    end);
end;
$$;
comment on function ingest.restage_lost_batch(bigint, text, bigint) is
  E'Send a staged or validated batch whose staged rows are gone or do not match its checkpoint back to received.\nErrors: IV201, IV202, IV208 as ingest.transition.';
revoke all on function ingest.restage_lost_batch(bigint, text, bigint) from public;
