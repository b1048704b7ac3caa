-- ingest.publish_batch for a source with a start date and no watermark: a
-- batch for a later date waits for the start date itself; the start date's
-- batch publishes and sets the watermark.
begin;
select plan(4);

select tests.make_source(p_start_date => tests.d()) as source \gset
select batch_id as later, outcome as later_outcome
from tests.load_batch(:'source', tests.d() + 1, tests.seed_lines(2, 'B-')) \gset

select is(:'later_outcome'::text, 'waiting', 'The batch for the day after the start date waits.');
select is_empty(format('select 1 from ingest.watermark where source = %L', :'source'),
                'No watermark exists while the start date is unpublished.');

select batch_id as first, outcome as first_outcome
from tests.load_batch(:'source', tests.d(), tests.seed_lines(2, 'A-')) \gset
select is(:'first_outcome'::text, 'published', 'The start date''s batch publishes.');
select is((select w.business_date || ' ' || w.batch_id from ingest.watermark as w where w.source = :'source'),
          tests.d() || ' ' || :first, 'The watermark is set to the start date.');

select * from finish();
rollback;
