-- ingest.revert_batch moves the watermark back: reverting the second day
-- returns it to the first (with the first day's batch); a corrected file
-- for the first day published too keeps that date when the later one of
-- the two is reverted; reverting the last published date removes the
-- watermark row.
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) \gset
select batch_id as second from tests.load_batch(:'source', tests.d() + 1, tests.second_day_lines()) \gset

select tests.revert(:second);
select is((select (w.business_date, w.batch_id)::text from ingest.watermark as w where w.source = :'source'),
          (tests.d(), :first::bigint)::text, 'Reverting day 2 returns the watermark to day 1.');

select batch_id as corrected from tests.load_batch(:'source', tests.d(),
  array[tests.line('INV-0001', p_revision => '3')]) \gset
select tests.revert(:corrected);
select is((select (w.business_date, w.batch_id)::text from ingest.watermark as w where w.source = :'source'),
          (tests.d(), :first::bigint)::text,
          'Reverting a second file of day 1 keeps day 1, still published by the first file.');

select tests.revert(:first);
select is_empty(format('select 1 from ingest.watermark where source = %L', :'source'),
                'Reverting the only published date removes the watermark.');
select is((select (l.state, l.outcome)::text
           from tests.load_batch(:'source', tests.d(), array[tests.line('INV-NEW')]) as l),
          '(published,published)', 'A new file for day 1 then publishes and starts the watermark again.');

select * from finish();
rollback;
