-- ingest.validate_batch, rule status.value: ISSUED and VOID pass; any other
-- spelling (lower case, another word, a trailing space) is rejected.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_status => 'ISSUED'),           -- 1 good
  tests.line('INV-2', p_status => 'VOID'),              -- 2 good
  tests.line('INV-3', p_status => 'issued'),            -- 3 bad: lower case
  tests.line('INV-4', p_status => 'CANCELLED'),         -- 4 bad: unknown word
  tests.line('INV-5', p_status => 'VOID ')              -- 5 bad: trailing space
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['3 status.value', '4 status.value', '5 status.value'],
          'Exactly the unknown statuses are rejected with status.value.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=2 rejected=3',
          'validate_batch quarantines the all-or-nothing batch and counts 2 accepted and 3 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,3,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
