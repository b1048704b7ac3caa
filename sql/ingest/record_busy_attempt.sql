-- ingest.record_busy_attempt: a run refused because another run holds the
-- batch (IV203 from ingest.begin_attempt) is recorded as an attempt too,
-- finished at once with outcome 'busy', so `status --batch` shows it
-- (so that status shows it).  Takes begin_attempt's jsonb argument; looks the
-- batch up by its bytes as begin_attempt does.  Bytes not registered yet
-- (the other run is registering them right now) leave nothing to record:
-- returns false.  An attempt number taken meanwhile by the run holding the
-- batch skips the record too (never an error).
-- Errors: none.
create or replace function ingest.record_busy_attempt(p_args jsonb)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_batch ingest.batch;
begin
  select * into v_batch from ingest.batch as b
   where b.source = p_args ->> 'source' and b.sha256 = p_args ->> 'sha256'
     and (b.file_records > 0
          or b.business_date = (p_args ->> 'business_date')::date)
   order by b.batch_id
   limit 1;
  if not found then
    return false;
  end if;
  insert into ingest.attempt as a (batch_id, attempt_no, run_id, host, pid, state_at_start,
                                   state_at_end, finished_at, outcome, error_class, message)
  values (v_batch.batch_id,
          (select coalesce(max(x.attempt_no), 0) + 1 from ingest.attempt as x
            where x.batch_id = v_batch.batch_id),
          (p_args ->> 'run_id')::uuid, p_args ->> 'host', (p_args ->> 'pid')::integer,
          v_batch.state, v_batch.state, pg_catalog.clock_timestamp(), 'busy', 'transient',
          'another run held the batch (its runner lock); this run gave up')
  on conflict do nothing;
  return found;
end;
$$;
comment on function ingest.record_busy_attempt(jsonb) is
  E'Record a run refused because another run holds the batch as a finished attempt with outcome busy.\nErrors: none.';
revoke all on function ingest.record_busy_attempt(jsonb) from public;
grant execute on function ingest.record_busy_attempt(jsonb) to invoice_loader;
