-- core.guard_invoice_version: a published version is history.  A version
-- row may take exactly two changes:
--   - its supersession (publication): is_current true -> false, with the
--     batch and time that superseded it, current_since unchanged;
--   - its restoration (ingest.revert_batch): is_current false -> true,
--     superseded_by_batch_id and superseded_at cleared, current_since set,
--     and only when the batch that had superseded it is reverted, or
--     quarantined (ingest.reject_batch: a written batch rejected before
--     its publication; a batch quarantined otherwise superseded nothing).
-- Any other UPDATE raises IV210.  DELETE is left to the owner's maintenance
-- (revert, which moves a reverted batch's versions to
-- core.invoice_version_reverted; retention), which no role but
-- invoice_owner can do.
-- Trigger function; installed with its trigger below (re-applied by
-- migrate, like every file of sql/).
create or replace function core.guard_invoice_version()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (new.source, new.invoice_number, new.revision, new.status, new.document_type,
      new.customer_id, new.invoice_date, new.due_date, new.currency, new.net_amount,
      new.tax_amount, new.gross_amount, new.description, new.content_hash, new.batch_id,
      new.record_no, new.supersedes_revision, new.published_at)
     is distinct from
     (old.source, old.invoice_number, old.revision, old.status, old.document_type,
      old.customer_id, old.invoice_date, old.due_date, old.currency, old.net_amount,
      old.tax_amount, old.gross_amount, old.description, old.content_hash, old.batch_id,
      old.record_no, old.supersedes_revision, old.published_at)
     or not (
       -- supersession
       (old.is_current and not new.is_current
        and new.current_since is not distinct from old.current_since)
       -- restoration by the revert of the batch that superseded it
       or (not old.is_current and new.is_current
           and new.superseded_by_batch_id is null and new.superseded_at is null
           and new.current_since is not null
           and exists (select from ingest.batch as b
                       where b.batch_id = old.superseded_by_batch_id
                         and b.state in ('reverted', 'quarantined')))) then
    raise exception 'invoice % revision % of source %: a published version is not updated in place',
                    old.invoice_number, old.revision, old.source
      using errcode = 'IV210',
            detail  = 'Only its supersession (is_current true -> false), or its restoration when the batch that superseded it is reverted, may be recorded.',
            hint    = 'Publish a higher revision instead, or revert the publication (invoice-loader revert).';
  end if;
  return new;
end;
$$;
comment on function core.guard_invoice_version() is
  E'Trigger: versions are immutable but for their supersession and their restoration by a revert.\nErrors: IV210.';
revoke all on function core.guard_invoice_version() from public;

-- The WHEN clause lets a supersession through without calling the
-- function: the same test as the function's, an expression the executor
-- evaluates itself, where a PL/pgSQL call per superseded row took 11 µs
-- (a second of a publication superseding 90,000 versions;
-- docs/PERFORMANCE.md).  Everything else (restorations, and whatever the
-- function refuses) still goes to the function.  The clause is never
-- NULL (IS NOT DISTINCT FROM, IS TRUE, IS FALSE), so no row slips past it
-- unchecked.
create or replace trigger invoice_version_is_history
  before update on core.invoice_version
  for each row
  when (not ((new.source, new.invoice_number, new.revision, new.status, new.document_type,
              new.customer_id, new.invoice_date, new.due_date, new.currency, new.net_amount,
              new.tax_amount, new.gross_amount, new.description, new.content_hash,
              new.batch_id, new.record_no, new.supersedes_revision, new.published_at)
             is not distinct from
             (old.source, old.invoice_number, old.revision, old.status, old.document_type,
              old.customer_id, old.invoice_date, old.due_date, old.currency, old.net_amount,
              old.tax_amount, old.gross_amount, old.description, old.content_hash,
              old.batch_id, old.record_no, old.supersedes_revision, old.published_at)
             and old.is_current is true and new.is_current is false
             and new.current_since is not distinct from old.current_since))
  execute function core.guard_invoice_version();
