-- ingest.drop_rejected_records: records rejected after validation (a
-- revision conflict, a closed period), taken out of what the merge reads:
-- their typed rows (staging.invoice_valid) go, and the key history's
-- columns that held them beside their key's versions
-- (staging.key_version.batch_*) are emptied.  Their rejection rows keep
-- their gross amount and fields for the reconciliation and the reject
-- file.  The one way both callers do it, so the merge's inputs stay
-- consistent.
-- Returns the typed rows deleted.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.drop_rejected_records(p_batch_id bigint,
                                                       p_record_nos integer[])
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_count integer;
begin
  update staging.key_version as h
     set batch_record_no = null, batch_revision = null, batch_content_hash = null,
         batch_gross_amount = null
   where h.batch_id = p_batch_id and h.batch_record_no = any (p_record_nos);
  delete from staging.invoice_valid as v
   where v.batch_id = p_batch_id and v.record_no = any (p_record_nos);
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
comment on function ingest.drop_rejected_records(bigint, integer[]) is
  'Take records rejected after validation out of the typed rows and the key history''s batch columns.';
revoke all on function ingest.drop_rejected_records(bigint, integer[]) from public;
