-- ingest.revert_batch from a login holding only invoice_loader is refused
-- (42501: no EXECUTE; exit 77); a login with EXECUTE but not a member of
-- invoice_operator gets IV401 (session_user is checked, not the definer).
-- Neither changes anything.
begin;
select plan(4);

create role revert_test_loader login in role invoice_loader;
create role revert_test_clerk login;
grant usage on schema ingest to revert_test_clerk;
grant execute on function ingest.revert_batch(bigint, text) to revert_test_clerk;
select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.seed_lines()) \gset

set local session authorization revert_test_loader;
select throws_ok(format('select * from ingest.revert_batch(%s, %L)', :batch_id, 'oops'),
                 '42501', null, 'A login holding only invoice_loader cannot revert.');
reset session authorization;
set local session authorization revert_test_clerk;
select throws_ok(format('select * from ingest.revert_batch(%s, %L)', :batch_id, 'oops'),
                 'IV401', null, 'A login that is not an operator is refused with IV401.');
reset session authorization;

select is((select b.state from ingest.batch as b where b.batch_id = :batch_id), 'published',
          'The batch stays published.');
select is((select count(*)::integer from reporting.invoice as i where i.source = :'source'), 20,
          'Its invoices stay visible.');

select * from finish();
rollback;
