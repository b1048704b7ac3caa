-- ingest.mark_staged: the loader's checkpoint after COPY, called in the same
-- transaction as the COPY into staging.invoice_line.  Verifies that the
-- server stored exactly the records the loader sent (a PostgreSQL 15 COPY
-- stops silently at a \. line), then moves the batch received -> staged.
-- Errors: IV204 stored count differs from the sent count; IV201/IV208 as
-- ingest.transition.
create or replace function ingest.mark_staged(
  p_batch_id   bigint,
  p_attempt_id bigint,
  p_sent       bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_stored bigint;
begin
  perform 1 from ingest.batch as b where b.batch_id = p_batch_id for update;
  select count(*) into v_stored from staging.invoice_line as l where l.batch_id = p_batch_id;
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
comment on function ingest.mark_staged(bigint, bigint, bigint) is
  E'Checkpoint staged after COPY, verifying the record count.\nErrors: IV204 count mismatch; IV201, IV208 as ingest.transition.';
revoke all on function ingest.mark_staged(bigint, bigint, bigint) from public;
grant execute on function ingest.mark_staged(bigint, bigint, bigint) to invoice_loader;
