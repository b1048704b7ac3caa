-- ingest.check_typed_staging_scope: the staging scope rule of
-- staging.invoice_line (ingest.check_staging_scope) for the loader's typed
-- COPY into staging.invoice_valid (migrations/0014): rows only for a
-- received batch whose runner lock the writing session holds.  The other
-- writer of that table is ingest.validate_batch's SQL path, which types
-- the raw rows of a staged batch as the owner (SECURITY DEFINER): a
-- statement run as invoice_owner is let through.  Hence SECURITY INVOKER:
-- current_user is the role the writing statement runs as.
-- Trigger function, statement-level, after INSERT on staging.invoice_valid.
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
  perform ingest.refuse_unscoped_staging(array(select distinct s.batch_id from staged as s));
  return null;
end;
$$;
comment on function ingest.check_typed_staging_scope() is
  E'Trigger: typed staging rows only from the owner (validation) or for a received batch whose runner lock the writing session holds.\nErrors: IV221.';
revoke all on function ingest.check_typed_staging_scope() from public;
