-- ingest.validate_batch, rule invoice_date.format: a real calendar date
-- written YYYY-MM-DD passes (29 February of a leap year included);
-- 2024-02-30, 2023-02-29, 'today', 'infinity', single-digit days, other
-- orders and compact forms are rejected, never guessed.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_invoice_date => '2024-02-29'),  -- 1 good: leap day
  tests.line('INV-2', p_invoice_date => '2026-11-28'),  -- 2 good: the business date
  tests.line('INV-3', p_invoice_date => '2024-02-30'),  -- 3 bad: no such day
  tests.line('INV-4', p_invoice_date => '2023-02-29'),  -- 4 bad: not a leap year
  tests.line('INV-5', p_invoice_date => 'today'),       -- 5 bad: a word
  tests.line('INV-6', p_invoice_date => 'infinity'),    -- 6 bad: a special value
  tests.line('INV-7', p_invoice_date => '2026-11-5'),   -- 7 bad: one-digit day
  tests.line('INV-8', p_invoice_date => '28.11.2026'),  -- 8 bad: another order
  tests.line('INV-9', p_invoice_date => '20261128')     -- 9 bad: compact
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['3 invoice_date.format', '4 invoice_date.format', '5 invoice_date.format',
                '6 invoice_date.format', '7 invoice_date.format', '8 invoice_date.format',
                '9 invoice_date.format'],
          'Exactly the records whose invoice date is not a real YYYY-MM-DD date are rejected with invoice_date.format.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=2 rejected=7',
          'validate_batch quarantines the all-or-nothing batch and counts 2 accepted and 7 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,7,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
