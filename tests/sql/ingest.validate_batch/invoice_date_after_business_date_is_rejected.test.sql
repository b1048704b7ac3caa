-- ingest.validate_batch, rule invoice_date.after_business_date: an invoice
-- dated on or before the batch's business date (2026-11-28) passes; one
-- dated later is rejected.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_invoice_date => '2026-11-28'),  -- 1 good: the business date
  tests.line('INV-2', p_invoice_date => '2026-11-27'),  -- 2 good: the day before
  tests.line('INV-3', p_invoice_date => '2026-11-29'),  -- 3 bad: the day after
  tests.line('INV-4', p_invoice_date => '2027-01-01')   -- 4 bad: next year
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['3 invoice_date.after_business_date', '4 invoice_date.after_business_date'],
          'Exactly the invoices dated after the business date are rejected with invoice_date.after_business_date.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=2 rejected=2',
          'validate_batch quarantines the all-or-nothing batch and counts 2 accepted and 2 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,2,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
