-- 0027: invoice numbers compare byte by byte (COLLATE "C"), whatever the
-- database's own collation.  Every version inserted goes through two
-- unique B-trees on (source, invoice_number, ...), and each insert compares
-- the new key with a dozen others.  In a database created with a libc
-- locale such as en_US.UTF-8 or de_DE.UTF-8 (pg_createcluster takes the
-- system's), each of those comparisons is a strcoll() call; in one with
-- the C locale (the tests' and the benchmark's clusters) a memcmp().  A
-- million keys into one such unique index took 3.4 s under de_DE.utf8
-- against 1.8-1.9 s under C, and a 1M load 13-15 s against 10 s
-- (docs/PERFORMANCE.md, "Invoice numbers compare by bytes").  Equality
-- does not change: libc and ICU collations are deterministic, so a key is
-- unique, found and joined exactly as before.  Order does: ORDER BY
-- invoice_number is now byte order (`-` `.` `/`, digits, A-Z, `_`, a-z:
-- the contract's alphabet) on every server, as it always was under C.  A
-- consumer who wants the locale's order writes ORDER BY invoice_number
-- COLLATE "default"; one who compares whole rows with literals as records
-- gives the literal COLLATE "C" (docs/DATA_MODEL.md).
--
-- The columns: the versions and their two side tables (reverted, restored
-- periods), and the loader's typed staging and the key history, whose
-- indexes and sorts the merge uses.  `source` keeps the database's
-- collation: within a batch every source is the same, and an equal pair
-- never reaches strcoll() (PostgreSQL compares the bytes first).  The raw
-- staging table (text as in the file) and the rejection rows keep theirs
-- too: nothing sorts or indexes them by invoice number.
--
-- A collation change rebuilds the column's indexes; it does not rewrite
-- the table.  ALTER COLUMN refuses while a view or a trigger's WHEN uses
-- the column, so the two reporting views are made again from their own
-- definitions (pg_get_viewdef, read before the drop), with their comments
-- and grants, and the guard trigger is dropped here and made again by
-- sql/core/guard_invoice_version.sql, which migrate applies after the
-- migrations in the same transaction (a new database has no trigger yet at
-- this point: if exists).
set local role invoice_owner;

do $$
declare
  v_invoice text := pg_catalog.pg_get_viewdef('reporting.invoice'::regclass);
  v_version text := pg_catalog.pg_get_viewdef('reporting.invoice_version'::regclass);
begin
  drop view reporting.invoice;
  drop view reporting.invoice_version;
  drop trigger if exists invoice_version_is_history on core.invoice_version;

  alter table core.invoice_version
    alter column invoice_number type text collate "C";
  alter table core.invoice_version_reverted
    alter column invoice_number type text collate "C";
  alter table core.invoice_version_period
    alter column invoice_number type text collate "C";
  alter table staging.invoice_valid
    alter column invoice_number type text collate "C";
  alter table staging.key_version
    alter column invoice_number type text collate "C";

  execute pg_catalog.format('create view reporting.invoice as %s', v_invoice);
  execute pg_catalog.format('create view reporting.invoice_version as %s', v_version);
end;
$$;

comment on view reporting.invoice is 'One row per current, non-void invoice.';
comment on view reporting.invoice_version is 'Every published version, with the batch that published it and the batch that superseded it (NULL while current).';
grant select on reporting.invoice, reporting.invoice_version
  to invoice_reader, invoice_loader, invoice_operator;
