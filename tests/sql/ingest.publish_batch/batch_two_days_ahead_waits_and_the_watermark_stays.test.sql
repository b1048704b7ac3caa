-- ingest.publish_batch publishes a business date only after every earlier
-- one: with the watermark at D, a validated batch for D+2 returns 'waiting'
-- (for D+1), stays validated, publishes nothing and leaves the watermark.
begin;
select plan(6);

select tests.make_source() as source \gset
select batch_id as day_d from tests.load_batch(:'source', tests.d(), tests.seed_lines(2, 'A-')) \gset
select batch_id as day_d2 from tests.stage_batch(:'source', tests.d() + 2, tests.seed_lines(2, 'B-')) \gset
select state from tests.validate(:day_d2) \gset
select * from tests.publish(:day_d2) \gset p_

select is(format('%s %s', :'p_outcome', :'p_state'), 'waiting validated',
          'Publishing D+2 while the watermark is at D reports waiting.');
select is((:'p_counts'::jsonb) ->> 'waiting_for', (tests.d() + 1)::text, 'It names D+1 as the date it waits for.');
select is((select b.state from ingest.batch as b where b.batch_id = :day_d2), 'validated',
          'The D+2 batch stays validated.');
select is((select array_agg(w.business_date || ' ' || w.batch_id) from ingest.watermark as w
           where w.source = :'source'),
          array[tests.d() || ' ' || :day_d], 'The watermark stays at D.');
select is((select count(*)::integer from core.invoice_version as cv where cv.batch_id = :day_d2)
          + (select count(*)::integer from ingest.outbox as o where o.batch_id = :day_d2),
          0, 'Nothing of D+2 is published or notified.');
select is((select count(*)::integer from staging.invoice_valid as v where v.batch_id = :day_d2), 2,
          'The typed rows of D+2 are kept for its later publication.');

select * from finish();
rollback;
