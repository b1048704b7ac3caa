-- The rejections a consumed replay moves to ingest.rejection_superseded
-- name the attempt that quarantined the batch (1 here), not a later one
-- that only found it quarantined (2, the one the replay supersedes), and
-- the replay that moved them; a second replay after a second quarantine
-- keeps both generations apart.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.seed_lines(),
                                      tests.manifest(:'source', tests.d(), 20, '4300.00')) \gset
select * from tests.stage_batch(:'source', tests.d(), tests.seed_lines(), p_stage => false) \gset found_
select tests.replay(:batch_id) as first_replay \gset
select * from tests.load_batch(:'source', tests.d(), tests.seed_lines(),
                               tests.manifest(:'source', tests.d(), 19, '4200.00')) \gset second_
select is(:'second_state'::text, 'quarantined', 'Attempt 3 is quarantined again (record count).');
select tests.replay(:batch_id) as second_replay \gset
select * from tests.load_batch(:'source', tests.d(), tests.seed_lines()) \gset third_

select is((select array_agg(r.attempt_no || ' ' || r.rule || ' ' || (r.action_id = :first_replay)
                            order by r.attempt_no)
           from ingest.rejection_superseded as r where r.batch_id = :batch_id),
          array['1 reconcile.control_total true', '3 reconcile.record_count false'],
          'Each kept rejection names the attempt that quarantined the batch and its replay.');
select is((select (b.state, b.replays)::text from ingest.batch as b where b.batch_id = :batch_id),
          '(published,2)', 'The second replay publishes.');

select * from finish();
rollback;
