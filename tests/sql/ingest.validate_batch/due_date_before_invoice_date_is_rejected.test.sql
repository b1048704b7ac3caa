-- ingest.validate_batch, rule due_date.before_invoice_date: a due date on
-- or after the invoice date (2026-11-20), or none, passes; an earlier one
-- is rejected.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_due_date => '2026-11-20'),      -- 1 good: same day
  tests.line('INV-2', p_due_date => '2026-12-20'),      -- 2 good: later
  tests.line('INV-3', p_due_date => null),              -- 3 good: no due date
  tests.line('INV-4', p_due_date => '2026-11-19'),      -- 4 bad: the day before
  tests.line('INV-5', p_due_date => '2025-11-20')       -- 5 bad: a year before
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['4 due_date.before_invoice_date', '5 due_date.before_invoice_date'],
          'Exactly the due dates before the invoice date are rejected with due_date.before_invoice_date.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=3 rejected=2',
          'validate_batch quarantines the all-or-nothing batch and counts 3 accepted and 2 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,2,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
