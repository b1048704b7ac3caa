-- The typical use "the operator switched the source to partial": a batch
-- of an all-or-nothing source quarantined for two bad records is replayed
-- after the source allows a share of rejections; the next load publishes
-- the 18 good records, keeps the two rejections of the new attempt in
-- ingest.rejection and those of the first in ingest.rejection_superseded.
begin;
select plan(4);

select tests.make_source() as source \gset
select tests.seed_lines(20) as lines \gset
select (:'lines'::text[])[1:18] || array[tests.line('BAD-1', p_revision => 'x'),
                                        tests.line('BAD-2', p_currency => 'EUX')] as rows \gset
select batch_id from tests.load_batch(:'source', tests.d(), :'rows'::text[]) \gset
select is((select b.state from ingest.batch as b where b.batch_id = :batch_id), 'quarantined',
          'All-or-nothing quarantines the batch for two bad records.');

set local role invoice_operator;
select ingest.add_source(:'source', 'partial', 0.2, null);
reset role;
select tests.replay(:batch_id, 'accept the good records; the sender fixes the rest') \gset

select is((select (l.state, l.outcome)::text from tests.load_batch(:'source', tests.d(), :'rows'::text[]) as l),
          '(published,published)', 'The replayed batch publishes under the partial policy.');
select is(tests.rejections(:batch_id), array['19 revision.format', '20 currency.unknown'],
          'The new attempt''s two rejections are shown.');
select is((select count(*)::integer from ingest.rejection_superseded as r where r.batch_id = :batch_id), 2,
          'The first attempt''s two rejections are kept.');

select * from finish();
rollback;
