-- Every SECURITY DEFINER function in our schemas (ingest, staging, core,
-- reporting, loader_meta) pins search_path to '' in its definition
-- (pg_proc.proconfig), so a caller's search_path or pg_temp objects cannot
-- change what it resolves.
begin;
select plan(2);

select cmp_ok((select count(*)::integer from pg_catalog.pg_proc as p
               join pg_catalog.pg_namespace as n on n.oid = p.pronamespace
               where n.nspname = 'ingest' and p.prosecdef),
              '>=', 7, 'The check covers at least the seven definer entry points of ingest.');

select is_empty($$
  select p.oid::regprocedure::text
  from pg_catalog.pg_proc as p
  join pg_catalog.pg_namespace as n on n.oid = p.pronamespace
  where n.nspname in ('ingest', 'staging', 'core', 'reporting', 'loader_meta')
    and p.prosecdef
    and not coalesce('search_path=""' = any (p.proconfig), false) $$,
  'No security definer function runs without search_path pinned to empty.');

select * from finish();
rollback;
