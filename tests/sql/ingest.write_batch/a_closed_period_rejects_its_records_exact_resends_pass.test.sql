-- A source's closed period (ingest.set_period_lock) at publication: every
-- record of a later batch dated on or before the lock date is rejected
-- with rule period.closed, a new invoice, an amendment or a VOID alike, so
-- under all-or-nothing the batch is quarantined and nothing of it is
-- published; an exact resend of a published version is no change and
-- passes; records dated after the lock publish.  Once reopened, the
-- amendment publishes.
begin;
select plan(7);

select tests.make_source('acme-erp', p_start_date => tests.d()) as source \gset
-- day 1: INV-1 and INV-2 dated 2026-11-20 (tests.line's default date)
select batch_id as day1 from tests.load_batch(:'source', tests.d(),
  array[tests.line('INV-1'), tests.line('INV-2')],
  tests.manifest(:'source', tests.d(), 2, '240.00')) \gset
select tests.close_period(:'source', date '2026-11-25');

-- day 2: an amendment of INV-1 (dated in the period), a VOID of INV-2, a
-- new invoice dated in the period, and one after it
select batch_id as day2, state from tests.load_batch(:'source', tests.d() + 1,
  array[tests.line('INV-1', p_revision => '1', p_net_amount => '110.00', p_tax_amount => '22.00',
                   p_gross_amount => '132.00'),
        tests.line('INV-2', p_revision => '1', p_status => 'VOID'),
        tests.line('INV-3', p_invoice_date => '2026-11-25'),
        tests.line('INV-4', p_invoice_date => '2026-11-26')],
  tests.manifest(:'source', tests.d() + 1, 4, '492.00')) \gset
select is(:'state'::text, 'quarantined', 'All-or-nothing: the batch is quarantined.');
select is(tests.rejections(:day2),
          array['1 period.closed', '2 period.closed', '3 period.closed'],
          'The amendment, the VOID and the new invoice dated in the period are rejected.');
select is((select count(*)::integer from core.invoice_version as v where v.batch_id = :day2), 0,
          'Nothing of the batch is published.');

-- day 2 again, other bytes: the exact resend of INV-1 revision 0 and a
-- record after the period
select batch_id as day2b, state as state2 from tests.load_batch(:'source', tests.d() + 1,
  array[tests.line('INV-1'), tests.line('INV-4', p_invoice_date => '2026-11-26')],
  tests.manifest(:'source', tests.d() + 1, 2, '240.00')) \gset
select is(:'state2'::text, 'published', 'An exact resend is no change and passes, with the later record.');
select is((select string_agg(v.invoice_number || '/' || v.revision, ',' order by v.invoice_number)
           from reporting.invoice as v),
          'INV-1/0,INV-2/0,INV-4/0', 'The current view: the period unchanged, INV-4 added.');

-- reopened, the amendment publishes
select tests.reopen_period(:'source');
select batch_id as day3, state as state3 from tests.load_batch(:'source', tests.d() + 2,
  array[tests.line('INV-1', p_revision => '1', p_net_amount => '110.00', p_tax_amount => '22.00',
                   p_gross_amount => '132.00')],
  tests.manifest(:'source', tests.d() + 2, 1, '132.00')) \gset
select is(:'state3'::text, 'published', 'Once the period is reopened, the amendment publishes.');
select is((select v.revision from reporting.invoice as v where v.invoice_number = 'INV-1'), 1,
          'INV-1 is at revision 1.');

select * from finish();
rollback;
