-- ingest.replay_batch runs with its owner's rights, so it checks the
-- caller itself: session_user must be a member of invoice_operator.  A
-- login that can execute it without being an operator (EXECUTE granted to
-- it by mistake) gets IV401 and changes nothing; the same login made an
-- operator may replay.
begin;
select plan(4);

create role replay_test_clerk login;
grant usage on schema ingest to replay_test_clerk;
grant execute on function ingest.replay_batch(bigint, text, boolean) to replay_test_clerk;
select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.seed_lines(),
                                      tests.manifest(:'source', tests.d(), 20, '4300.00')) \gset

set local session authorization replay_test_clerk;
select throws_ok(format('select * from ingest.replay_batch(%s, %L)', :batch_id, 'let me in'),
                 'IV401', null, 'A login that is not an operator is refused with IV401.');
reset session authorization;
select is_empty(format('select 1 from ingest.operator_action where batch_id = %s', :batch_id),
                'The refused replay records nothing.');

grant invoice_operator to replay_test_clerk;
set local session authorization replay_test_clerk;
select lives_ok(format('select * from ingest.replay_batch(%s, %L)', :batch_id, 'corrected manifest'),
                'The same login, made an operator, may replay.');
reset session authorization;
select is((select o.db_user from ingest.operator_action as o where o.batch_id = :batch_id),
          'replay_test_clerk', 'The action names the login that replayed.');

select * from finish();
rollback;
