-- ingest.clear_typed_staging: remove what validation and publication
-- derived of a batch in staging (its typed rows in staging.invoice_valid,
-- its keys' history in staging.key_version), once the batch is published
-- or quarantined, or before it is staged again.  The raw rows
-- (staging.invoice_line) stay: what a clerk needs of a rejection is in
-- ingest.rejection_row, and ingest.restage_lost_batch deletes them itself.
-- Idempotent.  Internal (called by the steps, which hold the batch row
-- lock): no EXECUTE grants.
-- Errors: none.
create or replace function ingest.clear_typed_staging(p_batch_id bigint)
returns void
language sql
set search_path = ''
as $$
  delete from staging.invoice_valid as v where v.batch_id = p_batch_id;
  delete from staging.key_version as h where h.batch_id = p_batch_id;
$$;
comment on function ingest.clear_typed_staging(bigint) is
  E'Delete a batch''s typed rows and key history from staging.\nErrors: none.';
revoke all on function ingest.clear_typed_staging(bigint) from public;
