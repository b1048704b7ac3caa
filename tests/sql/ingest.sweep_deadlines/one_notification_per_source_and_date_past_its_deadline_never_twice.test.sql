-- deadline_missed: for a source with --deadline 00:00 (UTC, on D+1) and a
-- start date three days ago whose first day is published, each later date
-- up to yesterday is past its deadline unpublished: one notification each,
-- keyed deadline_missed:<source>:<D>; today is not past its deadline yet;
-- a second sweep writes nothing; a source without a deadline gets none.
begin;
select plan(6);

select (pg_catalog.now() at time zone 'UTC')::date as today \gset
set local role invoice_operator;
select ingest.add_source('acme-erp', p_start_date => :'today'::date - 3, p_deadline => time '00:00');
select ingest.add_source('globex-erp', p_start_date => :'today'::date - 3);
reset role;
-- D-3 is an empty day, published.
select tests.load_batch('acme-erp', :'today'::date - 3, '{}');

select is(ingest.sweep_deadlines(), 2, 'The sweep writes two notifications.');
select is((select array_agg(n.dedupe_key order by n.dedupe_key) from ingest.notification as n
           where n.kind = 'deadline_missed'),
          array['deadline_missed:acme-erp:' || pg_catalog.to_char(:'today'::date - 2, 'YYYY-MM-DD'),
                'deadline_missed:acme-erp:' || pg_catalog.to_char(:'today'::date - 1, 'YYYY-MM-DD')],
          'One per unpublished date past its deadline: the day before yesterday and yesterday.');
select is((select (n.payload ->> 'source', n.payload ->> 'business_date', n.batch_id, n.state)::text
           from ingest.notification as n where n.kind = 'deadline_missed' order by n.notification_id limit 1),
          format('(acme-erp,%s,,pending)', :'today'::date - 2),
          'The payload names the source and the date; no batch; pending.');
select is((select (n.payload ->> 'deadline')::timestamptz from ingest.notification as n
           where n.kind = 'deadline_missed' order by n.notification_id limit 1),
          ((:'today'::date - 1)::timestamp at time zone 'UTC'),
          'The deadline is D+1 at 00:00 UTC.');
select is(ingest.sweep_deadlines(), 0, 'A second sweep writes nothing.');
select is((select count(*)::integer from ingest.notification as n where n.kind = 'deadline_missed'), 2,
          'Still two: never twice for a source and date; none for the source without a deadline.');

select * from finish();
rollback;
