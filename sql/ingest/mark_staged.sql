-- ingest.mark_staged: the loader's checkpoint after COPY, called in the same
-- transaction as the COPY into staging (the loader's typed rows into
-- staging.invoice_valid, or raw rows into staging.invoice_line).  Verifies
-- that the server stored exactly the records the loader sent (a PostgreSQL
-- 15 COPY stops silently at a \. line), then moves the batch received ->
-- staged.
-- p_copied is the row count of the COPY's command tag, the server's own
-- account of what that COPY stored in this transaction; without it (a
-- caller that staged rows some other way) the batch's rows in both tables
-- are counted, which costs a scan of them (0.3 s per million).
-- Errors: IV204 stored count differs from the sent count; IV201/IV208 as
-- ingest.transition.
create or replace function ingest.mark_staged(
  p_batch_id   bigint,
  p_attempt_id bigint,
  p_sent       bigint,
  p_copied     bigint default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_stored bigint;
begin
  perform 1 from ingest.batch as b where b.batch_id = p_batch_id for update;
  if p_copied is not null then
    v_stored := p_copied;
  else
    select (select count(*) from staging.invoice_line as l where l.batch_id = p_batch_id)
           + (select count(*) from staging.invoice_valid as v where v.batch_id = p_batch_id)
      into v_stored;
  end if;
  if v_stored is distinct from p_sent then
    raise exception 'batch %: the server stored % records, the loader sent %',
                    p_batch_id, v_stored, p_sent
      using errcode = 'IV204',
            detail  = 'The staging transaction is rolled back; nothing is checkpointed.';
  end if;
  update ingest.batch as b set staged_count = v_stored::integer where b.batch_id = p_batch_id;
  perform ingest.transition(p_batch_id, 'received', 'staged', p_attempt_id,
                            jsonb_build_object('records', v_stored));
end;
$$;
comment on function ingest.mark_staged(bigint, bigint, bigint, bigint) is
  E'Checkpoint staged after COPY, verifying the record count.\nErrors: IV204 count mismatch; IV201, IV208 as ingest.transition.';
revoke all on function ingest.mark_staged(bigint, bigint, bigint, bigint) from public;
grant execute on function ingest.mark_staged(bigint, bigint, bigint, bigint) to invoice_loader;
