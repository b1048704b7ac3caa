-- ingest.validate_batch, rule net_amount.precision: no more decimals than
-- the currency's minor unit (EUR 2, JPY 0).  10.005 EUR and 100.5 JPY are
-- rejected, not rounded; their tax amounts (1.995, 19.5) are built to keep
-- net + tax = gross, so tax_amount.precision fires with them and nothing
-- else does.  The file has two currencies, so its manifest gives
-- control_totals.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_net_amount => '10.01', p_tax_amount => '2.00',
             p_gross_amount => '12.01'),                -- 1 good: EUR, 2 decimals
  tests.line('INV-2', p_net_amount => '10.5', p_tax_amount => '2.5',
             p_gross_amount => '13.00'),                -- 2 good: EUR, 1 decimal
  tests.line('INV-3', p_currency => 'JPY', p_net_amount => '100',
             p_tax_amount => '20', p_gross_amount => '120'), -- 3 good: JPY, none
  tests.line('INV-4', p_net_amount => '10.005', p_tax_amount => '1.995',
             p_gross_amount => '12.00'),                -- 4 bad: EUR, 3 decimals
  tests.line('INV-5', p_currency => 'JPY', p_net_amount => '100.5',
             p_tax_amount => '19.5', p_gross_amount => '120') -- 5 bad: JPY, 1 decimal
], p_manifest => '{"record_count": 5, "control_totals": {"EUR": "37.01", "JPY": "240"}}') \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['4 net_amount.precision', '4 tax_amount.precision', '5 net_amount.precision',
                '5 tax_amount.precision'],
          'Exactly the amounts with more decimals than their currency allows are rejected with the precision rules.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=3 rejected=2',
          'validate_batch quarantines the all-or-nothing batch and counts 3 accepted and 2 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,2,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
