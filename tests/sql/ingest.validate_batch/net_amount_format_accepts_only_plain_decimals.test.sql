-- ingest.validate_batch, rule net_amount.format: -?digits[.digits] passes;
-- NaN, an exponent, a leading space, a plus sign, a thousands separator and
-- a trailing point are rejected, never rounded or guessed.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_net_amount => '100.00'),        -- 1 good
  tests.line('INV-2', p_net_amount => '100'),           -- 2 good: no decimals
  tests.line('INV-3', p_net_amount => '-5.00', p_tax_amount => '125.00'), -- 3 good: negative
  tests.line('INV-4', p_net_amount => 'NaN'),           -- 4 bad
  tests.line('INV-5', p_net_amount => '1e3'),           -- 5 bad
  tests.line('INV-6', p_net_amount => ' 12.5'),         -- 6 bad
  tests.line('INV-7', p_net_amount => '+5'),            -- 7 bad
  tests.line('INV-8', p_net_amount => '1,234.56'),      -- 8 bad
  tests.line('INV-9', p_net_amount => '100.')           -- 9 bad
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['4 net_amount.format', '5 net_amount.format', '6 net_amount.format', '7 net_amount.format',
                '8 net_amount.format', '9 net_amount.format'],
          'Exactly the net amounts that are not plain decimals are rejected with net_amount.format.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=3 rejected=6',
          'validate_batch quarantines the all-or-nothing batch and counts 3 accepted and 6 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,6,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
