-- A batch validated for D+1 waits (the loader exits 75); once D publishes,
-- the sweep publishes it through ingest.publish_batch, under an attempt of
-- its own (host ingest.sweep, closed with the outcome), with its watermark
-- and its notification; a second sweep finds nothing to do.
begin;
select plan(10);

select tests.make_source('acme-erp', p_start_date => tests.d());
select batch_id as waiting, outcome from tests.load_batch('acme-erp', tests.d() + 1,
  tests.seed_lines(20, 'NEXT-')) \gset
select is(:'outcome'::text, 'waiting', 'The batch of D+1 waits for D.');
-- The loader exited: its session (and the runner lock) is gone.
select pg_catalog.pg_advisory_unlock_all();

select is_empty($$ select * from ingest.sweep_publish_ready() $$,
                'Before D is published, the sweep publishes nothing.');

select batch_id as first from tests.load_batch('acme-erp', tests.d(), tests.seed_lines()) \gset
select pg_catalog.pg_advisory_unlock_all();

select results_eq($$ select r.batch_id, r.outcome from ingest.sweep_publish_ready('00000000-0000-0000-0000-0000000000aa') as r $$,
                  format($$ values (%s::bigint, 'published'::text) $$, :waiting),
                  'The sweep publishes the waiting batch once D is published.');
select is((select b.state from ingest.batch as b where b.batch_id = :waiting), 'published',
          'The waiting batch is published.');
select is((select w.business_date from ingest.watermark as w where w.source = 'acme-erp'),
          tests.d() + 1, 'The watermark moved to D+1 with it.');
select is((select count(*)::integer from reporting.invoice where source = 'acme-erp'), 40,
          'Both days'' invoices are visible.');
select is((select count(*)::integer from ingest.notification as n
           where n.batch_id = :waiting and n.kind = 'batch_published'), 1,
          'One batch_published notification for it.');
select is((select (a.host, a.run_id, a.state_at_start, a.outcome, a.finished_at is not null)::text
           from ingest.attempt as a where a.batch_id = :waiting order by a.attempt_no desc limit 1),
          '(ingest.sweep,00000000-0000-0000-0000-0000000000aa,validated,published,t)',
          'The sweep''s attempt names the sweep and is closed as published.');
select is((select e.attempt_id from ingest.batch_event as e
           where e.batch_id = :waiting and e.to_state = 'published'),
          tests.last_attempt(:waiting), 'The publication event names the sweep''s attempt.');
select is_empty($$ select * from ingest.sweep_publish_ready() $$,
                'A second sweep finds nothing to publish.');

select * from finish();
rollback;
