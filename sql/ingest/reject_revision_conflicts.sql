-- ingest.reject_revision_conflicts: revisions are immutable.  Every typed,
-- accepted record of the batch whose (invoice_number, revision) is already
-- published with other content is rejected (rule revision.conflict) and
-- taken out of staging.invoice_valid.  Used by validation, and again by
-- publication for what was published while the batch waited.
-- Returns the number of records taken out.  Internal: no EXECUTE grants.
create or replace function ingest.reject_revision_conflicts(p_batch_id bigint, p_source text)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_count integer;
begin
  with bad as (
    insert into ingest.rejection_row (batch_id, record_no, invoice_number, rule, detail)
    select p_batch_id, v.record_no, v.invoice_number, 'revision.conflict',
           format('invoice %s revision %s was published by batch %s with different content',
                  v.invoice_number, v.revision, cv.batch_id)
    from staging.invoice_valid as v
    join core.invoice_version as cv
      on cv.source = p_source and cv.invoice_number = v.invoice_number
     and cv.revision = v.revision
    where v.batch_id = p_batch_id and cv.content_hash <> v.content_hash
    on conflict do nothing
    returning record_no)
  delete from staging.invoice_valid as v
   using bad where v.batch_id = p_batch_id and v.record_no = bad.record_no;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
comment on function ingest.reject_revision_conflicts(bigint, text) is
  'Reject the records of a batch that carry a published (invoice_number, revision) with other content.';
revoke all on function ingest.reject_revision_conflicts(bigint, text) from public;
