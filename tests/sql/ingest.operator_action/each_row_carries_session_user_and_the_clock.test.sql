-- An ingest.operator_action row always names session_user (the login that
-- acted: an operator's own login under SET ROLE, never the definer
-- invoice_owner), whatever an insert says; replay and revert both record
-- it, with the attempt they supersede.
begin;
select plan(3);

create role action_test_operator login in role invoice_operator;
select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.seed_lines()) \gset

set local session authorization action_test_operator;
select action_id as revert_id from ingest.revert_batch(:batch_id, 'wrong file') \gset
select action_id as replay_id from ingest.replay_batch(:batch_id, 'load it again') \gset
reset session authorization;

select is((select array_agg(o.action || ' ' || o.db_user || ' ' || o.superseded_attempt_no
                            order by o.action_id)
           from ingest.operator_action as o where o.batch_id = :batch_id),
          array['revert action_test_operator 1', 'replay action_test_operator 1'],
          'Both actions name the operator''s login and attempt 1.');

insert into ingest.operator_action (batch_id, action, reason, db_user, at)
values (:batch_id, 'replay', 'forged', 'someone_else', '2000-01-01');
select is((select (o.db_user, o.at > '2001-01-01')::text from ingest.operator_action as o
           where o.reason = 'forged'),
          (session_user, true)::text, 'An insert naming another user or time gets session_user and the clock.');
select isnt((select o.db_user from ingest.operator_action as o where o.action_id = :revert_id),
            'invoice_owner', 'The definer is never recorded as the actor.');

select * from finish();
rollback;
