-- core.invoice_version is not the loader's: invoice_loader gets 42501
-- selecting or updating it, and reads published invoices through
-- reporting like any consumer.
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset

set local role invoice_loader;
select throws_ok('select 1 from core.invoice_version', '42501', null,
                 'The loader cannot select core.invoice_version.');
select throws_ok('update core.invoice_version set is_current = false', '42501', null,
                 'The loader cannot update core.invoice_version.');
select is((select count(*)::integer from reporting.invoice_version), 1,
          'The loader reads the published version through reporting.invoice_version.');
reset role;

select is((select count(*)::integer from core.invoice_version as cv where cv.is_current), 1,
          'The version is still current.');

select * from finish();
rollback;
