-- ingest.validate_batch, rule customer_id.missing: an empty unquoted field
-- (NULL after COPY) and a quoted empty field ('') are both missing; any
-- non-empty text passes.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_customer_id => 'C-1'),         -- 1 good
  tests.line('INV-2', p_customer_id => 'x'),            -- 2 good
  tests.line('INV-3', p_customer_id => null),           -- 3 bad: empty unquoted
  tests.line('INV-4', p_customer_id => '')              -- 4 bad: quoted empty
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['3 customer_id.missing', '4 customer_id.missing'],
          'Exactly the records without a customer are rejected with customer_id.missing.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=2 rejected=2',
          'validate_batch quarantines the all-or-nothing batch and counts 2 accepted and 2 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,2,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
