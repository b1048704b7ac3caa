-- ingest.claim_notifications: pending rows, oldest first, up to the limit;
-- a row this session holds is not claimed again; dispatched, failed and
-- in_doubt rows never; each claim counts a try and records the claimer.
-- The body of a batch_published row carries the batch id, source, date,
-- kind, record count, control total, accepted and rejected counts and the
-- publication time, built from what the outbox row stored.
begin;
select plan(9);

select tests.make_source('acme-erp', p_start_date => tests.d());
select batch_id as batch from tests.load_batch('acme-erp', tests.d(), tests.seed_lines()) \gset
insert into ingest.outbox (kind, dedupe_key, payload, state, dispatched_at, in_doubt_at) values
  ('deadline_missed', 'test:a', '{"source": "acme-erp"}', 'pending', null, null),
  ('deadline_missed', 'test:b', '{"source": "acme-erp"}', 'pending', null, null),
  ('deadline_missed', 'test:done', '{}', 'dispatched', pg_catalog.now(), null),
  ('deadline_missed', 'test:doubt', '{}', 'in_doubt', null, pg_catalog.now()),
  ('deadline_missed', 'test:failed', '{}', 'failed', null, null);

set local role invoice_loader;
select results_eq($$ select c.dedupe_key, c.tries from ingest.claim_notifications(2, 'host-1 pid 7 webhook') as c $$,
                  format($$ values ('batch_published:%s'::text, 1), ('test:a', 1) $$, :batch),
                  'The two oldest pending rows are claimed, one try each.');
select results_eq($$ select c.dedupe_key from ingest.claim_notifications(10, 'host-1 pid 7 webhook') as c $$,
                  $$ values ('test:b'::text) $$,
                  'Claiming again returns only the pending row this session does not hold yet.');
select is_empty($$ select * from ingest.claim_notifications(10, 'host-1 pid 7 webhook') $$,
                'Then nothing: dispatched, failed and in_doubt rows are never claimed.');
reset role;

select is((select array_agg(n.claimed_by || ' ' || n.state order by n.dedupe_key) from ingest.notification as n
           where n.dedupe_key in ('test:a', 'test:b')),
          array['host-1 pid 7 webhook pending', 'host-1 pid 7 webhook pending'],
          'A claimed row names its claimer and is still pending.');

-- The body, claimed again from the same data in a fresh claim.
select pg_catalog.pg_advisory_unlock_all();
create temporary table body as
select c.payload from ingest.claim_notifications(1, 'x') as c;
select is((select (b.payload ->> 'batch_id')::bigint from body as b), :batch::bigint, 'The body carries the batch id.');
select is((select (b.payload ->> 'source', b.payload ->> 'business_date', b.payload ->> 'kind')::text from body as b),
          format('(acme-erp,%s,batch_published)', tests.d()), 'The source, the business date and the kind.');
select is((select (b.payload ->> 'record_count', b.payload ->> 'control_total',
                   b.payload ->> 'accepted_count', b.payload ->> 'rejected_count')::text from body as b),
          '(20,4200.00,20,0)', 'The record count, the control total, the accepted and rejected counts.');
select is((select (b.payload ->> 'published_at')::timestamptz from body as b),
          (select x.published_at from ingest.batch as x where x.batch_id = :batch),
          'The publication time.');
select throws_ok($$ select * from ingest.claim_notifications(0, 'x') $$, 'IV308', null,
                 'A limit under one is refused.');

select * from finish();
rollback;
