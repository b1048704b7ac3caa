-- ingest.analyze_staging (called by the loader before validation and
-- before publication, as invoice_loader, with the batch): 'validation'
-- takes statistics of the raw rows, 'publication' of the typed rows, in
-- the batch's own table: the shared partition of staging.invoice_valid, or
-- the batch's own partition (migrations/0028; ANALYZE of the partitioned
-- table would sample every batch's); any other step raises 22023 and
-- analyzes nothing.
begin;
select plan(7);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset
select batch_id as big from tests.stage_batch(:'source', tests.d() + 1, array[tests.line('INV-2')],
                                              p_stage => false) \gset
update ingest.batch set file_records = 100000 where batch_id = :big;

set local role invoice_loader;
select throws_ok(format($$ select ingest.analyze_staging('everything', %s) $$, :batch_id), '22023', null,
                 'An unknown step is refused with 22023.');
select lives_ok(format($$ select ingest.analyze_staging('validation', %s) $$, :batch_id),
                'The loader may analyze before validation.');
select lives_ok(format($$ select ingest.analyze_staging('publication', %s) $$, :batch_id),
                'And before publication.');
select is(ingest.typed_staging(:big), format('staging.invoice_valid_b%s', :big),
          'The big batch has a partition of its own.');
reset role;

-- What ANALYZE writes at once is pg_class.reltuples (-1 before any:
-- never analyzed).
select is((select c.reltuples from pg_class as c where c.oid = 'staging.invoice_line'::regclass),
          1::real, 'validation: the raw rows are analyzed (one staged record).');
select is((select c.reltuples from pg_class as c where c.oid = 'staging.invoice_valid_shared'::regclass),
          0::real, 'publication: the shared typed rows are analyzed (none yet: the batch is staged).');

set local role invoice_loader;
select ingest.analyze_staging('validation', :big);
reset role;
select is((select c.reltuples from pg_class as c
           where c.oid = format('staging.invoice_valid_b%s', :big)::regclass),
          0::real, 'A batch with a partition of its own has that partition analyzed.');

select * from finish();
rollback;
