-- A validated batch whose runner lock a live session holds (a loader is on
-- it) is passed over ('busy'), untouched; ready batches the caller lists in
-- p_skip are not looked at; once the lock is free the sweep publishes it.
begin;
select plan(5);

select tests.make_source('acme-erp', p_start_date => tests.d());
select batch_id as waiting from tests.load_batch('acme-erp', tests.d() + 1,
  tests.seed_lines(20, 'NEXT-')) \gset
select tests.load_batch('acme-erp', tests.d(), tests.seed_lines());
-- This session still holds the runner locks begin_attempt took: it stands
-- for a live loader.
select results_eq($$ select r.batch_id, r.outcome, r.attempt_id from ingest.sweep_publish_ready() as r $$,
                  format($$ values (%s::bigint, 'busy'::text, null::bigint) $$, :waiting),
                  'A batch whose runner lock is held is passed over as busy.');
select is((select (b.state, (select count(*) from ingest.attempt as a where a.batch_id = b.batch_id))::text
           from ingest.batch as b where b.batch_id = :waiting),
          '(validated,1)', 'It stays validated, with no attempt added.');

select pg_catalog.pg_advisory_unlock_all();
select is_empty(format($$ select * from ingest.sweep_publish_ready(p_skip => array[%s::bigint]) $$, :waiting),
                'A batch in p_skip is not looked at.');
select results_eq($$ select r.outcome from ingest.sweep_publish_ready() as r $$,
                  $$ values ('published'::text) $$, 'With the lock free, the sweep publishes it.');
select is((select b.state from ingest.batch as b where b.batch_id = :waiting), 'published',
          'The batch is published.');

select * from finish();
rollback;
