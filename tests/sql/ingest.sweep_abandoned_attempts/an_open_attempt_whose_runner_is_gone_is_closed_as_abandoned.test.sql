-- An unfinished attempt whose runner lock no session holds is closed as
-- 'abandoned' (with the batch's state at the end); one whose lock a live
-- session holds is left open, however old; finished attempts are not
-- touched; a second sweep closes nothing.
begin;
select plan(6);

select tests.make_source('acme-erp');
select tests.make_batch('acme-erp', tests.d(), 'staged') as gone \gset
select tests.make_attempt(:gone) as gone_attempt \gset
select tests.make_batch('acme-erp', tests.d() + 1, 'received') as alive \gset
select tests.make_attempt(:alive) as alive_attempt \gset
update ingest.attempt set started_at = pg_catalog.now() - interval '3 days'
 where attempt_id = :alive_attempt;
select tests.make_batch('acme-erp', tests.d() + 2, 'received') as done \gset
select tests.make_attempt(:done) as done_attempt \gset
select ingest.finish_attempt(:done_attempt, 'failed', 'transient', '08006', 'connection lost');
-- A live runner: this session holds the lock of D+1.
select pg_catalog.pg_advisory_lock(k.key1, k.key2)
from ingest.runner_lock_key('acme-erp', tests.d() + 1) as k;

select results_eq($$ select s.batch_id, s.attempts from ingest.sweep_abandoned_attempts() as s $$,
                  format($$ values (%s::bigint, 1) $$, :gone),
                  'The sweep closes the attempt whose runner is gone, and only it.');
select is((select (a.outcome, a.error_class, a.state_at_end, a.finished_at is not null)::text
           from ingest.attempt as a where a.attempt_id = :gone_attempt),
          '(abandoned,abandoned,staged,t)', 'It is closed as abandoned, with the batch''s state.');
select is((select a.finished_at from ingest.attempt as a where a.attempt_id = :alive_attempt), null,
          'An attempt whose runner lock is held stays open, even three days old.');
select is((select (a.outcome, a.sqlstate)::text from ingest.attempt as a where a.attempt_id = :done_attempt),
          '(failed,08006)', 'A finished attempt keeps its outcome.');
select is_empty($$ select * from ingest.sweep_abandoned_attempts() $$,
                'A second sweep closes nothing.');

select pg_catalog.pg_advisory_unlock_all();
select results_eq($$ select s.batch_id from ingest.sweep_abandoned_attempts() as s $$,
                  format($$ values (%s::bigint) $$, :alive),
                  'Once the runner''s session lets go, its attempt is closed too.');

select * from finish();
rollback;
