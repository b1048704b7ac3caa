-- ingest.merge_insert_new_keys_one_per_key: the second statement of the
-- merge (ingest.write_batch) for a batch with one record per key none of
-- whose keys history holds (staging.key_version has nothing of it):
-- every accepted record becomes the current version of its key.  No join
-- with the key history (0.4 s of a million, an anti-join probing the empty
-- history once per record), no per-key maximum or window: nothing in the
-- statement sorts, and ingest.write_batch runs it at a work_mem of at most
-- 16 MB (the transition table of the INSERT's statement trigger; it says
-- why).  Planned for the batch at hand on every call (plan_cache_mode), as
-- a statement run by EXECUTE is.
-- The other forms: ingest.merge_insert_new_keys (several records per
-- key), ingest.merge_insert_one_per_key (keys history holds).
-- Returns the number of versions written.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.merge_insert_new_keys_one_per_key(
  p_batch_id bigint, p_source text, p_now timestamptz)
returns bigint
language plpgsql
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
declare
  v_rows bigint;
begin
  insert into core.invoice_version (source, invoice_number, revision, status, document_type,
                                    customer_id, invoice_date, due_date, currency, net_amount,
                                    tax_amount, gross_amount, description, content_hash,
                                    content_hash_version, batch_id, record_no, is_current,
                                    supersedes_revision, superseded_by_batch_id, superseded_at,
                                    published_at, extra)
  select p_source, n.invoice_number, n.revision, n.status, n.document_type,
         n.customer_id, n.invoice_date, n.due_date, n.currency, n.net_amount, n.tax_amount,
         n.gross_amount, n.description, n.content_hash, 2, p_batch_id, n.record_no,
         n.wins, case when n.wins then n.prev_revision end,
         -- not winning: superseded by this batch's winner of the key, or
         -- (a late revision) by the batch of the version current at arrival
         case when n.wins then null
              when n.cur_revision is null then p_batch_id
              else n.cur_batch end,
         case when n.wins then null else p_now end,
         p_now, n.extra
  from (select x.*, x.cur_revision is null as wins
        from (select v.*, null::integer as cur_revision, null::bigint as cur_batch,
                     null::integer as prev_revision
              from staging.invoice_valid as v
              where v.batch_id = p_batch_id and not v.is_duplicate) as x) as n;
  get diagnostics v_rows = row_count;
  return v_rows;
end;
$$;
comment on function ingest.merge_insert_new_keys_one_per_key(bigint, text, timestamptz) is
  E'The merge: the versions of a batch with one record per key, no key in history.\nErrors: none.';
revoke all on function ingest.merge_insert_new_keys_one_per_key(bigint, text, timestamptz) from public;
