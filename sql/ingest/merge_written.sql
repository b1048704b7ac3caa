-- ingest.merge_written: what a batch's merge wrote into
-- core.invoice_version, read back from the table (the second
-- reconciliation counts what is there, not what the INSERT meant to
-- write): invoices inserted, amended and voided, versions that went
-- straight to history (late), and the gross amount of all of them, as the
-- jsonb publication keeps in batch.merge_counts.  RETURN QUERY, so that
-- the read may run in parallel workers (a SELECT ... INTO in PL/pgSQL
-- never does).  Inside a publication it does not yet: the planner costs
-- it on the statistics from before the insert, which put the new batch
-- at a few thousand rows, and plans one process (docs/PERFORMANCE.md;
-- zero parallel costs for the function did not change that).
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.merge_written(p_batch_id bigint)
returns setof jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return query
  select jsonb_build_object(
           'inserted', count(*) filter (where cv.is_current and cv.status = 'ISSUED'
                                          and cv.supersedes_revision is null),
           'amended',  count(*) filter (where cv.is_current and cv.status = 'ISSUED'
                                          and cv.supersedes_revision is not null),
           'voided',   count(*) filter (where cv.is_current and cv.status = 'VOID'),
           'late',     count(*) filter (where not cv.is_current),
           'versions_gross', coalesce(sum(cv.gross_amount), 0))
  from core.invoice_version as cv where cv.batch_id = p_batch_id;
end;
$$;
comment on function ingest.merge_written(bigint) is
  E'What a batch''s merge wrote (inserted, amended, voided, late, their gross), read back in parallel.\nErrors: none.';
revoke all on function ingest.merge_written(bigint) from public;
