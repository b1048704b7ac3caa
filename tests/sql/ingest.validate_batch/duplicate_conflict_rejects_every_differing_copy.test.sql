-- ingest.validate_batch, rule duplicate.conflict: the same (invoice_number,
-- revision) twice in one file with different content rejects every copy;
-- the same number at another revision is a different version and passes.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_customer_id => 'C-A'),         -- 1 bad: conflicts with 3
  tests.line('INV-2'),                                  -- 2 good
  tests.line('INV-1', p_customer_id => 'C-B'),          -- 3 bad: conflicts with 1
  tests.line('INV-1', p_revision => '1')                -- 4 good: another revision
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['1 duplicate.conflict', '3 duplicate.conflict'],
          'Both differing copies of INV-1 revision 0, and nothing else, are rejected with duplicate.conflict.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=2 rejected=2',
          'validate_batch quarantines the all-or-nothing batch and counts 2 accepted and 2 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,2,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
