-- ingest.validate_batch, rule gross_amount.sign: an INVOICE needs gross >= 0
-- and a CREDIT_NOTE gross <= 0 (zero is fine for both); a negative invoice
-- and a positive credit note are rejected.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1'),                                  -- 1 good: invoice, 120.00
  tests.line('INV-2', p_net_amount => '0.00', p_tax_amount => '0.00',
             p_gross_amount => '0.00'),                 -- 2 good: invoice, zero
  tests.line('CN-3', p_document_type => 'CREDIT_NOTE', p_net_amount => '-100.00',
             p_tax_amount => '-20.00', p_gross_amount => '-120.00'), -- 3 good: credit note
  tests.line('CN-4', p_document_type => 'CREDIT_NOTE', p_net_amount => '0.00',
             p_tax_amount => '0.00', p_gross_amount => '0.00'),       -- 4 good: credit note, zero
  tests.line('INV-5', p_net_amount => '-100.00', p_tax_amount => '-20.00',
             p_gross_amount => '-120.00'),              -- 5 bad: negative invoice
  tests.line('CN-6', p_document_type => 'CREDIT_NOTE')  -- 6 bad: positive credit note
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['5 gross_amount.sign', '6 gross_amount.sign'],
          'Exactly the invoice with a negative gross and the credit note with a positive gross are rejected with gross_amount.sign.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=4 rejected=2',
          'validate_batch quarantines the all-or-nothing batch and counts 4 accepted and 2 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,2,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
