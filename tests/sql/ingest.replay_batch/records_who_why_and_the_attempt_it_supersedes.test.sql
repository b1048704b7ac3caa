-- ingest.replay_batch records one ingest.operator_action row: action
-- replay, the reason, db_user = session_user (the operator's login, not
-- the definer and not the role set with SET ROLE), the time, and the
-- attempt it supersedes (the one that quarantined the batch, attempt_no
-- and run_id, not the later rerun that found it quarantined and changed
-- nothing), and
-- returns them; it leaves one unused authorization and does not change the
-- batch.  A second replay before the next load records nothing new and
-- returns the same action.
begin;
select plan(7);

create role replay_test_operator login in role invoice_operator;
select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.seed_lines(),
                                      tests.manifest(:'source', tests.d(), 20, '4300.00')) \gset
-- a second attempt, a plain rerun that changes nothing (no authorization yet)
select * from tests.stage_batch(:'source', tests.d(), tests.seed_lines(), p_stage => false) \gset again_

set local session authorization replay_test_operator;
set local role invoice_operator;
select * from ingest.replay_batch(:batch_id, 'sender sent a corrected manifest') \gset r_
reset role;
reset session authorization;

select is((select (o.action, o.reason, o.db_user, o.superseded_attempt_no)::text
           from ingest.operator_action as o where o.action_id = :r_action_id),
          '(replay,"sender sent a corrected manifest",replay_test_operator,1)',
          'The action records replay, the reason, the login and attempt 1, which quarantined the batch.');
select is((select o.superseded_run_id from ingest.operator_action as o where o.action_id = :r_action_id),
          (select a.run_id from ingest.attempt as a where a.batch_id = :batch_id and a.attempt_no = 1),
          'The superseded run_id is that attempt''s.');
select is(:r_superseded_attempt_no, 1, 'replay_batch returns the superseded attempt_no.');
select is((select count(*)::integer from ingest.replay_authorization as a
           where a.batch_id = :batch_id and a.consumed_at is null), 1,
          'One unused authorization is left.');
select is((select b.state from ingest.batch as b where b.batch_id = :batch_id), 'quarantined',
          'The batch itself is still quarantined until the next load.');

select is(tests.replay(:batch_id, 'again'), :r_action_id::bigint,
          'A second replay before the load returns the same action.');
select is((select count(*)::integer from ingest.operator_action as o where o.batch_id = :batch_id), 1,
          'A second replay before the load records no second action.');

select * from finish();
rollback;
