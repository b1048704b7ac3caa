-- ingest.sweep_abandoned_attempts: part of ingest.sweep.  An attempt left
-- unfinished by a run whose session is gone (process killed, host lost,
-- connection never resumed) is closed as 'abandoned', as begin_attempt
-- closes it when the next run starts.  "Gone" is decided by the runner
-- lock, not by a timeout: the loader's session holds the lock of (source,
-- business date) for as long as it runs (begin_attempt, resume_attempt), so
-- an open attempt whose lock no session holds has no runner.  A run that
-- was only away (a lost connection) and comes back finds its attempt closed
-- (IV209) and continues as a new attempt.
-- One transaction; per (source, business date) the runner lock is held
-- until commit, so a loader starting meanwhile retries (IV203).
-- Idempotent; concurrent sweeps skip what another holds.
-- Returns each batch whose attempts were closed, with how many.
-- Locks: runner advisory locks (transaction level), attempt rows.
-- Errors: none.
create or replace function ingest.sweep_abandoned_attempts()
returns table (batch_id bigint, attempts integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_key record;
begin
  for v_key in
    select distinct b.source, b.business_date
    from ingest.attempt as a
    join ingest.batch as b on b.batch_id = a.batch_id
    where a.finished_at is null
    order by b.source, b.business_date
  loop
    continue when not ingest.try_runner_xact_lock(v_key.source, v_key.business_date);
    return query
      with closed as (
        update ingest.attempt as a
           set finished_at = pg_catalog.clock_timestamp(), outcome = 'abandoned',
               error_class = 'abandoned', state_at_end = b.state,
               message = 'the run ended without finishing this attempt (process killed, host '
                         || 'lost or connection never resumed); closed by ingest.sweep'
          from ingest.batch as b
         where b.batch_id = a.batch_id and b.source = v_key.source
           and b.business_date = v_key.business_date and a.finished_at is null
        returning a.batch_id)
      select c.batch_id, count(*)::integer from closed as c group by c.batch_id;
  end loop;
end;
$$;
comment on function ingest.sweep_abandoned_attempts() is
  E'Sweep part: close as abandoned the open attempts whose runner lock no session holds.\nErrors: none.';
revoke all on function ingest.sweep_abandoned_attempts() from public;
grant execute on function ingest.sweep_abandoned_attempts() to invoice_loader, invoice_operator;
