-- Two dispatchers at once (two dblink sessions; the fixture is committed,
-- its dedupe keys 'test-two:*', and deleted at the end): while the first's
-- claiming transaction is open, the second skips its locked rows (SKIP
-- LOCKED) and claims the others; after the first commits, its claims (its
-- session's advisory locks) keep the second off its rows; when the first
-- session ends without marking, its rows are claimable again, and the
-- second claims them.  Every row is claimed by exactly one live session.
begin;
select plan(6);

select dblink.dblink_connect('setup', tests.conninfo());
select dblink.dblink_exec('setup', $$ delete from ingest.outbox where dedupe_key like 'test-two:%' $$);
select dblink.dblink_exec('setup', $$
  insert into ingest.outbox (kind, dedupe_key, payload)
  select 'deadline_missed', 'test-two:' || i, '{}' from generate_series(1, 5) as i $$);
select dblink.dblink_connect('a', tests.conninfo());
select dblink.dblink_connect('b', tests.conninfo());

select dblink.dblink_exec('a', 'begin');
select is((select array_agg(t.k order by t.k) from dblink.dblink('a',
             $$ select dedupe_key from ingest.claim_notifications(2, 'a') $$) as t(k text)),
          array['test-two:1', 'test-two:2'], 'The first dispatcher claims the two oldest rows.');
select is((select array_agg(t.k order by t.k) from dblink.dblink('b',
             $$ select dedupe_key from ingest.claim_notifications(10, 'b') $$) as t(k text)),
          array['test-two:3', 'test-two:4', 'test-two:5'],
          'While its transaction is open, the second skips them and claims the rest.');
select dblink.dblink_exec('a', 'commit');
select is((select count(*)::integer from dblink.dblink('b',
             $$ select dedupe_key from ingest.claim_notifications(10, 'b') $$) as t(k text)), 0,
          'After the first commits, its claims still keep the second off its rows.');
select is((select t.state from dblink.dblink('b', $$
             select ingest.mark_notification(o.notification_id, 'dispatched', 200, null, 'webhook')
             from ingest.outbox as o where o.dedupe_key = 'test-two:3' $$) as t(state text)),
          'dispatched', 'The second marks one of its own rows dispatched.');

-- The first dispatcher's session ends without marking its rows.  Its
-- advisory locks go when its backend has exited, which follows the
-- disconnect a moment later (under load, after the next claim): wait for
-- it, at most 10 s.
select pid as a_pid from dblink.dblink('a', 'select pg_backend_pid()') as t(pid integer) \gset
select set_config('t.a_pid', :'a_pid', true) is not null as a_pid_set \gset
select dblink.dblink_disconnect('a');
do $$
begin
  for i in 1..1000 loop
    perform pg_catalog.pg_stat_clear_snapshot();
    exit when not exists (select from pg_catalog.pg_stat_activity
                          where pid = current_setting('t.a_pid')::integer);
    perform pg_catalog.pg_sleep(0.01);
  end loop;
end
$$;
select is((select array_agg(t.k order by t.k) from dblink.dblink('b',
             $$ select dedupe_key from ingest.claim_notifications(10, 'b') $$) as t(k text)),
          array['test-two:1', 'test-two:2'],
          'The rows of a dispatcher whose session is gone are claimed again, with no timeout.');
select is((select array_agg(t.k || ' ' || t.tries || ' ' || t.by order by t.k) from dblink.dblink('setup', $$
             select dedupe_key, tries, claimed_by from ingest.outbox where dedupe_key like 'test-two:%' $$)
             as t(k text, tries integer, by text)),
          array['test-two:1 2 b', 'test-two:2 2 b', 'test-two:3 1 b', 'test-two:4 1 b', 'test-two:5 1 b'],
          'Two tries for the rows claimed twice, one for the rest.');

select dblink.dblink_disconnect('b');
select dblink.dblink_exec('setup', $$ delete from ingest.outbox where dedupe_key like 'test-two:%' $$);
select dblink.dblink_disconnect('setup');

select * from finish();
rollback;
