-- ingest.resolve_notification: an operator settles an in_doubt e-mail
-- after checking the mailbox, as dispatched (never sent again) or pending
-- (claimable again); each resolution is an ingest.operator_action row
-- (notification_resolve, the notification, its batch, the reason,
-- session_user).  A row that is not in_doubt is refused with IV215, a row
-- whose dispatcher's session still holds it with IV218, an --as other than
-- dispatched/pending or an empty reason with IV308; nothing changes then.
begin;
select plan(11);

select tests.make_source('acme-erp', p_start_date => tests.d());
select batch_id as batch from tests.load_batch('acme-erp', tests.d(), tests.seed_lines()) \gset
insert into ingest.outbox (kind, dedupe_key, payload) values
  ('deadline_missed', 'test:arrived', '{}'), ('deadline_missed', 'test:lost', '{}');
select o.notification_id as published from ingest.outbox as o where o.batch_id = :batch \gset
select o.notification_id as arrived from ingest.outbox as o where o.dedupe_key = 'test:arrived' \gset
select o.notification_id as lost from ingest.outbox as o where o.dedupe_key = 'test:lost' \gset

-- A dispatcher claims all three, marks them in_doubt, and its session ends
-- (its advisory locks go with it).
select count(*) from ingest.claim_notifications(10, 'smtp dispatcher');
select ingest.mark_notification(n, 'in_doubt', null, null, 'smtp') from unnest(array[:published, :arrived, :lost]::bigint[]) as n;
select pg_catalog.pg_advisory_unlock_all();

set local role invoice_operator;
select results_eq(format($$ select r.state from ingest.resolve_notification(%s, 'dispatched', 'the message is in the mailbox') as r $$, :published),
                  $$ values ('dispatched'::text) $$, 'The operator resolves an in_doubt row as dispatched.');
select results_eq(format($$ select r.state from ingest.resolve_notification(%s, 'pending', 'not in the mailbox') as r $$, :lost),
                  $$ values ('pending'::text) $$, 'Or as pending.');
reset role;
select is((select (n.state, n.dispatched_at is not null)::text from ingest.notification as n
           where n.notification_id = :published), '(dispatched,t)', 'Dispatched, with the time.');
select is((select array_agg(n.dedupe_key || ' ' || n.state || ' ' || coalesce(n.not_before::text, '-')
                            order by n.notification_id)
           from ingest.notification as n where n.notification_id in (:arrived, :lost)),
          array['test:arrived in_doubt -', 'test:lost pending -'],
          'The pending one is claimable again at once; the other stays in_doubt.');
select is((select array_agg((a.action, a.notification_id, a.batch_id, a.reason, a.db_user)::text
                            order by a.action_id)
           from ingest.operator_action as a where a.action = 'notification_resolve'),
          array[format('(notification_resolve,%s,%s,"the message is in the mailbox",%s)', :published, :batch, session_user),
                format('(notification_resolve,%s,,"not in the mailbox",%s)', :lost, session_user)],
          'Each resolution is an operator action with the notification, its batch, the reason and session_user.');

set local role invoice_operator;
select throws_ok(format($$ select * from ingest.resolve_notification(%s, 'pending', 'again') $$, :published),
                 'IV215', null, 'A dispatched row is not resolved.');
select throws_ok(format($$ select * from ingest.resolve_notification(%s, 'pending', 'claimed') $$, :lost),
                 'IV215', null, 'A pending row is not resolved.');
select throws_ok(format($$ select * from ingest.resolve_notification(%s, 'failed', 'no') $$, :arrived),
                 'IV308', null, 'Only dispatched or pending.');
select throws_ok(format($$ select * from ingest.resolve_notification(%s, 'dispatched', '  ') $$, :arrived),
                 'IV308', null, 'A reason is required.');
reset role;
-- A dispatcher's live session (a second one, through dblink) holds the
-- claim of the in_doubt row.
select dblink.dblink_connect('dispatcher', tests.conninfo());
select format('select pg_advisory_lock(%s, %s)', k.key1, k.key2) as take_claim
from ingest.notification_lock_key(:arrived) as k \gset
select * from dblink.dblink('dispatcher', :'take_claim') as t(x text);
set local role invoice_operator;
select throws_ok(format($$ select * from ingest.resolve_notification(%s, 'dispatched', 'too early') $$, :arrived),
                 'IV218', null, 'A row a live dispatcher holds is not resolved.');
reset role;
select is((select (n.state, (select count(*) from ingest.operator_action as a where a.notification_id = n.notification_id))::text
           from ingest.notification as n where n.notification_id = :arrived),
          '(in_doubt,0)', 'The refused resolutions changed and recorded nothing.');
select dblink.dblink_disconnect('dispatcher');

select * from finish();
rollback;
