-- core.invoice_version: core.keep_referenced_rows is called for an UPDATE
-- of ingest.source, ingest.currency or ingest.batch only when it changed a
-- key (migration 0025).  A whole load, whose updates of its batch (state,
-- counts, timestamps) and of its source never touch a key, calls it not
-- once (the triggers before 0025 called it six times a load), nor does an
-- update that sets a key to itself.  A key change is judged on the
-- statement's result, as a NO ACTION foreign key is: the code of a used
-- currency may move to another row when, in the same statement, another
-- row takes that code over (the versions still name an existing currency);
-- the trigger is called for each changed row and for nothing else.
-- Counted with pg_stat_get_xact_function_calls (this transaction's calls).
begin;
select plan(7);

set local track_functions = 'all';
create temporary table calls (at text primary key, n bigint not null);
create function pg_temp.keep_calls() returns bigint language sql as
  $$ select coalesce(pg_stat_get_xact_function_calls('core.keep_referenced_rows'::regproc), 0) $$;

select tests.make_source() as source \gset
insert into calls select 'before', pg_temp.keep_calls();
select is((select (state, outcome)::text from tests.load_batch(:'source', tests.d(),
                                                               array[tests.line('INV-1')])),
          '(published,published)', 'A batch was loaded and published.');
select is(pg_temp.keep_calls() - (select n from calls where at = 'before'), 0::bigint,
          'The load''s updates of its batch and source called the key check not once.');

update ingest.currency set code = code where code = 'EUR';
update ingest.source set source = source;
select is(pg_temp.keep_calls() - (select n from calls where at = 'before'), 0::bigint,
          'Nor did updates that set a key to itself.');

-- EUR (named by the published version) becomes EUX, and in the same
-- statement XPF (named by nothing) becomes EUR; the CTE runs first, so
-- the primary key sees the old EUR row gone before the new one arrives.
select lives_ok($$
  with moved as (update ingest.currency set code = 'EUX' where code = 'EUR' returning code)
  update ingest.currency set code = 'EUR'
   where code = 'XPF' and exists (select from moved) $$,
  'A used code taken over by another row in the same statement is no removed key.');
select is((select string_agg(code, ' ' order by code) from ingest.currency
            where code in ('EUR', 'EUX', 'XPF')),
          'EUR EUX', 'Both rows changed.');
select is(pg_temp.keep_calls() - (select n from calls where at = 'before'), 2::bigint,
          'The check ran once for each changed key.');
select is((select count(*)::integer from core.invoice_version as v
            where exists (select from ingest.currency as c where c.code = v.currency)),
          1, 'The version still names an existing currency.');

select * from finish();
rollback;
