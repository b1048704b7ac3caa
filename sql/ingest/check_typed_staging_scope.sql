-- ingest.check_typed_staging_scope: the staging scope rule of
-- staging.invoice_line (ingest.check_staging_scope) for the loader's typed
-- COPY into staging.invoice_valid: rows only for a received batch whose
-- runner lock the writing session holds.
--  - On the shared partition staging.invoice_valid_shared (migrations/0014,
--    0028; no argument): over the batches of the statement's rows (the
--    transition table staged).
--  - On a batch's own partition staging.invoice_valid_b<batch_id>
--    (ingest.typed_staging; the batch id as its argument): once, before the
--    statement writes anything; the partition's CHECK pins every row to the
--    batch, so no transition table is needed (it cost the shared table's
--    COPY 0.1-0.2 us a row: docs/PERFORMANCE.md).
-- The other writer of those tables is ingest.validate_batch's SQL path,
-- which types the raw rows of a staged batch as the owner (SECURITY
-- DEFINER): a statement run as invoice_owner is let through.  Hence
-- SECURITY INVOKER: current_user is the role the writing statement runs
-- as.
-- Trigger function, statement-level: after INSERT on the shared partition,
-- before INSERT on a batch's own.
-- Errors: IV221 (ingest.refuse_unscoped_staging).
create or replace function ingest.check_typed_staging_scope()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user = 'invoice_owner' then
    return null;  -- validation's own SQL path (or the owner by hand)
  end if;
  if tg_nargs > 0 then
    perform ingest.refuse_unscoped_staging(array[tg_argv[0]::bigint]);
  else
    perform ingest.refuse_unscoped_staging(array(select distinct s.batch_id from staged as s));
  end if;
  return null;
end;
$$;
comment on function ingest.check_typed_staging_scope() is
  E'Trigger: typed staging rows only from the owner (validation) or for a received batch whose runner lock the writing session holds (the batch of the partition, given as the argument, or those of the statement''s rows).\nErrors: IV221.';
revoke all on function ingest.check_typed_staging_scope() from public;
