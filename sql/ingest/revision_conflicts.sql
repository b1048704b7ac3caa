-- ingest.revision_conflicts: the typed records of a batch that carry a
-- published (invoice_number, revision) with other content, against what
-- history held for the batch's keys (staging.key_version): each record's
-- number, key, revision and readable gross amount, and the batch that
-- published that revision.  RETURN QUERY, so that the join of the batch's
-- rows with its key history may run in parallel workers (the caller,
-- ingest.reject_revision_conflicts, writes the rejections; an INSERT ...
-- SELECT never runs in parallel; docs/PERFORMANCE.md).
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.revision_conflicts(p_batch_id bigint)
returns table (record_no integer, invoice_number text, revision integer,
               version_batch_id bigint, gross_amount numeric)
language plpgsql
stable
set search_path = ''
as $$
begin
  return query
  select v.record_no, v.invoice_number, v.revision, h.version_batch_id, v.gross_amount
  from staging.invoice_valid as v
  join staging.key_version as h
    on h.batch_id = p_batch_id and h.invoice_number = v.invoice_number
   and h.revision = v.revision
  where v.batch_id = p_batch_id and h.content_hash <> v.content_hash;
end;
$$;
comment on function ingest.revision_conflicts(bigint) is
  E'The typed records of a batch that carry a published revision with other content (parallel read).\nErrors: none.';
revoke all on function ingest.revision_conflicts(bigint) from public;
