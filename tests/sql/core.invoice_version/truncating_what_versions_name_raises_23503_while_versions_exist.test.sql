-- core.invoice_version: trigger core.keep_referenced_rows (before truncate)
-- refuses with 23503 to truncate ingest.currency, ingest.source or
-- ingest.batch while any version exists, even for a superuser.  Source and
-- batch are truncated with CASCADE (their other referencing tables would
-- otherwise refuse first, with 0A000); that cascade no longer reaches
-- core.invoice_version, so the trigger is what keeps the versions'
-- references.  Once no version exists, ingest.currency can be truncated.
begin;
select plan(5);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset
set local client_min_messages = warning;  -- no NOTICE per table a CASCADE reaches
-- The publication's commit-instant trigger is deferred; a truncation in a
-- later transaction meets no pending event of it, so fire it now, as the
-- commit would, instead of letting TRUNCATE refuse for that (55006).
set constraints all immediate;

select throws_ok('truncate ingest.currency', '23503', null,
                 'ingest.currency cannot be truncated while versions exist.');
select throws_ok('truncate ingest.source cascade', '23503', null,
                 'ingest.source cannot be truncated, even with CASCADE, while versions exist.');
select throws_ok('truncate ingest.batch cascade', '23503', null,
                 'ingest.batch cannot be truncated, even with CASCADE, while versions exist.');
select is((select count(*)::integer from core.invoice_version)
          + (select count(*)::integer from ingest.batch where batch_id = :batch_id)
          + (select count(*)::integer from ingest.currency where code = 'EUR'),
          3, 'The version, its batch and its currency are all still there.');

delete from core.invoice_version;
select lives_ok('truncate ingest.currency',
                'With no version left, ingest.currency can be truncated.');

select * from finish();
rollback;
