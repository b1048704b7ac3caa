-- ingest.operator_action is append-only: the loader and the operator may
-- only read it and the reader not even that (no INSERT, UPDATE, DELETE or
-- TRUNCATE grant to anyone but the owner), and even the owner's UPDATE,
-- DELETE and TRUNCATE are refused by its trigger with IV212; the row stays.
begin;
select plan(9);

select table_privs_are('ingest', 'operator_action', 'invoice_loader', array['SELECT'],
                       'invoice_loader may only read operator actions.');
select table_privs_are('ingest', 'operator_action', 'invoice_operator', array['SELECT'],
                       'invoice_operator may only read operator actions.');
select table_privs_are('ingest', 'operator_action', 'invoice_reader', '{}'::text[],
                       'invoice_reader has no right on operator actions.');

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.seed_lines()) \gset
select tests.revert(:batch_id, 'wrong file') as action_id \gset

set local role invoice_operator;
select throws_ok(format('update ingest.operator_action set reason = %L where action_id = %s', 'nothing', :action_id),
                 '42501', null, 'The operator cannot rewrite an action.');
reset role;
set local role invoice_owner;
select throws_ok(format('update ingest.operator_action set reason = %L where action_id = %s', 'nothing', :action_id),
                 'IV212', null, 'Not even the owner can update an action.');
select throws_ok(format('delete from ingest.operator_action where action_id = %s', :action_id),
                 'IV212', null, 'Nor delete one.');
select throws_ok('truncate ingest.operator_action cascade', 'IV212', null, 'Nor truncate them.');
reset role;
select throws_ok(format('delete from ingest.operator_action where action_id = %s', :action_id),
                 'IV212', null, 'The trigger refuses a superuser''s delete too.');
select is((select o.reason from ingest.operator_action as o where o.action_id = :action_id), 'wrong file',
          'The action is as it was recorded.');

select * from finish();
rollback;
