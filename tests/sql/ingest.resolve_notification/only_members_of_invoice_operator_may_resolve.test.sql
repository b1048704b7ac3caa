-- ingest.resolve_notification is an operator action: invoice_loader (a
-- dispatcher) has no EXECUTE on it (42501); a login that can execute it
-- without being a member of invoice_operator (a grant by mistake) is
-- refused with IV401, because the check is on session_user; nothing
-- changes, nothing is recorded.
begin;
select plan(4);

insert into ingest.outbox (kind, dedupe_key, payload, state, in_doubt_at)
values ('deadline_missed', 'test:doubt', '{}', 'in_doubt', pg_catalog.now());
select o.notification_id as id from ingest.outbox as o where o.dedupe_key = 'test:doubt' \gset

set local role invoice_loader;
select throws_ok(format($$ select * from ingest.resolve_notification(%s, 'dispatched', 'mine') $$, :id),
                 '42501', null, 'The loader''s role cannot resolve a notification.');
reset role;

create role resolve_test_clerk login;
grant usage on schema ingest to resolve_test_clerk;
grant execute on function ingest.resolve_notification(bigint, text, text) to resolve_test_clerk;
set local session authorization resolve_test_clerk;
select throws_ok(format($$ select * from ingest.resolve_notification(%s, 'dispatched', 'let me') $$, :id),
                 'IV401', null, 'A login that is not an operator is refused with IV401.');
reset session authorization;

select is((select n.state from ingest.notification as n where n.notification_id = :id), 'in_doubt',
          'The notification is still in_doubt.');
select is_empty(format($$ select from ingest.operator_action as a where a.notification_id = %s $$, :id),
                'Nothing is recorded.');

select * from finish();
rollback;
