-- ingest.resume_attempt: after a lost connection, the same run continues its
-- attempt on a new session: take the runner lock again and read where the
-- batch stands.  Because the lock is taken first, the session that held it
-- before is gone, so its last transaction is final (committed or aborted)
-- and the state read is the truth: a step whose COMMIT reply was lost shows
-- as done, one whose COMMIT never arrived shows as not done.  With the xid
-- the lost transaction recorded, pg_xact_status tells which it was.  An
-- xid ahead of this server's own (the primary failed over to a standby that
-- never received that transaction) reads 'not on this server': the state
-- read is still the truth, and pg_xact_status would raise 22023 for it.
-- Locks: the runner advisory lock (ingest.runner_lock_key), session level.
-- Errors: IV203 another session holds the runner lock (try again later);
-- IV209 the attempt is closed (another run took the batch over); IV208 no
-- such attempt.
create or replace function ingest.resume_attempt(p_attempt_id bigint, p_xid text default null)
returns table (state text, xact_status text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_attempt ingest.attempt;
  v_batch   ingest.batch;
  v_key     record;
begin
  select * into v_attempt from ingest.attempt as a where a.attempt_id = p_attempt_id;
  if not found then
    raise exception 'attempt % does not exist', p_attempt_id using errcode = 'IV208';
  end if;
  select * into v_batch from ingest.batch as b where b.batch_id = v_attempt.batch_id;
  select * into v_key from ingest.runner_lock_key(v_batch.source, v_batch.business_date);
  if not pg_catalog.pg_try_advisory_lock(v_key.key1, v_key.key2) then
    raise exception 'another session holds batch % of source % for %',
                    v_batch.batch_id, v_batch.source, v_batch.business_date
      using errcode = 'IV203',
            hint    = 'The previous session of this run may not have ended yet; try again shortly.';
  end if;
  if v_attempt.finished_at is not null then
    perform pg_catalog.pg_advisory_unlock(v_key.key1, v_key.key2);
    raise exception 'attempt % of batch % was closed as % while this run was away',
                    v_attempt.attempt_no, v_batch.batch_id, v_attempt.outcome
      using errcode = 'IV209',
            hint    = 'Another run took the batch over; run status to see its outcome.';
  end if;
  update ingest.attempt as a set backend_pid = pg_catalog.pg_backend_pid()
   where a.attempt_id = p_attempt_id;
  return query
    select v_batch.state,
           case when p_xid is null then null
                when p_xid::xid8 > pg_catalog.pg_current_xact_id() then 'not on this server'
                else pg_catalog.pg_xact_status(p_xid::xid8) end;
end;
$$;
comment on function ingest.resume_attempt(bigint, text) is
  E'Continue an attempt on a new session: retake the runner lock, read the batch state (and the lost transaction''s status).\nErrors: IV203 lock held elsewhere; IV209 attempt closed; IV208 no such attempt.';
revoke all on function ingest.resume_attempt(bigint, text) from public;
grant execute on function ingest.resume_attempt(bigint, text) to invoice_loader;
