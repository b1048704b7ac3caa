-- ingest.attempt_that_left: the attempt whose run took a batch into a
-- state, for the audit trail of replay and revert: the attempt recorded
-- with the batch's latest event into p_to_state ('quarantined': the run
-- that quarantined it; 'published': the run that published it).  Later
-- attempts that changed nothing (a plain rerun of a quarantined batch
-- exits 65 and records an attempt) are not it.  When that event names no
-- attempt (a sweep's publication, a quarantine by a sweep), the batch's
-- latest attempt before that event; failing that, its latest attempt.
-- Errors: none.
create or replace function ingest.attempt_that_left(p_batch_id bigint, p_to_state text)
returns ingest.attempt
language plpgsql
stable
set search_path = ''
as $$
declare
  v_event   ingest.batch_event;
  v_attempt ingest.attempt;
begin
  select * into v_event from ingest.batch_event as e
   where e.batch_id = p_batch_id and e.to_state = p_to_state
   order by e.event_id desc limit 1;
  if v_event.attempt_id is not null then
    select * into v_attempt from ingest.attempt as a where a.attempt_id = v_event.attempt_id;
  elsif v_event.event_id is not null then
    select * into v_attempt from ingest.attempt as a
     where a.batch_id = p_batch_id and a.started_at <= v_event.at
     order by a.attempt_no desc limit 1;
  end if;
  if v_attempt.attempt_id is null then
    select * into v_attempt from ingest.attempt as a
     where a.batch_id = p_batch_id order by a.attempt_no desc limit 1;
  end if;
  return v_attempt;
end;
$$;
comment on function ingest.attempt_that_left(bigint, text) is
  E'The attempt that took a batch into a state (its latest event into it), for replay and revert.\nErrors: none.';
revoke all on function ingest.attempt_that_left(bigint, text) from public;
