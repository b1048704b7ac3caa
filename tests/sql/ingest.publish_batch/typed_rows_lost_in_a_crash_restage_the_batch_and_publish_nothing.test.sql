-- ingest.publish_batch on a validated batch whose staging.invoice_valid
-- rows are gone (unlogged staging emptied by a server crash; simulated by
-- deleting them): outcome 'restage', state received, and nothing of a
-- publication: no version of the batch, the watermark row untouched (still
-- at the day before), no outbox row; one validated->received event with a
-- reason; the batch's raw rows and rejections cleared so that staging
-- again starts clean.  Staging, validating and publishing again then
-- publishes the batch once, with the counts of an uninterrupted run
-- (partial policy: 3 records, 2 inserted, 1 rejected).
begin;
select plan(14);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.5) as source \gset
select batch_id as day1 from tests.load_batch(:'source', tests.d(), tests.seed_lines(2, 'A-')) \gset
select array[tests.line('INV-1'),
             tests.line('INV-2', p_net_amount => 'NaN'),
             tests.line('INV-3')]::text as rows \gset
select batch_id from tests.stage_batch(:'source', tests.d() + 1, :'rows'::text[]) \gset
select state as validated_state from tests.validate(:batch_id) \gset
select (select w.ctid::text || ' ' || w.business_date || ' ' || w.batch_id
          from ingest.source_watermark as w where w.source = :'source') as before_watermark \gset

delete from staging.invoice_valid as v where v.batch_id = :batch_id;

select p.outcome, p.state, coalesce(p.counts::text, 'null') as counts
from tests.publish(:batch_id) as p \gset lost_

select is(format('%s: %s %s %s', :'validated_state', :'lost_outcome', :'lost_state', :'lost_counts'),
          'validated: restage received null',
          'Publishing the validated batch whose typed rows are gone returns restage, received.');
select is((select (b.state, b.staged_count, b.accepted_count, b.rejected_count, b.published_at)::text
           from ingest.batch as b where b.batch_id = :batch_id),
          '(received,,,,)', 'The batch is received again, with no counts and not published.');
select is((select count(*)::integer from core.invoice_version as cv where cv.batch_id = :batch_id), 0,
          'No version of the batch is written.');
select is((select w.ctid::text || ' ' || w.business_date || ' ' || w.batch_id
           from ingest.source_watermark as w where w.source = :'source'),
          :'before_watermark', 'The watermark row is untouched: still at the day before.');
select is((select count(*)::integer from ingest.outbox as o where o.batch_id = :batch_id), 0,
          'No outbox row is written for the batch.');
select is((select array_agg(e.from_state || '->' || e.to_state || ' ' || (e.detail ? 'reason'))
           from ingest.batch_event as e
           where e.batch_id = :batch_id and e.to_state = 'received' and e.from_state is not null),
          array['validated->received true'],
          'Exactly one validated->received event is written, and its detail gives a reason.');
select is((select count(*)::integer from staging.invoice_line as l where l.batch_id = :batch_id)
          + (select count(*)::integer from ingest.rejection_row as r where r.batch_id = :batch_id),
          0, 'The batch''s raw rows and rejections are cleared for the new staging.');

select state as restaged_state from tests.stage_batch(:'source', tests.d() + 1, :'rows'::text[]) \gset
select state as revalidated_state from tests.validate(:batch_id) \gset
select * from tests.publish(:batch_id) \gset again_

select is(format('%s %s %s %s', :'restaged_state', :'revalidated_state', :'again_outcome', :'again_state'),
          'staged validated published published',
          'Staged, validated and published again, the batch is published.');
select is((select (c ->> 'records', c ->> 'inserted', c ->> 'rejected', c ->> 'unchanged',
                   c ->> 'duplicates', (c ->> 'accepted_gross')::numeric)::text
           from (select :'again_counts'::jsonb as c) as x),
          '(3,2,1,0,0,240.00)', 'It counts 3 records: 2 inserted (240.00 gross), 1 rejected.');
select is((select array_agg(cv.invoice_number order by cv.invoice_number)
           from core.invoice_version as cv where cv.batch_id = :batch_id),
          array['INV-1', 'INV-3'], 'Exactly one version of each accepted record is written.');
select is(tests.rejections(:batch_id), array['2 net_amount.format'],
          'Record 2 is rejected once, with its rule.');
select is((select array_agg(w.business_date || ' ' || w.batch_id) from ingest.source_watermark as w
           where w.source = :'source'),
          array[(tests.d() + 1) || ' ' || :batch_id], 'The watermark moves to the batch''s date.');
select is((select array_agg(o.kind) from ingest.outbox as o where o.batch_id = :batch_id),
          array['batch_published'], 'Exactly one batch_published outbox row is written.');
select is((select count(*)::integer from ingest.batch_event as e
           where e.batch_id = :batch_id and e.to_state = 'published'), 1,
          'The batch is published once.');

select * from finish();
rollback;
