-- core.check_invoice_version_refs: the foreign keys of core.invoice_version,
-- checked once per statement over the rows it wrote (transition table), not
-- with one lookup per row as a FOREIGN KEY does (migrations/0007): every
-- source, currency, batch and superseding batch a version names exists.
-- Like a foreign key it takes FOR KEY SHARE locks on the rows it found, so
-- a concurrent DELETE or key change of one of them waits for this
-- transaction (and then core.keep_referenced_rows sees the versions).
-- core.keep_referenced_rows (sql/core/keep_referenced_rows.sql) is the
-- other half.
-- Trigger function, statement-level, after INSERT and after UPDATE of
-- core.invoice_version (the triggers: migrations/0011).
-- Errors: 23503 (foreign_key_violation), as the foreign keys raised.
create or replace function core.check_invoice_version_refs()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_missing text;
begin
  -- the distinct references first (one pass, a handful of rows), then
  -- one locking lookup each: a row gone or locked away by a concurrent
  -- delete is missing
  with refs as materialized (
    select w.source, w.currency, w.batch_id, w.superseded_by_batch_id
    from written as w
    group by w.source, w.currency, w.batch_id, w.superseded_by_batch_id),
  sources as (
    select s.source from ingest.source as s
    where s.source in (select r.source from refs as r)
    for key share),
  currencies as (
    select c.code from ingest.currency as c
    where c.code in (select r.currency from refs as r)
    for key share),
  batches as (
    select b.batch_id from ingest.batch as b
    where b.batch_id in (select r.batch_id from refs as r
                         union
                         select r.superseded_by_batch_id from refs as r)
    for key share)
  select coalesce(
           (select format('source %L', r.source) from refs as r
             where r.source not in (select x.source from sources as x) limit 1),
           (select format('currency %L', r.currency) from refs as r
             where r.currency not in (select x.code from currencies as x) limit 1),
           (select format('batch %s', r.batch_id) from refs as r
             where r.batch_id not in (select x.batch_id from batches as x) limit 1),
           (select format('batch %s', r.superseded_by_batch_id) from refs as r
             where r.superseded_by_batch_id not in (select x.batch_id from batches as x)
             limit 1))
    into v_missing;

  if v_missing is not null then
    raise exception 'core.invoice_version: % does not exist', v_missing
      using errcode = 'foreign_key_violation';
  end if;
  return null;
end;
$$;
comment on function core.check_invoice_version_refs() is
  E'Trigger: the sources, currencies and batches written versions name exist (set-based).\nErrors: 23503.';
revoke all on function core.check_invoice_version_refs() from public;
