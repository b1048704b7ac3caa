-- ingest.validate_batch, rule document_type.value: INVOICE and CREDIT_NOTE
-- pass; other spellings are rejected (and not also judged by the sign rule).
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_document_type => 'INVOICE'),   -- 1 good
  tests.line('CN-2', p_document_type => 'CREDIT_NOTE',
             p_net_amount => '-100.00', p_tax_amount => '-20.00',
             p_gross_amount => '-120.00'),              -- 2 good
  tests.line('INV-3', p_document_type => 'invoice'),    -- 3 bad: lower case
  tests.line('CN-4', p_document_type => 'CREDIT NOTE'), -- 4 bad: space
  tests.line('CN-5', p_document_type => 'CREDIT-NOTE')  -- 5 bad: hyphen
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['3 document_type.value', '4 document_type.value', '5 document_type.value'],
          'Exactly the unknown document types are rejected with document_type.value.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=2 rejected=3',
          'validate_batch quarantines the all-or-nothing batch and counts 2 accepted and 3 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,3,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
