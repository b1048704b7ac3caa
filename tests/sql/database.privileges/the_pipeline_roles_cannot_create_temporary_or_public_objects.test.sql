-- The database after migrate: PUBLIC lost TEMP
-- and CREATE, so no pipeline role can create pg_temp objects that would
-- shadow names inside a SECURITY DEFINER function, nor objects in public.
begin;
select plan(6);

select throws_ok($$ set local role invoice_loader; create temp table t_hijack (x int) $$,
                 '42501', null, 'The loader cannot create temporary tables.');
select throws_ok($$ set local role invoice_operator; create temp table t_hijack (x int) $$,
                 '42501', null, 'The operator cannot create temporary tables.');
select throws_ok($$ set local role invoice_reader; create temp table t_hijack (x int) $$,
                 '42501', null, 'The reader cannot create temporary tables.');
select throws_ok($$ set local role invoice_loader; create table public.t_hijack (x int) $$,
                 '42501', null, 'The loader cannot create objects in public.');
select ok(not has_database_privilege('public', current_database(), 'CONNECT'),
          'PUBLIC cannot connect to the database.');
select ok(has_database_privilege('invoice_loader', current_database(), 'CONNECT'),
          'The loader can connect.');

select * from finish();
rollback;
