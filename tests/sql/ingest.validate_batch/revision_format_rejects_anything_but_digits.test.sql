-- ingest.validate_batch, rule revision.format: a whole number >= 0 written
-- as digits passes; a sign, a decimal point, a word, a space, an exponent or
-- more than 9 digits are rejected.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_revision => '0'),               -- 1 good
  tests.line('INV-2', p_revision => '12'),              -- 2 good
  tests.line('INV-3', p_revision => '-1'),              -- 3 bad: sign
  tests.line('INV-4', p_revision => '1.0'),             -- 4 bad: decimal point
  tests.line('INV-5', p_revision => 'one'),             -- 5 bad: word
  tests.line('INV-6', p_revision => ' 1'),              -- 6 bad: space
  tests.line('INV-7', p_revision => '1e2'),             -- 7 bad: exponent
  tests.line('INV-8', p_revision => '10000000000')      -- 8 bad: 11 digits
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['3 revision.format', '4 revision.format', '5 revision.format', '6 revision.format',
                '7 revision.format', '8 revision.format'],
          'Exactly the malformed revisions are rejected with revision.format.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=2 rejected=6',
          'validate_batch quarantines the all-or-nothing batch and counts 2 accepted and 6 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,6,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
