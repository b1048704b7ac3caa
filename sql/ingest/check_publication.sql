-- ingest.check_publication: the deferred constraint trigger
-- publication_reconciles on ingest.batch (migration 0032).  When a
-- transaction that moved a batch to published commits, whatever function
-- or statement did it, the batch must reconcile with its manifest as
-- ingest.publication_difference reads it from the rows readers are about
-- to see; otherwise the commit fails and nothing of it is published:
-- the batch stays validated and written, the watermark and the outbox as
-- they were.  ingest.write_batch reconciles the same equations before it
-- lists the batch for publication (quarantining it when they fail), so
-- this fires only when something between the write and the publication
-- changed the rows or the counts: a defect, not a property of the file.
-- Cost: one scan of the batch's versions (the BRIN index on batch_id) and
-- of its rejection rows, per publication.
-- Trigger function (deferred constraint trigger, AFTER UPDATE OF state,
-- per row, when the new state is published).
-- Errors: IV222 the publication does not reconcile with the manifest.
create or replace function ingest.check_publication()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_diff text[];
begin
  v_diff := ingest.publication_difference(new.batch_id);
  if cardinality(v_diff) > 0 then
    raise exception 'batch %: the publication does not reconcile with its manifest: %',
      new.batch_id, array_to_string(v_diff, '; ')
      using errcode = 'IV222',
            hint = 'Nothing was published. The rows or counts written for the batch changed '
                   'after its write; see docs/guide/recover.md.';
  end if;
  return null;
end;
$$;
revoke all on function ingest.check_publication() from public;
