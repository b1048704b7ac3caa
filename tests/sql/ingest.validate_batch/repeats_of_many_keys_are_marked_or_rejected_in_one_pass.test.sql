-- ingest.validate_batch, step 3 (one window pass, no join: plans that
-- trusted stale statistics made it quadratic): in one file, INV-A three
-- times identical (records 1, 4, 7) counts once: 4 and 7 are marked
-- duplicates; INV-B twice identical and once different (2, 5, 8) rejects
-- all three with duplicate.conflict, the detail listing the records in
-- order; INV-C once is untouched.  Partial policy (share 0.5): validated.
begin;
select plan(4);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.5) as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-A'),                              -- 1
  tests.line('INV-B'),                              -- 2
  tests.line('INV-C'),                              -- 3
  tests.line('INV-A'),                              -- 4: identical to 1
  tests.line('INV-B'),                              -- 5: identical to 2
  tests.line('INV-D'),                              -- 6
  tests.line('INV-A'),                              -- 7: identical to 1
  tests.line('INV-B', p_customer_id => 'OTHER')     -- 8: differs from 2 and 5
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'validated accepted=5 rejected=3', 'The batch is validated: 5 accepted, 3 rejected.');
select is(tests.rejections(:batch_id),
          array['2 duplicate.conflict', '5 duplicate.conflict', '8 duplicate.conflict'],
          'Every copy of INV-B is rejected with duplicate.conflict, and nothing else.');
select is((select array_agg(distinct r.detail) from ingest.rejection as r where r.batch_id = :batch_id),
          array['invoice INV-B revision 0 appears with different content in records 2, 5, 8'],
          'The detail names the key and its records in order.');
select is((select array_agg(v.record_no || ':' || v.is_duplicate order by v.record_no)
           from staging.invoice_valid as v where v.batch_id = :batch_id),
          array['1:false', '3:false', '4:true', '6:false', '7:true'],
          'INV-A is kept from record 1 with 4 and 7 marked duplicates; INV-B is gone.');

select * from finish();
rollback;
