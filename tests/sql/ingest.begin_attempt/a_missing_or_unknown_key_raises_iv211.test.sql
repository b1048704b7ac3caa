-- ingest.begin_attempt takes one jsonb object with exactly the keys the
-- loader sends (sql/ingest/begin_attempt.sql); a missing key, an unknown
-- (for instance renamed) key or an argument that is not an object raises
-- IV211 (the loader and the database disagree: internal, exit 70) and
-- registers nothing; the complete object registers the batch.
begin;
select plan(5);

select tests.make_source() as source \gset
select tests.begin_args(:'source', tests.d(), repeat('cd', 32), 100, 'f.csv', tests.columns(),
                        tests.manifest(:'source', tests.d(), 1, '120.00'), 1) as args \gset

set local role invoice_loader;
select throws_ok(format('select * from ingest.begin_attempt(%L::jsonb - %L)', :'args', 'pid'),
                 'IV211', null, 'A missing key is refused.');
select throws_ok(format('select * from ingest.begin_attempt(%L::jsonb - %L || %L)', :'args', 'file_records',
                        '{"records": 1}'),
                 'IV211', null, 'A renamed key is refused.');
select throws_ok($$ select * from ingest.begin_attempt('[]') $$,
                 'IV211', null, 'An array instead of an object is refused.');
reset role;
select is_empty(format('select 1 from ingest.batch where source = %L', :'source'),
                'Nothing is registered.');
set local role invoice_loader;
select is((select b.state from ingest.begin_attempt(:'args'::jsonb) as b), 'received',
          'The complete object registers the batch.');
reset role;

select * from finish();
rollback;
