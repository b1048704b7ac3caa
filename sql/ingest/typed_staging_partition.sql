-- ingest.typed_staging_partition: a batch's own partition of
-- staging.invoice_valid, staging.invoice_valid_b<batch_id>, or NULL when
-- it has none (its typed rows, if any, are in the DEFAULT partition
-- staging.invoice_valid_shared; migrations/0028).  ingest.typed_staging,
-- which creates the table, names it the same way; ingest.drop_typed_staging
-- drops it.
-- Helper: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.typed_staging_partition(p_batch_id bigint)
returns pg_catalog.regclass
language sql
stable
set search_path = ''
as $$
  select pg_catalog.to_regclass(pg_catalog.format('staging.%I', 'invoice_valid_b' || p_batch_id))
$$;
comment on function ingest.typed_staging_partition(bigint) is
  E'The batch''s own partition of staging.invoice_valid (staging.invoice_valid_b<batch_id>), or NULL.\nErrors: none.';
revoke all on function ingest.typed_staging_partition(bigint) from public;
