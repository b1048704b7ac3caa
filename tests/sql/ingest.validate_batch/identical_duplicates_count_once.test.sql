-- ingest.validate_batch / publish_batch: the same (invoice_number, revision)
-- twice in one file with identical content is not an error: the batch is
-- validated, the repeat is marked as a duplicate, publication writes one
-- version, and the manifest's control total (over all records of the file,
-- repeat included) still reconciles.
begin;
select plan(6);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1'),                                  -- 1
  tests.line('INV-2'),                                  -- 2
  tests.line('INV-1')                                   -- 3: identical to 1
]) \gset
select * from tests.validate(:batch_id) \gset v_

select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'validated accepted=3 rejected=0', 'The batch with an identical repeat is validated.');
select is(tests.rejections(:batch_id), '{}'::text[], 'The identical repeat is not rejected.');
select is((select array_agg(v.record_no order by v.record_no) from staging.invoice_valid as v
           where v.batch_id = :batch_id and v.is_duplicate),
          array[3], 'Only the later copy, record 3, is marked as a duplicate.');
select * from tests.publish(:batch_id) \gset p_
select is(:'p_outcome'::text, 'published', 'The batch publishes.');
select is((select array_agg(cv.invoice_number || ' from record ' || cv.record_no order by cv.invoice_number)
           from core.invoice_version as cv where cv.batch_id = :batch_id),
          array['INV-1 from record 1', 'INV-2 from record 2'], 'INV-1 is published once, from its first record.');
select is(((:'p_counts'::jsonb) ->> 'duplicates')::integer, 1, 'The merge counts one duplicate.');

select * from finish();
rollback;
