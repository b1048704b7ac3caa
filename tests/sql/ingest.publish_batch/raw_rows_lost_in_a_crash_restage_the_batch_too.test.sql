-- ingest.publish_batch on a validated batch whose staging.invoice_line rows
-- are gone while its staging.invoice_valid rows are still there (simulated
-- by deleting only the raw rows): outcome 'restage' as well, state
-- received, no version, no watermark, no outbox row, one validated->
-- received event with a reason, and the typed rows cleared too (staging
-- has no primary key: rows left behind would be counted twice).  Staging,
-- validating and publishing again publishes the 20 seed invoices once.
begin;
select plan(9);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), tests.seed_lines(20)) \gset
select state as validated_state from tests.validate(:batch_id) \gset

delete from staging.invoice_line as l where l.batch_id = :batch_id;

select p.outcome, p.state from tests.publish(:batch_id) as p \gset lost_

select is(format('%s: %s %s', :'validated_state', :'lost_outcome', :'lost_state'),
          'validated: restage received',
          'Publishing the validated batch whose raw rows are gone returns restage, received.');
select is((select b.state from ingest.batch as b where b.batch_id = :batch_id), 'received',
          'The batch is received again.');
select is((select count(*)::integer from core.invoice_version as cv where cv.batch_id = :batch_id)
          + (select count(*)::integer from ingest.source_watermark as w where w.source = :'source')
          + (select count(*)::integer from ingest.outbox as o where o.batch_id = :batch_id),
          0, 'No version, no watermark and no outbox row are written.');
select is((select array_agg(e.from_state || '->' || e.to_state || ' ' || (e.detail ? 'reason'))
           from ingest.batch_event as e
           where e.batch_id = :batch_id and e.to_state = 'received' and e.from_state is not null),
          array['validated->received true'],
          'Exactly one validated->received event is written, and its detail gives a reason.');
select is((select count(*)::integer from staging.invoice_valid as v where v.batch_id = :batch_id), 0,
          'The typed rows left in staging are cleared.');

select state as restaged_state from tests.stage_batch(:'source', tests.d(), tests.seed_lines(20)) \gset
select state as revalidated_state from tests.validate(:batch_id) \gset
select * from tests.publish(:batch_id) \gset again_

select is(format('%s %s %s', :'restaged_state', :'revalidated_state', :'again_outcome'),
          'staged validated published',
          'Staged, validated and published again, the batch is published.');
select is((select (c ->> 'records', c ->> 'inserted', c ->> 'rejected', (c ->> 'accepted_gross')::numeric)::text
           from (select :'again_counts'::jsonb as c) as x),
          '(20,20,0,4200.00)', 'It counts 20 records, 20 inserted, 4200.00 gross.');
select is((select count(*)::integer from core.invoice_version as cv where cv.batch_id = :batch_id), 20,
          'The 20 versions are written once.');
select is((select count(*)::integer from ingest.outbox as o where o.batch_id = :batch_id)
          + (select count(*)::integer from ingest.source_watermark as w
             where w.source = :'source' and w.batch_id = :batch_id),
          2, 'One outbox row is written and the watermark moves to the batch.');

select * from finish();
rollback;
