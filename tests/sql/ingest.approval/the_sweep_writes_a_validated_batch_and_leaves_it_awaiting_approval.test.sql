-- A batch of a source with require_approval validated while an earlier
-- date was unpublished waits, not written.  Once that date publishes, the
-- sweep takes the waiting batch's turn as for any source: it writes it,
-- and there it stops, awaiting approval, its attempt closed as waiting
-- and saying so; nothing reaches readers, and the next sweep does not look
-- at it again (only the operator's approve publishes it).
begin;
select plan(7);

select tests.make_source('acme-erp', p_start_date => tests.d());
select ingest.set_source_approval('acme-erp', true);
select batch_id as waiting, outcome from tests.load_batch('acme-erp', tests.d() + 1,
  tests.seed_lines(20, 'NEXT-')) \gset
select is(:'outcome'::text, 'waiting', 'The batch of D+1 waits for D, not written.');
select batch_id as first from tests.load_batch('acme-erp', tests.d(), tests.seed_lines()) \gset
select pg_catalog.pg_advisory_unlock_all();
select lives_ok(format('select * from ingest.approve_batch(%s, %L)', :first, 'checked'),
                'D is approved and published.');
select pg_catalog.pg_advisory_unlock_all();

select results_eq($$ select r.batch_id, r.outcome from ingest.sweep_publish_ready() as r $$,
                  format($$ values (%s::bigint, 'waiting'::text) $$, :waiting),
                  'The sweep takes D+1''s turn and it waits.');
select is((select (p.awaits_approval, p.approved_by_action)::text
           from ingest.pending_publication as p where p.batch_id = :waiting),
          '(t,)', 'It is written now, awaiting approval.');
select is((select (a.host, a.outcome, a.message like '%awaiting approval%')::text
           from ingest.attempt as a where a.batch_id = :waiting
           order by a.attempt_no desc limit 1),
          '(ingest.sweep,waiting,t)', 'The sweep''s attempt says it awaits approval.');
select is((select (count(*), (select w.business_date from ingest.watermark as w
                               where w.source = 'acme-erp'))::text
           from reporting.invoice where source = 'acme-erp'),
          (select (20, tests.d())::text), 'Readers see D alone.');
select is_empty($$ select * from ingest.sweep_publish_ready() $$,
                'The next sweep does not look at it.');

select * from finish();
rollback;
