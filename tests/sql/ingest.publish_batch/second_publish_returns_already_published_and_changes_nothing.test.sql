-- ingest.publish_batch on a batch that is already published (a rerun of the
-- loader finds it by its bytes) returns already_published with the original
-- merge counts and writes nothing: no new version, no new outbox row, the
-- watermark row and the batch row untouched (same tuple), no new event.
begin;
select plan(7);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.seed_lines(20)) \gset

select (select count(*) from core.invoice_version) as versions,
       (select count(*) from ingest.outbox) as outbox,
       (select count(*) from ingest.batch_event as e where e.batch_id = :batch_id) as events,
       (select w.ctid::text || ' ' || w.business_date || ' ' || w.batch_id
          from ingest.source_watermark as w where w.source = :'source') as watermark,
       (select b.ctid::text from ingest.batch as b where b.batch_id = :batch_id) as batch_tuple,
       (select b.merge_counts::text from ingest.batch as b where b.batch_id = :batch_id) as merge_counts
\gset before_

select state as rerun_state from tests.stage_batch(:'source', tests.d(), tests.seed_lines(20)) \gset
select * from tests.publish(:batch_id) \gset again_

select is(format('%s %s', :'again_outcome', :'again_state'), 'already_published published',
          'The second publish_batch reports already_published.');
select is(:'again_counts'::jsonb, :'before_merge_counts'::jsonb,
          'It returns the merge counts of the original publication.');
select is((select count(*) from core.invoice_version), :before_versions::bigint, 'No version is added.');
select is((select count(*) from ingest.outbox), :before_outbox::bigint, 'No outbox row is added.');
select is((select w.ctid::text || ' ' || w.business_date || ' ' || w.batch_id
           from ingest.source_watermark as w where w.source = :'source'),
          :'before_watermark', 'The watermark row is not rewritten.');
select is((select b.ctid::text from ingest.batch as b where b.batch_id = :batch_id), :'before_batch_tuple',
          'The batch row is not rewritten.');
select is((select count(*) from ingest.batch_event as e where e.batch_id = :batch_id), :before_events::bigint,
          'No event is written.');

select * from finish();
rollback;
