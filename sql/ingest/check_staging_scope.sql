-- ingest.check_staging_scope: staging rows are written only by the run
-- that holds the batch (issue 14 item 5).  Every batch a statement wrote
-- rows of into staging.invoice_line must be `received` and its runner lock
-- (the session advisory lock ingest.begin_attempt and ingest.resume_attempt
-- take on (source, business date)) held by the writing session; otherwise
-- the statement fails and writes nothing.  So a stray INSERT cannot wedge a
-- staged batch, nor refill a received one that another run is loading.
-- It applies to every role; only the owner and superusers can get past it,
-- by disabling the trigger (tests simulate a wedged batch so).
-- Trigger function, statement-level, after INSERT on staging.invoice_line
-- (the trigger: migrations/0011); once per statement over the rows it
-- wrote, so a COPY keeps its multi-row inserts.  SECURITY DEFINER: the
-- loader cannot read ingest.batch itself.
-- Errors: IV221 rows for a batch that is not received, does not exist, or
-- whose runner lock this session does not hold.
create or replace function ingest.check_staging_scope()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_bad record;
begin
  select w.batch_id, b.state, b.source, b.business_date into v_bad
  from (select distinct s.batch_id from staged as s) as w
  left join ingest.batch as b on b.batch_id = w.batch_id
  where b.batch_id is null
     or b.state <> 'received'
     or not ingest.holds_runner_lock(b.source, b.business_date)
  order by w.batch_id
  limit 1;
  if found then
    raise exception 'staging rows for batch % refused: %', v_bad.batch_id,
                    case when v_bad.state is null then 'no such batch'
                         when v_bad.state <> 'received' then 'the batch is ' || v_bad.state
                         else 'this session does not hold the batch''s runner lock' end
      using errcode = 'IV221',
            detail  = 'Only the run holding a received batch (the session that began or resumed its attempt) stages its records.',
            hint    = 'Load the file with invoice-loader load; it stages the records itself.';
  end if;
  return null;
end;
$$;
comment on function ingest.check_staging_scope() is
  E'Trigger: staging rows only for a received batch whose runner lock the writing session holds.\nErrors: IV221.';
revoke all on function ingest.check_staging_scope() from public;
