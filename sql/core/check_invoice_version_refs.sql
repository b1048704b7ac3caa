-- core.check_invoice_version_refs: the foreign keys of core.invoice_version,
-- checked once per statement over the rows it wrote (transition table), not
-- with one lookup per row as a FOREIGN KEY does (migrations/0007): every
-- source, currency, batch and superseding batch a version names exists.
-- core.keep_referenced_rows is the other half: a source, currency or batch
-- that a version names cannot be deleted or truncated.
-- Trigger functions; installed with their triggers below (re-applied by
-- migrate, like every file of sql/).
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
  -- one lookup each
  with refs as materialized (
    select w.source, w.currency, w.batch_id, w.superseded_by_batch_id
    from written as w
    group by w.source, w.currency, w.batch_id, w.superseded_by_batch_id)
  select coalesce(
           (select format('source %L', r.source) from refs as r
             where not exists (select from ingest.source as s where s.source = r.source) limit 1),
           (select format('currency %L', r.currency) from refs as r
             where not exists (select from ingest.currency as c where c.code = r.currency) limit 1),
           (select format('batch %s', b.batch_id)
              from (select r.batch_id from refs as r
                    union
                    select r.superseded_by_batch_id from refs as r
                     where r.superseded_by_batch_id is not null) as b
             where not exists (select from ingest.batch as x where x.batch_id = b.batch_id)
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
  v_used text;
begin
  if tg_op = 'TRUNCATE' then
    if exists (select from core.invoice_version) then
      raise exception '%.% cannot be truncated: published versions refer to it',
                      tg_table_schema, tg_table_name
        using errcode = 'foreign_key_violation';
    end if;
    return null;
  end if;
  case tg_table_name
    when 'source' then
      select format('source %L', g.source) into v_used from gone as g
       where exists (select from core.invoice_version as v where v.source = g.source) limit 1;
    when 'currency' then
      select format('currency %L', g.code) into v_used from gone as g
       where exists (select from core.invoice_version as v where v.currency = g.code) limit 1;
    when 'batch' then
      select format('batch %s', g.batch_id) into v_used from gone as g
       where exists (select from core.invoice_version as v where v.batch_id = g.batch_id)
          or exists (select from core.invoice_version as v
                      where v.superseded_by_batch_id = g.batch_id)
       limit 1;
  end case;
  if v_used is not null then
    raise exception '% cannot be deleted: published versions refer to it', v_used
      using errcode = 'foreign_key_violation';
  end if;
  return null;
end;
$$;
comment on function core.keep_referenced_rows() is
  E'Trigger: a source, currency or batch named by a published version stays.\nErrors: 23503.';
revoke all on function core.keep_referenced_rows() from public;

create or replace trigger source_keep_referenced
  after delete on ingest.source
  referencing old table as gone
  for each statement execute function core.keep_referenced_rows();
create or replace trigger currency_keep_referenced
  after delete on ingest.currency
  referencing old table as gone
  for each statement execute function core.keep_referenced_rows();
create or replace trigger batch_keep_referenced
  after delete on ingest.batch
  referencing old table as gone
  for each statement execute function core.keep_referenced_rows();
create or replace trigger source_keep_referenced_truncate
  before truncate on ingest.source
  for each statement execute function core.keep_referenced_rows();
create or replace trigger currency_keep_referenced_truncate
  before truncate on ingest.currency
  for each statement execute function core.keep_referenced_rows();
create or replace trigger batch_keep_referenced_truncate
  before truncate on ingest.batch
  for each statement execute function core.keep_referenced_rows();
