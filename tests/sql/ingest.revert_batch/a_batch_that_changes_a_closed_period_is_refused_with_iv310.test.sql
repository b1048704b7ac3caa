-- ingest.revert_batch of a publication whose versions are dated in the
-- source's closed period, or that superseded versions dated there, raises
-- IV310 (exit 78) and changes nothing; a publication dated after the
-- period reverts; once the period is reopened, the refused revert runs.
begin;
select plan(5);

select tests.make_source('acme-erp', p_start_date => tests.d()) as source \gset
select batch_id as day1 from tests.load_batch(:'source', tests.d(),
  array[tests.line('INV-1')], tests.manifest(:'source', tests.d(), 1, '120.00')) \gset
select batch_id as day2 from tests.load_batch(:'source', tests.d() + 1,
  array[tests.line('INV-2', p_invoice_date => '2026-11-27')],
  tests.manifest(:'source', tests.d() + 1, 1, '120.00')) \gset
select tests.close_period(:'source', date '2026-11-25');

select lives_ok(format('select tests.revert(%s)', :day2),
                'A publication dated after the period reverts.');
select throws_ok(format('select tests.revert(%s)', :day1), 'IV310', null,
                 'A publication dated in the closed period is refused.');
select is((select state from ingest.batch where batch_id = :day1), 'published',
          'The refused batch stays published.');
select is((select count(*)::integer from ingest.operator_action
           where batch_id = :day1 and action = 'revert'), 0, 'No revert is recorded for it.');
select tests.reopen_period(:'source');
select lives_ok(format('select tests.revert(%s)', :day1), 'Reopened, it reverts.');

select * from finish();
rollback;
