-- ingest.sweep: CALL ingest.sweep() runs every sweep once
-- (docs/guide/run-nightly.md), from psql, pg_cron or the loader; safe
-- concurrently with itself and with loads.  The parts, in order, each its own
-- function (callable alone, each in its caller's transaction), with a COMMIT
-- after every call so
-- that no transaction holds locks for long:
--   1. ingest.sweep_abandoned_attempts: open attempts whose runner is gone
--      become 'abandoned';
--   2. ingest.sweep_orphan_received(p_orphan_after): received batches
--      whose attempts all ended abandoned longer ago are quarantined
--      (batch.abandoned);
--   3. ingest.sweep_publish_ready: validated batches whose earlier dates
--      are published are published, one per transaction, through
--      ingest.publish_batch (so a chain of waiting dates publishes in one
--      sweep);
--   4. ingest.sweep_deadlines: deadline_missed, once per source and date;
--   5. ingest.sweep_retention(p_chunk): staging rows of batches finished
--      longer than the source's retention ago, p_chunk rows per
--      transaction;
--   6. ingest.sweep_typed_staging: the typed staging partitions of
--      finished batches that their clearing could not drop (staging was in
--      use then);
--   7. ingest.sweep_cron_history(p_cron_keep_days): pg_cron's run history
--      of the sweep jobs, when pg_cron is in this database.
-- A part that fails is reported as a WARNING and the next part still runs;
-- at the end the sweep raises the first part's error (SQLSTATE kept), so
-- pg_cron records the run as failed.  The run's end, and its outcome, is
-- recorded in ingest.sweep_run (ingest.record_sweep_run), committed before
-- that error: status shows the last run and the last successful one.
-- A procedure, SECURITY INVOKER and without SET clauses: PostgreSQL allows
-- COMMIT only then.  Every name is qualified, and the parts it calls are
-- SECURITY DEFINER functions with a pinned search_path.  Call it outside a
-- transaction block (a COMMIT inside BEGIN ... fails with 2D000).
-- Errors: the first error of a part (after all parts ran); IV308 invalid
-- arguments.
create or replace procedure ingest.sweep(
  p_orphan_after   interval default interval '24 hours',
  p_chunk          integer default 10000,
  p_cron_keep_days integer default 7)
language plpgsql
as $$
declare
  v_run      uuid := pg_catalog.gen_random_uuid();
  v_started  timestamptz := pg_catalog.clock_timestamp();
  v_skip     bigint[] := '{}';
  v_row      record;
  v_more     boolean;
  v_rounds   integer;
  v_part     text;
  v_sqlstate text;
  v_message  text;
  v_failed   text;
  v_failed_state text;
  v_failed_message text;
begin
  -- Each part in turn; a part that reports more work (publish ready: a
  -- batch published; deadlines: a full page written; retention: a chunk
  -- deleted) runs again in a new transaction, at most 100000 rounds.
  foreach v_part in array array['sweep_abandoned_attempts', 'sweep_orphan_received',
                                'sweep_publish_ready', 'sweep_deadlines',
                                'sweep_retention', 'sweep_typed_staging',
                                'sweep_cron_history'] loop
    v_rounds := 0;
    loop
      v_rounds := v_rounds + 1;
      exit when v_rounds > 100000;
      v_more := false;
      begin
        case v_part
          when 'sweep_abandoned_attempts' then
            perform from ingest.sweep_abandoned_attempts();
          when 'sweep_orphan_received' then
            perform from ingest.sweep_orphan_received(p_orphan_after);
          when 'sweep_publish_ready' then
            -- every batch looked at is passed over from then on, so the
            -- rounds end
            for v_row in select * from ingest.sweep_publish_ready(v_run, v_skip) loop
              v_skip := v_skip || v_row.batch_id;
              v_more := true;
            end loop;
          when 'sweep_deadlines' then
            v_more := ingest.sweep_deadlines(100) > 0;
          when 'sweep_retention' then
            select true into v_more from ingest.sweep_retention(p_chunk);
            v_more := coalesce(v_more, false);
          when 'sweep_typed_staging' then
            perform ingest.sweep_typed_staging();
          when 'sweep_cron_history' then
            perform ingest.sweep_cron_history(p_cron_keep_days);
        end case;
      exception when others then
        get stacked diagnostics v_sqlstate = returned_sqlstate, v_message = message_text;
        raise warning 'ingest.sweep: % failed: % (SQLSTATE %)', v_part, v_message, v_sqlstate;
        v_failed := coalesce(v_failed, v_part);
        v_failed_state := coalesce(v_failed_state, v_sqlstate);
        v_failed_message := coalesce(v_failed_message, v_message);
        v_more := false;
      end;
      commit;
      exit when not v_more;
    end loop;
  end loop;

  perform ingest.record_sweep_run(v_started, v_failed, v_failed_message);
  commit;
  if v_failed is not null then
    raise exception 'ingest.sweep: % failed: %', v_failed, v_failed_message
      using errcode = v_failed_state,
            hint    = 'The other parts ran; see the warnings for every failed part.';
  end if;
end;
$$;
comment on procedure ingest.sweep(interval, integer, integer) is
  E'Run every sweep once (abandoned attempts, orphan received batches, publish ready, deadlines, retention, typed staging partitions, pg_cron history), committing between parts and chunks.\nErrors: the first part''s error, raised after all parts ran.';
revoke all on procedure ingest.sweep(interval, integer, integer) from public;
grant execute on procedure ingest.sweep(interval, integer, integer) to invoice_loader, invoice_operator;
