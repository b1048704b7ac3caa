-- 0011: the triggers of the reference checks in a migration, where
-- structure belongs (they were created by sql/core/
-- check_invoice_version_refs.sql on every migrate).
--
-- A trigger names its function, and on a new database the functions of
-- sql/ do not exist yet when the migrations run (migrate applies sql/
-- after them, in the same transaction).  So each trigger function that is
-- missing is first created here as a placeholder that refuses to run
-- (0A000); sql/ replaces it with the real body before the transaction
-- commits, so the placeholder is never seen.
set local role invoice_owner;

do $do$
declare
  f text;
begin
  foreach f in array array['core.check_invoice_version_refs', 'core.keep_referenced_rows'] loop
    if pg_catalog.to_regprocedure(f || '()') is null then
      execute format($f$
        create function %s() returns trigger language plpgsql set search_path = '' as $b$
        begin
          raise exception '%s is a placeholder: migrate applies sql/ after the migrations'
            using errcode = 'feature_not_supported';
        end
        $b$ $f$, f, f);
      execute format('revoke all on function %s() from public', f);
    end if;
  end loop;
end
$do$;

-- core.invoice_version's references, per statement (migrations/0007).
create or replace trigger invoice_version_refs_insert
  after insert on core.invoice_version
  referencing new table as written
  for each statement execute function core.check_invoice_version_refs();
create or replace trigger invoice_version_refs_update
  after update on core.invoice_version
  referencing new table as written
  for each statement execute function core.check_invoice_version_refs();

-- What a version names stays: the same three triggers on each table.
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
