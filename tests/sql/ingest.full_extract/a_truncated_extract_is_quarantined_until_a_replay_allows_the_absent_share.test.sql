-- The guard: a full extract that would close more than the source's
-- max_absent_share of its current invoices is quarantined at publication
-- with rule extract.absent_share (record 0) and nothing of it is
-- published: versions, watermark, counts and notifications as before.  A
-- replay with the override (ingest.replay_batch's third argument, kept in
-- ingest.operator_action) lets the next load publish it with the closures;
-- a plain replay does not.  An empty extract (header only) of a source with
-- current invoices would close all of them: quarantined the same way.  An
-- override asked for while a plain authorization is unused is IV312.
begin;
select plan(13);

select tests.make_source() as source \gset
select tests.full_extract(:'source', 0.25);
select batch_id as day1 from tests.load_batch(:'source', tests.d(), tests.seed_lines(10)) \gset

-- 3 of 10 absent: more than 0.25.
select batch_id as day2, state from tests.load_batch(:'source', tests.d() + 1, tests.seed_lines(7)) \gset
select is(:'state'::text, 'quarantined', 'Three absent of ten is more than the share: quarantined.');
select is(tests.rejections(:day2), array['0 extract.absent_share'],
          'The reason is the guard''s own rule, at file level.');
select is((select count(*) || ' ' || sum(i.gross_amount) from reporting.invoice as i where i.source = :'source'),
          '10 1100.00', 'Nothing was closed: the ten invoices are current.');
select is((select (w.business_date, w.batch_id = :day1)::text from ingest.watermark as w where w.source = :'source'),
          format('(%s,t)', tests.d()), 'The watermark stays at day 1.');
select is((select array_agg(n.kind order by n.notification_id) from ingest.outbox as n where n.batch_id = :day2),
          array['batch_quarantined'], 'One batch_quarantined notification, no publication.');
select is_empty(format('select 1 from core.invoice_closure where batch_id = %s', :day2),
                'No closure is recorded.');

-- A plain replay: the guard holds.
select tests.replay(:day2, 'try again') \gset
select is((select l.state from tests.load_batch(:'source', tests.d() + 1, tests.seed_lines(7)) as l),
          'quarantined', 'A replay without the override is quarantined again.');

-- Override while a plain authorization is unused: refused.
select tests.replay(:day2, 'try again') \gset
select throws_ok(format('select tests.replay_allowing_absent(%s)', :day2), 'IV312', null,
                 'An override cannot ride on an unused plain authorization.');
select is((select l.state from tests.load_batch(:'source', tests.d() + 1, tests.seed_lines(7)) as l),
          'quarantined', 'The plain authorization is used (quarantined again).');

select tests.replay_allowing_absent(:day2, 'customer closed three contracts') as action \gset
select is((select (o.action, o.allow_absent_share, o.reason)::text from ingest.operator_action as o
           where o.action_id = :action),
          '(replay,t,"customer closed three contracts")', 'The override is kept with the replay in the audit.');
select is((select l.state from tests.load_batch(:'source', tests.d() + 1, tests.seed_lines(7)) as l),
          'published', 'The next load publishes it.');
select is((select b.merge_counts ->> 'closed_by_absence' || ' ' || (select count(*) from reporting.invoice as i
                                                                    where i.source = :'source')
           from ingest.batch as b where b.batch_id = :day2),
          '3 7', 'with the three closures.');

-- An empty extract (header only) would close all seven.
select batch_id as day3, state from tests.load_batch(:'source', tests.d() + 2, '{}'::text[],
                                                     tests.manifest(:'source', tests.d() + 2, 0, '0.00')) \gset
select is(tests.rejections(:day3), array['0 extract.absent_share'],
          'An empty full extract of a source with current invoices is quarantined by the guard.');

select * from finish();
rollback;
