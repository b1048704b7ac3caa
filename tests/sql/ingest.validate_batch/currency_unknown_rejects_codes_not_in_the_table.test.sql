-- ingest.validate_batch, rule currency.unknown: upper-case ISO 4217 codes
-- known to ingest.currency pass (EUR, and JPY with whole amounts); 'eur'
-- (never upper-cased for the sender), 'EURO' and 'XYZ' are rejected.  The
-- file has two currencies, so its manifest gives control_totals (a
-- record of an unknown currency belongs to none of them).
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_currency => 'EUR'),            -- 1 good
  tests.line('INV-2', p_currency => 'JPY', p_net_amount => '100',
             p_tax_amount => '20', p_gross_amount => '120'), -- 2 good
  tests.line('INV-3', p_currency => 'eur'),             -- 3 bad: lower case
  tests.line('INV-4', p_currency => 'EURO'),            -- 4 bad: not a code
  tests.line('INV-5', p_currency => 'XYZ')              -- 5 bad: no such currency
], p_manifest => '{"record_count": 5, "control_totals": {"EUR": "120.00", "JPY": "120"}}') \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['3 currency.unknown', '4 currency.unknown', '5 currency.unknown'],
          'Exactly the unknown currencies are rejected with currency.unknown.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=2 rejected=3',
          'validate_batch quarantines the all-or-nothing batch and counts 2 accepted and 3 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,3,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
