-- core.keep_referenced_rows: the other half of core.check_invoice_version_refs
-- (the foreign keys of core.invoice_version, checked per statement): a
-- source, currency or batch that a version names cannot be deleted, have
-- its key changed, or be truncated; such a delete or key change runs under
-- READ COMMITTED only (0A000 otherwise).
-- Trigger function of ingest.source, ingest.currency and ingest.batch:
-- statement-level after DELETE and before TRUNCATE (migrations/0011), and
-- row-level after an UPDATE that changed the key (migrations/0025: UPDATE
-- OF the key column, WHEN old and new differ, so the updates of every
-- load, a batch's state and counts, fire nothing).  A changed key is gone
-- only if no row has it at the end of the statement: a key another row
-- takes over in the same statement stays, as with a NO ACTION foreign key.
-- Errors: 23503 (foreign_key_violation) a referenced key removed; 0A000 a
-- delete or key change of a referenced table outside READ COMMITTED.
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
  -- the keys that are gone: deleted, or (a row's UPDATE) changed to
  -- another one while no row of the table has it now (one PERFORM a
  -- table: each names its own table's key column)
  if tg_op = 'DELETE' then
    select array_agg(to_jsonb(g) ->> v_key) into v_removed from gone as g;
  else
    case tg_table_name
      when 'source' then
        perform from ingest.source as s where s.source = old.source;
      when 'currency' then
        perform from ingest.currency as c where c.code = old.code;
      when 'batch' then
        perform from ingest.batch as b where b.batch_id = old.batch_id;
    end case;
    if not found then
      v_removed := array[to_jsonb(old) ->> v_key];
    end if;
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
