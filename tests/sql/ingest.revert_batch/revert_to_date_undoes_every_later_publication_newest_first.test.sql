-- ingest.revert_to_date: every publication of the source after the date,
-- newest first, in one transaction: one revert action and one
-- batch_reverted notification per batch, the watermark back at the date,
-- the date's own versions current; nothing after the date: no row, no
-- change; a batch that cannot be reverted (a closed period, IV310) stops
-- the whole undo; an unknown source is IV301; the loader role may not.
begin;
select plan(9);

select tests.make_source('acme-erp', p_start_date => tests.d()) as source \gset
select tests.d() as d \gset
select batch_id as day1 from tests.load_batch(:'source', tests.d(),
  array[tests.line('INV-1')], tests.manifest(:'source', tests.d(), 1, '120.00')) \gset
select batch_id as day2 from tests.load_batch(:'source', tests.d() + 1,
  array[tests.line('INV-1', p_revision => '1', p_description => 'amended'),
        tests.line('INV-2', p_invoice_date => '2026-11-27')],
  tests.manifest(:'source', tests.d() + 1, 2, '240.00')) \gset
select batch_id as day3 from tests.load_batch(:'source', tests.d() + 2,
  array[tests.line('INV-3', p_invoice_date => '2026-11-28')],
  tests.manifest(:'source', tests.d() + 2, 1, '120.00')) \gset

set local role invoice_operator;
select is((select array_agg(r.batch_id order by r.action_id) from ingest.revert_to_date(:'source', :'d'::date, 'wrong feed since') as r),
          array[:day3, :day2]::bigint[], 'The two later publications are reverted, newest first.');
reset role;
select is((select business_date from ingest.watermark where source = :'source'), tests.d(),
          'The watermark is back at the date.');
select is((select string_agg(v.invoice_number || '/' || v.revision, ',' order by v.invoice_number)
           from reporting.invoice as v), 'INV-1/0', 'The date''s own version is current again.');
select is((select count(*)::integer from ingest.operator_action where action = 'revert'
           and batch_id in (:day2, :day3)), 2, 'One revert action per batch.');
select is((select count(*)::integer from ingest.notification where kind = 'batch_reverted'
           and batch_id in (:day2, :day3)), 2, 'One batch_reverted notification per batch.');

set local role invoice_operator;
select is((select count(*)::integer from ingest.revert_to_date(:'source', :'d'::date, 'again') as r), 0,
          'Nothing after the date: nothing to do.');
select throws_ok($$ select * from ingest.revert_to_date('nope', date '2026-11-28', 'x') $$, 'IV301', null,
                 'An unknown source is refused.');
reset role;

-- A closed period: a batch dated in it stops the undo.
select batch_id as day2b from tests.load_batch(:'source', tests.d() + 1,
  array[tests.line('INV-2', p_invoice_date => '2026-11-20')],
  tests.manifest(:'source', tests.d() + 1, 1, '120.00')) \gset
select tests.close_period(:'source', date '2026-11-25');
set local role invoice_operator;
select throws_ok(format($$ select * from ingest.revert_to_date(%L, %L, 'x') $$, :'source', :'d'),
                 'IV310', null, 'A publication in the closed period stops the undo.');
reset role;
set local role invoice_loader;
select throws_ok(format($$ select * from ingest.revert_to_date(%L, %L, 'x') $$, :'source', :'d'),
                 '42501', null, 'The loader role may not undo.');
reset role;

select * from finish();
rollback;
