-- ingest.check_staging_scope: staging rows are written only by the run
-- that holds the batch, so that no session writes into another load's
-- batch: every batch a statement wrote
-- rows of into staging.invoice_line must be `received` and its runner lock
-- held by the writing session (ingest.refuse_unscoped_staging); otherwise
-- the statement fails and writes nothing.  So a stray INSERT cannot wedge a
-- staged batch, nor refill a received one that another run is loading.
-- It applies to every role; only the owner and superusers can get past it,
-- by disabling the trigger (tests simulate a wedged batch so).
-- Trigger function, statement-level, after INSERT on staging.invoice_line
-- (the trigger: migrations/0011); once per statement over the rows it
-- wrote, so a COPY keeps its multi-row inserts.
-- Errors: IV221 (ingest.refuse_unscoped_staging).
create or replace function ingest.check_staging_scope()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform ingest.refuse_unscoped_staging(array(select distinct s.batch_id from staged as s));
  return null;
end;
$$;
comment on function ingest.check_staging_scope() is
  E'Trigger: staging rows only for a received batch whose runner lock the writing session holds.\nErrors: IV221.';
revoke all on function ingest.check_staging_scope() from public;
