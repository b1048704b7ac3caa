-- ingest.analyze_staging (called by the loader before validation and
-- before publication, as invoice_loader): 'validation' takes statistics of
-- the raw rows, 'publication' of the typed rows; any other step raises
-- 22023 and analyzes nothing.
begin;
select plan(5);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset

set local role invoice_loader;
select throws_ok($$ select ingest.analyze_staging('everything') $$, '22023', null,
                 'An unknown step is refused with 22023.');
select lives_ok($$ select ingest.analyze_staging('validation') $$,
                'The loader may analyze before validation.');
select lives_ok($$ select ingest.analyze_staging('publication') $$,
                'And before publication.');
reset role;

-- What ANALYZE writes at once is pg_class.reltuples (-1 before any:
-- never analyzed).
select is((select c.reltuples from pg_class as c where c.oid = 'staging.invoice_line'::regclass),
          1::real, 'validation: the raw rows are analyzed (one staged record).');
select is((select c.reltuples from pg_class as c where c.oid = 'staging.invoice_valid'::regclass),
          0::real, 'publication: the typed rows are analyzed (none yet: the batch is staged).');

select * from finish();
rollback;
