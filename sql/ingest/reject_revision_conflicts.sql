-- ingest.reject_revision_conflicts: revisions are immutable.  First reads
-- what history holds for the batch's keys into staging.key_version (one
-- index lookup per key; the merge in ingest.publish_batch works from it,
-- so it must be called in the publishing transaction before the merge).
-- Then every typed, accepted record of the batch whose (invoice_number,
-- revision) is already published with other content is rejected (rule
-- revision.conflict) and taken out of staging.invoice_valid.  Contents are
-- compared by hash form 2 (ingest.content_hash); a version of form 1 is
-- hashed anew as it is read (ingest.key_history, a parallel read).  Used by
-- validation, and again by publication for what was published while the
-- batch waited.
-- Fast path: when the source has no history, or no
-- version of it has an invoice number within the batch's [min, max] key
-- range (one pass over the batch's typed rows, then one descent of the
-- primary key), none of the batch's keys has history: key_version stays
-- empty, exactly as the full read would leave it, and there is nothing to
-- reject.  Files numbered by date (the benchmark's) take it every time.
-- p_distinct: the batch's records have distinct invoice numbers
-- (validation's count of them equals its record count), which lets the
-- history read skip making them distinct (ingest.key_history) and keep
-- each key's record beside its versions in staging.key_version
-- (batch_record_no, batch_revision, ...); the conflicting records are then
-- found in that table alone, and a rejected record's columns are cleared
-- there, so that what key_version says of the batch stays what its typed
-- rows hold.
-- p_min, p_max: bounds of the batch's invoice numbers the caller already
-- has (validation: ingest.staged_totals, over the typed rows that passed
-- the field rules, a superset of those left); NULL, and the range is read
-- here (a scan of the batch's rows that PL/pgSQL runs without workers:
-- 0.34 s of a million).
-- Returns the number of records taken out.  Internal: no EXECUTE grants.
create or replace function ingest.reject_revision_conflicts(p_batch_id bigint, p_source text,
                                                            p_distinct boolean,
                                                            p_min text default null,
                                                            p_max text default null)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_rejected integer[];
  v_min text;
  v_max text;
begin
  delete from staging.key_version as h where h.batch_id = p_batch_id;

  -- Fast path: any key of the batch lies within [v_min, v_max] under the
  -- column's own collation, so a version with one of the batch's keys would
  -- be found by this range probe; none found means all the keys are new.
  -- An empty batch gives nulls: no row, nothing to read either.  A source
  -- with no history at all skips even the batch's min and max.
  if not exists (select from core.invoice_version as cv where cv.source = p_source) then
    return 0;
  end if;
  if p_min is not null and p_max is not null then
    v_min := p_min;
    v_max := p_max;
  else
    select min(v.invoice_number), max(v.invoice_number) into v_min, v_max
    from staging.invoice_valid as v where v.batch_id = p_batch_id;
  end if;
  if not exists (select from core.invoice_version as cv
                 where cv.source = p_source and cv.invoice_number between v_min and v_max) then
    return 0;
  end if;

  insert into staging.key_version (batch_id, invoice_number, revision, is_current,
                                   content_hash, version_batch_id, batch_record_no,
                                   batch_revision, batch_content_hash, batch_gross_amount)
  select p_batch_id, h.invoice_number, h.revision, h.is_current, h.content_hash,
         h.version_batch_id, h.batch_record_no, h.batch_revision, h.batch_content_hash,
         h.batch_gross_amount
  from ingest.key_history(p_batch_id, p_source, v_min, v_max, p_distinct) as h;

  -- The records carrying such a revision, rejected and taken out of the
  -- typed rows: with one record per key, the key history holds each
  -- record beside the versions of its key (a scan of that small table);
  -- otherwise a parallel join of the typed rows with it
  -- (ingest.revision_conflicts; an INSERT ... SELECT never runs in
  -- parallel).
  with conflict as (
    select h.batch_record_no as record_no, h.invoice_number, h.revision,
           h.version_batch_id, h.batch_gross_amount as gross_amount
    from staging.key_version as h
    where p_distinct and h.batch_id = p_batch_id
      and h.batch_revision = h.revision and h.batch_content_hash <> h.content_hash
    union all
    select c.record_no, c.invoice_number, c.revision, c.version_batch_id, c.gross_amount
    from ingest.revision_conflicts(p_batch_id) as c
    where not p_distinct),
  bad as (
    insert into ingest.rejection_row (batch_id, record_no, invoice_number, rule, detail,
                                      gross_amount, currency, fields)
    select p_batch_id, c.record_no, c.invoice_number, 'revision.conflict',
           format('invoice %s revision %s was published by batch %s with different content',
                  c.invoice_number, c.revision, c.version_batch_id),
           c.gross_amount,
           (select v.currency from staging.invoice_valid as v
            where v.batch_id = p_batch_id and v.record_no = c.record_no),
           (select ingest.typed_fields(v) from staging.invoice_valid as v
            where v.batch_id = p_batch_id and v.record_no = c.record_no)
    from conflict as c
    on conflict do nothing
    returning record_no)
  select coalesce(array_agg(bad.record_no), '{}') into v_rejected from bad;
  return ingest.drop_rejected_records(p_batch_id, v_rejected);
end;
$$;
comment on function ingest.reject_revision_conflicts(bigint, text, boolean, text, text) is
  'Read history for the batch''s keys (staging.key_version); reject records carrying a published (invoice_number, revision) with other content.';
revoke all on function ingest.reject_revision_conflicts(bigint, text, boolean, text, text) from public;
