-- plpgsql_check (the extension of the package postgresql-15-plpgsql-check,
-- which scripts/install-deps.sh installs) over every PL/pgSQL function of
-- schemas ingest and core: the static statements of their bodies are
-- planned against the schema as migrate left it, which PostgreSQL itself
-- does only when a statement first runs.  A misspelt column, a table that
-- was renamed, a type that no longer fits: any error fails here, naming
-- the function, the line and the SQLSTATE.  Trigger functions are checked
-- on the table of one of their triggers (with its transition tables).
-- Statements run by EXECUTE are not checked: the merge's are static
-- (ingest.merge_*), and each of them is checked here.
begin;
select plan(2);

create extension plpgsql_check;

-- A trigger function is checked on each table it has a trigger on, and an
-- error counts when it shows on all of them: core.keep_referenced_rows
-- names each table's key column in a branch of its own, which plpgsql_check
-- reads against the other tables too.  ingest.sweep_cron_history reads
-- pg_cron's table, which the test database does not have (pg_cron is
-- optional: the sweep does nothing without it).
create temporary table found_error as
select x.fn, x.lineno, x.sqlstate, min(x.message) as message
from (select f.oid::regprocedure::text as fn, tg.tgrelid, tg.tables,
             c.lineno, c.sqlstate, c.message
      from pg_proc as f
      join pg_namespace as n on n.oid = f.pronamespace
      join pg_language as l on l.oid = f.prolang
      left join lateral (select distinct on (t.tgrelid) t.tgrelid, t.tgoldtable, t.tgnewtable,
                                count(*) over () as tables
                         from (select distinct on (t.tgrelid) * from pg_trigger as t
                               where t.tgfoid = f.oid order by t.tgrelid, t.oid) as t
                         order by t.tgrelid) as tg on true
      cross join lateral plpgsql_check_function_tb(
        f.oid, coalesce(tg.tgrelid, 0), fatal_errors => false,
        oldtable => tg.tgoldtable, newtable => tg.tgnewtable) as c
      where n.nspname in ('ingest', 'core') and l.lanname = 'plpgsql'
        and c.level = 'error'
        and not (c.sqlstate = '42P01' and c.message like '%"cron.%') ) as x
group by x.fn, x.lineno, x.sqlstate, x.tables
having count(distinct x.tgrelid) = coalesce(max(x.tables), 0)
    or max(x.tables) is null;

select cmp_ok((select count(*)::integer from pg_proc as f
               join pg_namespace as n on n.oid = f.pronamespace
               join pg_language as l on l.oid = f.prolang
               where n.nspname = 'ingest' and l.lanname = 'plpgsql'
                 and f.proname like 'merge\_%'), '>=', 6,
              'The merge''s forms are PL/pgSQL functions of their own, checked here.');
select is((select array_agg(format('%s line %s: %s %s', e.fn, e.lineno, e.sqlstate, e.message)
                            order by e.fn, e.lineno)
           from found_error as e),
          null, 'plpgsql_check finds no error in any ingest or core function.');

select * from finish();
rollback;
