-- ingest.validate_batch, rule amounts.sum: net + tax = gross, compared as
-- numbers whatever the scale written, passes; a cent off, or a gross that
-- leaves the tax out, is rejected.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1'),                                  -- 1 good: 100.00 + 20.00 = 120.00
  tests.line('INV-2', p_net_amount => '100', p_tax_amount => '20',
             p_gross_amount => '120.00'),               -- 2 good: other scales
  tests.line('INV-3', p_net_amount => '-10.00', p_tax_amount => '10.00',
             p_gross_amount => '0.00'),                 -- 3 good: zero
  tests.line('INV-4', p_gross_amount => '120.01'),      -- 4 bad: a cent off
  tests.line('INV-5', p_gross_amount => '100.00')       -- 5 bad: tax left out
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['4 amounts.sum', '5 amounts.sum'],
          'Exactly the records whose net and tax do not add up to gross are rejected with amounts.sum.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=3 rejected=2',
          'validate_batch quarantines the all-or-nothing batch and counts 3 accepted and 2 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,2,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
