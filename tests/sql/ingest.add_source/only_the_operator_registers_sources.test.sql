-- ingest.add_source is an operator entry point: invoice_loader and
-- invoice_reader get 42501 and register or change nothing;
-- invoice_operator registers a source.
begin;
select plan(5);

select tests.make_source('acme-erp') as source \gset

set local role invoice_loader;
select throws_ok($$ select ingest.add_source('rogue-erp') $$, '42501', null,
                 'The loader cannot register a source.');
select throws_ok($$ select ingest.add_source('acme-erp', 'partial', 1) $$, '42501', null,
                 'The loader cannot change a source''s policy.');
reset role;
set local role invoice_reader;
select throws_ok($$ select ingest.add_source('rogue-erp') $$, '42501', null,
                 'The reader cannot register a source.');
reset role;

select is((select array_agg(s.source || ' ' || s.policy order by s.source) from ingest.source as s),
          array['acme-erp all-or-nothing'], 'No source was added or changed.');

set local role invoice_operator;
select lives_ok($$ select ingest.add_source('globex-erp', p_start_date => date '2026-11-01') $$,
                'The operator registers a new source.');
reset role;

select * from finish();
rollback;
