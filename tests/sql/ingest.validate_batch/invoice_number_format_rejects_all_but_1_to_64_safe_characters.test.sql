-- ingest.validate_batch, rule invoice_number.format: 1-64 characters of
-- A-Z a-z 0-9 . _ / - pass (64 included); a space, '#', 65 characters or a
-- non-ASCII letter are rejected, each on its own record number.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-0001'),                               -- 1 good
  tests.line('a.B_c/9-0'),                              -- 2 good
  tests.line(repeat('X', 64)),                          -- 3 good: 64 characters
  tests.line('INV 1'),                                  -- 4 bad: space
  tests.line('INV#1'),                                  -- 5 bad: #
  tests.line(repeat('Y', 65)),                          -- 6 bad: 65 characters
  tests.line('FAKTÜRA-1')                               -- 7 bad: not ASCII
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(tests.rejections(:batch_id),
          array['4 invoice_number.format', '5 invoice_number.format', '6 invoice_number.format',
                '7 invoice_number.format'],
          'Exactly the malformed invoice numbers are rejected with invoice_number.format.');
select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'quarantined accepted=3 rejected=4',
          'validate_batch quarantines the all-or-nothing batch and counts 3 accepted and 4 rejected records.');
select is(tests.batch_outcome(:batch_id), '(quarantined,4,0)',
          'The batch is quarantined and none of its records is kept for publication.');

select * from finish();
rollback;
