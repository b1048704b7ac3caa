-- ingest.refuse_unscoped_staging: the staging scope rule
-- over the batches a statement wrote staging rows for: each must exist, be
-- `received`, and have its runner lock (the session advisory lock
-- ingest.begin_attempt and ingest.resume_attempt take on (source, business
-- date)) held by this session.  Raises otherwise, which fails the writing
-- statement as a whole.  Called by the statement-level staging triggers
-- (ingest.check_staging_scope for staging.invoice_line,
-- ingest.check_typed_staging_scope for staging.invoice_valid).
-- SECURITY DEFINER: the loader cannot read ingest.batch itself.
-- Errors: IV221 rows for a batch that is not received, does not exist, or
-- whose runner lock this session does not hold.
create or replace function ingest.refuse_unscoped_staging(p_batch_ids bigint[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_bad record;
begin
  select w.batch_id, b.state, b.source, b.business_date into v_bad
  from unnest(p_batch_ids) as w(batch_id)
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
end;
$$;
comment on function ingest.refuse_unscoped_staging(bigint[]) is
  E'Raise unless every batch is received and its runner lock held by this session.\nErrors: IV221.';
revoke all on function ingest.refuse_unscoped_staging(bigint[]) from public;
grant execute on function ingest.refuse_unscoped_staging(bigint[]) to invoice_loader;
