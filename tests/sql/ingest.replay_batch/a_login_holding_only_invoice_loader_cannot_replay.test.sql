-- ingest.replay_batch from a login role that holds only invoice_loader is
-- refused (42501: the loader has no EXECUTE on any operator function; the
-- loader maps it to exit 77) and changes nothing: no operator action, no
-- authorization, the batch stays quarantined.
begin;
select plan(4);

create role replay_test_loader login in role invoice_loader;
select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.seed_lines(),
                                      tests.manifest(:'source', tests.d(), 20, '4300.00')) \gset

set local session authorization replay_test_loader;
select throws_ok(format('select * from ingest.replay_batch(%s, %L)', :batch_id, 'let me in'),
                 '42501', null, 'A login holding only invoice_loader cannot replay a batch.');
reset session authorization;

select is_empty(format('select 1 from ingest.operator_action where batch_id = %s', :batch_id),
                'No operator action is recorded.');
select is_empty(format('select 1 from ingest.replay_authorization where batch_id = %s', :batch_id),
                'No authorization is left.');
select is((select b.state from ingest.batch as b where b.batch_id = :batch_id), 'quarantined',
          'The batch stays quarantined.');

select * from finish();
rollback;
