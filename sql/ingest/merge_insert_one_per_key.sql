-- ingest.merge_insert_one_per_key: the second statement of the merge
-- (ingest.write_batch) for a batch with one record per key (as many
-- distinct invoice numbers as records: batch.distinct_keys) some of whose
-- keys history holds: every accepted record becomes a version.  A record
-- wins (is current) unless history's current version of its key has a
-- higher or equal revision; one that does not is a late revision, in
-- history at once.  Each record is its key's highest revision in the
-- batch, so the per-key maximum and the window over the batch (a hash
-- aggregate, a join and a sort of every record: 2.5 s of a million) are
-- not in the statement, and nothing in it sorts: ingest.write_batch runs
-- it at a work_mem of at most 16 MB (the transition table of the INSERT's
-- statement trigger; it says why).  Planned for the batch at hand on every
-- call (plan_cache_mode), as a statement run by EXECUTE is.
-- The other forms: ingest.merge_insert (several records per key),
-- ingest.merge_insert_new_keys_one_per_key (keys history does not hold).
-- Returns the number of versions written.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.merge_insert_one_per_key(
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
        from (select v.*,
                     -- the key's current version stays current (a
                     -- higher or equal revision) or gave way before
                     case when kc.revision >= t.top then kc.revision end as cur_revision,
                     case when kc.revision >= t.top then kc.version_batch_id end as cur_batch,
                     case when kc.revision < t.top then kc.revision end as prev_revision
              from staging.invoice_valid as v
              cross join lateral (select v.revision as top) as t
              left join staging.key_version as kc
                on kc.batch_id = p_batch_id and kc.invoice_number = v.invoice_number
               and kc.is_current
              where v.batch_id = p_batch_id and not v.is_duplicate
                and not exists (select from staging.key_version as e
                                where e.batch_id = p_batch_id
                                  and e.invoice_number = v.invoice_number
                                  and e.revision = v.revision)) as x) as n;
  get diagnostics v_rows = row_count;
  return v_rows;
end;
$$;
comment on function ingest.merge_insert_one_per_key(bigint, text, timestamptz) is
  E'The merge: the versions of a batch with one record per key, some keys in history.\nErrors: none.';
revoke all on function ingest.merge_insert_one_per_key(bigint, text, timestamptz) from public;
