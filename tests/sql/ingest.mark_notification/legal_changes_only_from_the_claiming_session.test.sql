-- ingest.mark_notification: a claimed pending row becomes dispatched,
-- pending (claimable again, not before p_retry_after) or failed, and the
-- claim ends; in_doubt (an e-mail about to be sent) keeps the claim so the
-- same session marks it dispatched after the server's 250; a row whose
-- claim ended with its session stays in_doubt (IV216) and is never claimed
-- again.  A row this session did not claim: IV216.  A dispatched or failed
-- row changes no more (IV215), but the same mark again is a no-op.
begin;
select plan(17);

insert into ingest.outbox (kind, dedupe_key, payload)
select 'deadline_missed', 'test:' || i, '{}' from pg_catalog.generate_series(1, 6) as i;
select pg_catalog.jsonb_object_agg(substr(o.dedupe_key, 6), o.notification_id) as ids
from ingest.outbox as o where o.dedupe_key like 'test:%' \gset
create temporary table ids as select (:'ids'::jsonb ->> k)::bigint as id, k from unnest(array['1','2','3','4','5','6']) as k;

set local role invoice_loader;
select count(*) from ingest.claim_notifications(5, 'me');
reset role;

-- 1: dispatched
select is(ingest.mark_notification((select id from ids where k = '1'), 'dispatched', 200, null, 'webhook', 'ok'),
          'dispatched', 'A claimed row is marked dispatched.');
select is((select (n.state, n.last_status, n.sink, n.dispatched_at is not null)::text
           from ingest.notification as n where n.notification_id = (select id from ids where k = '1')),
          '(dispatched,200,webhook,t)', 'With the status, the sink and the time.');
select is(ingest.mark_notification((select id from ids where k = '1'), 'dispatched', 200),
          'dispatched', 'Marking it dispatched again changes nothing.');
select throws_ok(format($$ select ingest.mark_notification(%s, 'pending') $$, (select id from ids where k = '1')),
                 'IV215', null, 'A dispatched row cannot become pending.');

-- 2: in_doubt before sending, dispatched after
select is(ingest.mark_notification((select id from ids where k = '2'), 'in_doubt', null, null, 'smtp'),
          'in_doubt', 'An e-mail is marked in_doubt before it is sent.');
select is((select count(*)::integer from ingest.claim_notifications(10, 'me') as c
           where c.dedupe_key = 'test:2'), 0, 'An in_doubt row is not claimed again.');
select is(ingest.mark_notification((select id from ids where k = '2'), 'dispatched', 250),
          'dispatched', 'The session that marked it in_doubt marks it dispatched after the 250.');

-- 3: failed, the response's first bytes without control characters
select is(ingest.mark_notification((select id from ids where k = '3'), 'failed', 400, 'HTTP 400',
                                   'webhook', E'bad\x1b[31m request\n'),
          'failed', 'A 400 marks the row failed.');
select is((select (n.last_status, n.last_error, n.response_head)::text from ingest.notification as n
           where n.notification_id = (select id from ids where k = '3')),
          '(400,"HTTP 400","bad [31m request ")', 'The status, the error and the response, control characters replaced.');
select throws_ok(format($$ select ingest.mark_notification(%s, 'dispatched') $$, (select id from ids where k = '3')),
                 'IV215', null, 'A failed row cannot become dispatched.');

-- 4: pending again, not before an hour
select is(ingest.mark_notification((select id from ids where k = '4'), 'pending', 503, 'HTTP 503',
                                   'webhook', null, interval '1 hour'),
          'pending', 'A 503 after the retry budget leaves the row pending.');
select ok(not exists (select from pg_catalog.pg_locks as l, ingest.notification_lock_key((select id from ids where k = '4')) as k
                      where l.locktype = 'advisory' and l.objid = k.key2::oid and l.classid = k.key1::oid),
          'Its claim is released.');
select is_empty($$ select * from ingest.claim_notifications(10, 'me') $$,
                'It is not claimed again before its retry time.');

-- 5: in_doubt, then the session is gone (its advisory locks with it)
select ingest.mark_notification((select id from ids where k = '5'), 'in_doubt');
select pg_catalog.pg_advisory_unlock_all();
select throws_ok(format($$ select ingest.mark_notification(%s, 'dispatched', 250) $$, (select id from ids where k = '5')),
                 'IV216', null, 'After its session is gone, an in_doubt row is not marked by another one.');
select is((select n.state from ingest.notification as n where n.notification_id = (select id from ids where k = '5')),
          'in_doubt', 'It stays in_doubt: an operator resolves it.');

-- 7: never claimed by this session
insert into ingest.outbox (kind, dedupe_key, payload) values ('deadline_missed', 'test:7', '{}');
insert into ids select o.notification_id, '7' from ingest.outbox as o where o.dedupe_key = 'test:7';
select throws_ok(format($$ select ingest.mark_notification(%s, 'dispatched', 200) $$, (select id from ids where k = '7')),
                 'IV216', null, 'A row this session did not claim cannot be marked.');
select throws_ok($$ select ingest.mark_notification(-1, 'dispatched') $$, 'IV217', null,
                 'An unknown notification raises IV217.');

select * from finish();
rollback;
