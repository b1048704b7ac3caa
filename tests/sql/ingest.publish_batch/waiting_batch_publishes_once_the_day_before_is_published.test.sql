-- ingest.publish_batch: a batch that waited for D+1 publishes on the next
-- try once D+1 is published, and the watermark then moves one day at a
-- time: D, D+1, D+2.
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id as day_d from tests.load_batch(:'source', tests.d(), tests.seed_lines(2, 'A-')) \gset
select batch_id as day_d2, outcome as first_try
from tests.load_batch(:'source', tests.d() + 2, tests.seed_lines(2, 'C-')) \gset
select batch_id as day_d1, outcome as day_d1_outcome
from tests.load_batch(:'source', tests.d() + 1, tests.seed_lines(2, 'B-')) \gset

select is(format('%s %s', :'first_try', :'day_d1_outcome'), 'waiting published',
          'D+2 waited, then D+1 published.');
select is((select w.business_date from ingest.watermark as w where w.source = :'source'), tests.d() + 1,
          'The watermark is at D+1 after D+1 publishes.');

select * from tests.publish(:day_d2) \gset retry_
select is(:'retry_outcome'::text, 'published', 'The waiting D+2 batch publishes on the next try.');
select is((select w.business_date || ' ' || w.batch_id from ingest.watermark as w where w.source = :'source'),
          (tests.d() + 2) || ' ' || :day_d2, 'The watermark moves to D+2.');

select * from finish();
rollback;
