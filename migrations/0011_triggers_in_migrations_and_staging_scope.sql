-- 0011: the triggers of the reference checks in a migration, where
-- structure belongs (they were created by sql/core/
-- check_invoice_version_refs.sql on every migrate), and a new one: staging
-- rows are written only for a batch whose runner lock the writing session
-- holds, so that a session cannot write into another load's batch.
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
  foreach f in array array['core.check_invoice_version_refs', 'core.keep_referenced_rows',
                           'ingest.check_staging_scope'] loop
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

-- Staging rows only for a received batch whose runner lock the writing
-- session holds (ingest.check_staging_scope, IV221).  Once per statement
-- over the rows it wrote: the COPY keeps its multi-row inserts (a
-- row-level trigger would take them away), at the cost of keeping the
-- statement's rows in a tuplestore (docs/PERFORMANCE.md).
create or replace trigger invoice_line_scope
  after insert on staging.invoice_line
  referencing new table as staged
  for each statement execute function ingest.check_staging_scope();

-- ingest.staged_totals also returns the net and tax sums (for the
-- manifest's optional net_total and tax_total): its result type changes,
-- which CREATE OR REPLACE cannot do (sql/ingest/staged_totals.sql creates
-- the new one).
drop function if exists ingest.staged_totals(bigint);
