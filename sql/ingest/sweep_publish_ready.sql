-- ingest.sweep_publish_ready: part of ingest.sweep.  Publishes at most one
-- 'validated' batch whose turn has come: its business date is at most the
-- watermark + 1 (every earlier date is published), or, for a source with
-- nothing published yet, its start date (without a start date: the
-- source's earliest validated date, as the loader would publish it).  Such
-- a batch waited (the loader exited 75) or its loader died after
-- validation, or its loader died between writing its versions and
-- publishing them (ingest.write_batch): such a written batch comes first,
-- since it always may publish and the other batches of its source wait for
-- it.  It is published through ingest.publish_batch, the function
-- the loader calls, under an attempt of its own: run id p_run_id (one per
-- sweep), host 'ingest.sweep', pid the backend's; opened and closed in
-- this transaction, so a crash leaves no open attempt behind.  An error of
-- publish_batch rolls back to before it and is recorded as the attempt's
-- outcome ('failed', SQLSTATE, message); a batch whose staged rows a crash
-- took goes back to received (publish_batch's 'restage': the next load
-- stages the file again), recorded as 'failed' with error class 'restage'.
-- Batches another session is running (its runner lock is held) and those
-- in p_skip are passed over; so that the caller can pass them over next
-- time, every batch looked at is returned: outcome 'busy' when passed over,
-- or the attempt's outcome.  No row: nothing is ready.
-- A batch written awaiting approval (a source with require_approval) is
-- never looked at: only ingest.approve_batch publishes it.  A validated
-- batch of such a source not written yet is written here and then waits
-- for approval (the attempt's outcome 'waiting').
-- One transaction per call, one publication at most (ingest.sweep commits
-- after each call).
-- Locks: the runner advisory lock (transaction level), then what
-- publish_batch takes (the source's publication lock, the batch row, the
-- watermark row).
-- Errors: none (a failed publication is recorded on its attempt).
create or replace function ingest.sweep_publish_ready(
  p_run_id uuid default pg_catalog.gen_random_uuid(),
  p_skip   bigint[] default '{}')
returns table (batch_id bigint, outcome text, attempt_id bigint)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_b        record;
  v_attempt  bigint;
  v_outcome  text;
  v_counts   jsonb;
  v_class    text;
  v_sqlstate text;
  v_message  text;
begin
  for v_b in
    select b.batch_id, b.source, b.business_date
    from ingest.batch as b
    join ingest.source as s on s.source = b.source
    left join ingest.source_watermark as w on w.source = b.source
    left join ingest.pending_publication as pp on pp.batch_id = b.batch_id
    where b.state = 'validated'
      and b.batch_id <> all (coalesce(p_skip, '{}'))
      -- four eyes: a batch awaiting approval is the operator's to publish
      -- (ingest.approve_batch), never the sweep's
      and not coalesce(pp.awaits_approval and pp.approved_by_action is null, false)
      and case when w.source is not null then b.business_date <= w.business_date + 1
               when s.start_date is not null then b.business_date = s.start_date
               else b.business_date = (select min(x.business_date) from ingest.batch as x
                                       where x.source = b.source and x.state = 'validated')
          end
    -- a written batch first: every other batch of its source waits for it
    order by pp.batch_id is null, b.source, b.business_date, b.batch_id
  loop
    if not ingest.try_runner_xact_lock(v_b.source, v_b.business_date) then
      batch_id := v_b.batch_id; outcome := 'busy'; attempt_id := null;
      return next;
      continue;
    end if;
    -- Under the runner lock: still validated?  (A loader may have published
    -- it between the query above and the lock.)
    perform from ingest.batch as b where b.batch_id = v_b.batch_id and b.state = 'validated';
    if not found then
      batch_id := v_b.batch_id; outcome := 'busy'; attempt_id := null;
      return next;
      continue;
    end if;

    -- Attempts of a runner that is gone are closed, as begin_attempt does.
    update ingest.attempt as a
       set finished_at = pg_catalog.clock_timestamp(), outcome = 'abandoned',
           error_class = 'abandoned', state_at_end = 'validated',
           message = 'the run ended without finishing this attempt (process killed, host '
                     || 'lost or connection never resumed); closed by ingest.sweep'
     where a.batch_id = v_b.batch_id and a.finished_at is null;
    insert into ingest.attempt as a (batch_id, attempt_no, run_id, host, pid, state_at_start)
    values (v_b.batch_id,
            (select coalesce(max(x.attempt_no), 0) + 1 from ingest.attempt as x
              where x.batch_id = v_b.batch_id),
            coalesce(p_run_id, pg_catalog.gen_random_uuid()), 'ingest.sweep',
            pg_catalog.pg_backend_pid(), 'validated')
    returning a.attempt_id into v_attempt;

    v_class := null; v_sqlstate := null; v_message := null;
    begin
      select p.outcome, p.counts into v_outcome, v_counts
      from ingest.publish_batch(v_b.batch_id, v_attempt) as p;
    exception when others then
      -- Recorded, not raised: one batch's error must not stop the sweep of
      -- the others; the attempt says what happened, status shows it.
      get stacked diagnostics v_sqlstate = returned_sqlstate, v_message = message_text;
      v_outcome := 'failed';
      v_class := 'sweep';
    end;
    if v_outcome = 'restage' then
      v_outcome := 'failed';
      v_class := 'restage';
      v_message := 'the staged records were lost in a server crash; the batch is received '
                   || 'again and the next load of its file stages it';
    elsif v_outcome = 'awaiting_approval' then
      -- written now, for a source that requires approval: it waits for an
      -- operator's approve, and the sweep passes it over from now on
      v_outcome := 'waiting';
      v_message := 'written; awaiting approval (invoice-loader approve --batch '
                   || v_b.batch_id || ' --reason TEXT)';
    elsif v_outcome = 'waiting' and v_counts ? 'waiting_for_batch' then
      v_message := 'batch ' || (v_counts ->> 'waiting_for_batch')
                   || ' of the source is written and not yet published';
    elsif v_outcome = 'waiting' then
      v_message := 'an earlier business date is not published yet';
    end if;
    perform ingest.finish_attempt(v_attempt, v_outcome, v_class, v_sqlstate, v_message);

    batch_id := v_b.batch_id; outcome := v_outcome; attempt_id := v_attempt;
    return next;
    return;
  end loop;
end;
$$;
comment on function ingest.sweep_publish_ready(uuid, bigint[]) is
  E'Sweep part: publish one validated batch whose earlier dates are published, through ingest.publish_batch, under an attempt of its own.\nErrors: none (recorded on the attempt).';
revoke all on function ingest.sweep_publish_ready(uuid, bigint[]) from public;
grant execute on function ingest.sweep_publish_ready(uuid, bigint[]) to invoice_loader, invoice_operator;
