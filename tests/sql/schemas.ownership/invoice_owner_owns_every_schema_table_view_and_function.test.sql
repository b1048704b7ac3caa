-- invoice_owner (NOLOGIN) owns our schemas (ingest, staging, core, reporting,
-- loader_meta) and every table, view, sequence and function in them, so no
-- login role owns, and can alter or drop, anything of the loader's.
begin;
select plan(3);

select cmp_ok((select count(*)::integer from pg_catalog.pg_class as c
               join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
               where n.nspname in ('ingest', 'staging', 'core', 'reporting', 'loader_meta')
                 and c.relkind in ('r', 'p', 'v', 'm')),
              '>=', 20, 'The check covers the tables and views of all five schemas.');

select is_empty($$
  select format('%s %s is owned by %s', o.kind, o.name, o.owner)
  from (select 'schema' as kind, n.nspname::text as name, pg_catalog.pg_get_userbyid(n.nspowner) as owner
        from pg_catalog.pg_namespace as n
        where n.nspname in ('ingest', 'staging', 'core', 'reporting', 'loader_meta')
        union all
        select 'relation', c.oid::regclass::text, pg_catalog.pg_get_userbyid(c.relowner)
        from pg_catalog.pg_class as c
        join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
        where n.nspname in ('ingest', 'staging', 'core', 'reporting', 'loader_meta')
          and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')) as o
  where o.owner <> 'invoice_owner' $$,
  'Every schema, table, view and sequence is owned by invoice_owner.');

select is_empty($$
  select format('%s is owned by %s', p.oid::regprocedure, pg_catalog.pg_get_userbyid(p.proowner))
  from pg_catalog.pg_proc as p
  join pg_catalog.pg_namespace as n on n.oid = p.pronamespace
  where n.nspname in ('ingest', 'staging', 'core', 'reporting', 'loader_meta')
    and pg_catalog.pg_get_userbyid(p.proowner) <> 'invoice_owner' $$,
  'Every function is owned by invoice_owner.');

select * from finish();
rollback;
