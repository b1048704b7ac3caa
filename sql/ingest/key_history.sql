-- ingest.key_history: what history holds for the keys of a batch (every
-- published version of each distinct invoice number of its typed rows),
-- with each version's content hash in form 2 (a form-1 version, published
-- before migrations/0014, is hashed anew).  The read behind
-- staging.key_version (ingest.reject_revision_conflicts).
-- p_min, p_max: the batch's smallest and largest invoice number (the
-- caller has them).  No key of the batch lies outside them, so only the
-- versions within them are read: for invoice numbers that grow over time
-- and amendments of recent invoices, a range scan of the primary key over
-- the recent end of history instead of a scan of all of it; for keys all
-- over the history, the same scan as without them.
-- p_distinct: the batch's records are known to have distinct invoice
-- numbers (batch.distinct_keys = its record count): the typed rows are
-- joined as they are, without first making their keys distinct (a hash
-- aggregate of a million keys, most of the read over a long history), and
-- each version comes with the batch's one record of its key (record
-- number, revision, content hash, gross amount; NULL in the other form),
-- which the revision-conflict check and the supersession then read from
-- staging.key_version instead of joining the typed rows again.
-- RETURN QUERY, so that PostgreSQL may run the join in parallel workers
-- (an INSERT ... SELECT never does; docs/PERFORMANCE.md): over a long
-- history the read is a hash join of the batch's keys with a scan of the
-- source's versions in the range.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.key_history(p_batch_id bigint, p_source text,
                                              p_min text, p_max text, p_distinct boolean)
returns table (invoice_number text, revision integer, is_current boolean, content_hash bytea,
               version_batch_id bigint, batch_record_no integer, batch_revision integer,
               batch_content_hash bytea, batch_gross_amount numeric)
language plpgsql
stable
set search_path = ''
as $$
begin
  -- the two forms differ in the keys' subquery (%s): the records as they
  -- are, or their distinct invoice numbers
  return query execute pg_catalog.format($q$
  select cv.invoice_number, cv.revision, cv.is_current,
         case when cv.content_hash_version = 2 then cv.content_hash
              else ingest.content_hash(cv.status, cv.document_type, cv.customer_id,
                                       cv.invoice_date, cv.due_date, cv.currency,
                                       cv.net_amount, cv.tax_amount, cv.gross_amount,
                                       cv.description) end,
         cv.batch_id, k.record_no, k.revision, k.content_hash, k.gross_amount
  from (%s) as k
  join core.invoice_version as cv
    on cv.source = $2 and cv.invoice_number = k.invoice_number
   and cv.invoice_number between $3 and $4
  $q$, case when p_distinct
            then 'select v.invoice_number, v.record_no, v.revision, v.content_hash, v.gross_amount
                  from staging.invoice_valid as v where v.batch_id = $1'
            else 'select distinct v.invoice_number, null::integer as record_no,
                         null::integer as revision, null::bytea as content_hash,
                         null::numeric as gross_amount
                  from staging.invoice_valid as v where v.batch_id = $1' end)
  using p_batch_id, p_source, p_min, p_max;
end;
$$;
comment on function ingest.key_history(bigint, text, text, text, boolean) is
  E'The published versions of a batch''s keys, hashes in form 2 (parallel read).\nErrors: none.';
revoke all on function ingest.key_history(bigint, text, text, text, boolean) from public;
