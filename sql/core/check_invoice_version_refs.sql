-- core.check_invoice_version_refs: the foreign keys of core.invoice_version,
-- checked once per statement over the rows it wrote (transition table), not
-- with one lookup per row as a FOREIGN KEY does (migrations/0007): every
-- source, currency, batch and superseding batch a version names exists.
-- Like a foreign key it takes FOR KEY SHARE locks on the rows it found, so
-- a concurrent DELETE or key change of one of them waits for this
-- transaction (and then core.keep_referenced_rows sees the versions).
-- core.keep_referenced_rows is the other half: a source, currency or batch
-- that a version names cannot be deleted, have its key changed, or be
-- truncated; such a delete or key change runs under READ COMMITTED only
-- (0A000 otherwise).
-- Trigger functions; installed with their triggers below (re-applied by
-- migrate, like every file of sql/).
-- Errors: 23503 (foreign_key_violation), as the foreign keys raised; 0A000
-- a delete or key change of a referenced table outside READ COMMITTED.
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

create or replace trigger invoice_version_refs_insert
  after insert on core.invoice_version
  referencing new table as written
  for each statement execute function core.check_invoice_version_refs();
create or replace trigger invoice_version_refs_update
  after update on core.invoice_version
  referencing new table as written
  for each statement execute function core.check_invoice_version_refs();

create or replace function core.keep_referenced_rows()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_key     text := case tg_table_name when 'currency' then 'code'
                                       when 'batch' then 'batch_id' else 'source' end;
  v_removed text[];
  v_used    text;
begin
  if tg_op = 'TRUNCATE' then
    if exists (select from core.invoice_version) then
      raise exception '%.% cannot be truncated: published versions refer to it',
                      tg_table_schema, tg_table_name
        using errcode = 'foreign_key_violation';
    end if;
    return null;
  end if;
  -- the keys that are gone: deleted, or (UPDATE) changed to another one
  if tg_op = 'DELETE' then
    select array_agg(to_jsonb(g) ->> v_key) into v_removed from gone as g;
  else
    select array_agg(to_jsonb(g) ->> v_key) into v_removed from gone as g
     where (to_jsonb(g) ->> v_key) not in (select to_jsonb(k) ->> v_key from kept as k);
  end if;
  if v_removed is null then
    return null;
  end if;
  -- A version another transaction committed while this one waited for the
  -- row lock is visible only to a new snapshot; under REPEATABLE READ or
  -- SERIALIZABLE this transaction has none (a foreign key re-checks with
  -- one of its own, which a trigger cannot take).
  if current_setting('transaction_isolation') <> 'read committed' then
    raise exception 'removing or renaming %.% keys is done under READ COMMITTED only',
                    tg_table_schema, tg_table_name
      using errcode = 'feature_not_supported',
            detail  = 'Under a snapshot kept for the whole transaction, a version committed meanwhile could be missed.';
  end if;
  case tg_table_name
    when 'source' then
      select format('source %L', v.source) into v_used from core.invoice_version as v
       where v.source = any (v_removed) limit 1;
    when 'currency' then
      select format('currency %L', v.currency) into v_used from core.invoice_version as v
       where v.currency = any (v_removed) limit 1;
    when 'batch' then
      select format('batch %s', x.batch_id) into v_used
      from (select v.batch_id from core.invoice_version as v
             where v.batch_id = any (v_removed::bigint[])
            union all
            select v.superseded_by_batch_id from core.invoice_version as v
             where v.superseded_by_batch_id = any (v_removed::bigint[])) as x
      limit 1;
  end case;
  if v_used is not null then
    raise exception '% cannot be %: published versions refer to it', v_used,
                    case tg_op when 'DELETE' then 'deleted' else 'renamed' end
      using errcode = 'foreign_key_violation';
  end if;
  return null;
end;
$$;
comment on function core.keep_referenced_rows() is
  E'Trigger: a source, currency or batch named by a published version stays, with its key.\nErrors: 23503.';
revoke all on function core.keep_referenced_rows() from public;

-- The same three triggers on each table a version names.
do $$
declare
  t text;
begin
  foreach t in array array['source', 'currency', 'batch'] loop
    execute format('create or replace trigger %1$s_keep_referenced
                      after delete on ingest.%1$I
                      referencing old table as gone
                      for each statement execute function core.keep_referenced_rows()', t);
    execute format('create or replace trigger %1$s_keep_referenced_key
                      after update on ingest.%1$I
                      referencing old table as gone new table as kept
                      for each statement execute function core.keep_referenced_rows()', t);
    execute format('create or replace trigger %1$s_keep_referenced_truncate
                      before truncate on ingest.%1$I
                      for each statement execute function core.keep_referenced_rows()', t);
  end loop;
end
$$;
