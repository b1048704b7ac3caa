-- ingest.publish_batch: an empty business day (a header-only file with
-- record_count 0 and control_total 0) publishes, advances the watermark and
-- notifies, with every merge count zero.
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id, state, outcome from tests.load_batch(:'source', tests.d(), '{}'::text[],
                                                      tests.manifest(:'source', tests.d(), 0, '0')) \gset

select is(format('%s %s', :'state', :'outcome'), 'published published', 'The empty day is published.');
select is((select w.business_date || ' ' || w.batch_id from ingest.watermark as w where w.source = :'source'),
          tests.d() || ' ' || :batch_id, 'The watermark moves to the empty day.');
select is((select array_agg(o.kind) from ingest.notification as o where o.batch_id = :batch_id),
          array['batch_published'], 'One batch_published notification is written.');
select is((select (c ->> 'inserted', c ->> 'amended', c ->> 'voided', c ->> 'late', c ->> 'unchanged',
                   c ->> 'rejected', c ->> 'records')::text
           from ingest.batch as b, lateral (select b.merge_counts) as m(c) where b.batch_id = :batch_id),
          '(0,0,0,0,0,0,0)', 'Every merge count is zero.');

select * from finish();
rollback;
