-- No function in our schemas is executable by PUBLIC (neither by an explicit
-- grant nor by the default ACL a function gets when proacl is NULL): every
-- role reaches only what it is granted.
begin;
select plan(2);

select cmp_ok((select count(*)::integer from pg_catalog.pg_proc as p
               join pg_catalog.pg_namespace as n on n.oid = p.pronamespace
               where n.nspname = 'ingest'),
              '>=', 12, 'The check covers at least the twelve functions of ingest.');

select is_empty($$
  select p.oid::regprocedure::text
  from pg_catalog.pg_proc as p
  join pg_catalog.pg_namespace as n on n.oid = p.pronamespace
  where n.nspname in ('ingest', 'staging', 'core', 'reporting', 'loader_meta')
    and exists (select from pg_catalog.aclexplode(coalesce(p.proacl,
                                                           pg_catalog.acldefault('f', p.proowner))) as a
                where a.grantee = 0 and a.privilege_type = 'EXECUTE') $$,
  'PUBLIC cannot execute any function of ingest or the other schemas.');

select * from finish();
rollback;
