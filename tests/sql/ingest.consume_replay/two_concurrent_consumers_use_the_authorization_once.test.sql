-- ingest.consume_replay under two concurrent sessions (dblink; the
-- fixture is committed, under a source of its own, and purged at the end):
-- the first consumes the authorization and holds the batch row; the second
-- waits for that lock, and once the first commits finds the authorization
-- used and the batch received, and changes nothing.  One authorization,
-- one consumer, one move back to received.
begin;
select plan(7);

select dblink.dblink_connect('setup', tests.conninfo());
select * from dblink.dblink('setup', $$
  select b.batch_id, tests.make_attempt(b.batch_id), tests.make_attempt(b.batch_id)
  from (select tests.make_source('replay-race') as source) as s,
       tests.load_batch(s.source, tests.d(), tests.seed_lines(),
                        tests.manifest(s.source, tests.d(), 20, '4300.00')) as b $$)
  as t(batch_id bigint, attempt_a bigint, attempt_b bigint) \gset
select * from dblink.dblink('setup', format('select tests.replay(%s)', :batch_id)) as t(action_id bigint);
select is((select b.state from ingest.batch as b where b.batch_id = :batch_id), 'quarantined',
          'The committed fixture: a quarantined batch with one unused authorization.');

select dblink.dblink_connect('a', tests.conninfo());
select dblink.dblink_connect('b', tests.conninfo());
select (select t.pid from dblink.dblink('b', 'select pg_backend_pid()') as t(pid integer)) as b_pid \gset

select dblink.dblink_exec('a', 'begin');
select is((select t.consumed from dblink.dblink('a', format(
             $$ select ingest.consume_replay(%s, %s, null, 20, 4200.00) $$, :batch_id, :attempt_a))
           as t(consumed boolean)), true,
          'The first session consumes the authorization (not committed yet).');

select dblink.dblink_send_query('b', format(
  $$ select ingest.consume_replay(%s, %s, null, 20, 4200.00) $$, :batch_id, :attempt_b));
-- bounded wait until the second session waits for the first
select ok(tests.wait_until_blocked(:b_pid),
            'The second session waits for the first one''s lock on the batch.');

select dblink.dblink_exec('a', 'commit');
select is((select t.consumed from dblink.dblink_get_result('b') as t(consumed boolean)), false,
          'After the first commits, the second finds the authorization used.');
select * from dblink.dblink_get_result('b') as t(consumed boolean);

select is((select a.consumed_by_attempt_id from ingest.replay_authorization as a
           where a.batch_id = :batch_id), :attempt_a::bigint,
          'The authorization was consumed by the first session''s attempt.');
select is((select (b.state, b.replays)::text from ingest.batch as b where b.batch_id = :batch_id),
          '(received,1)', 'The batch is received, one replay consumed.');
select is((select count(*)::integer from ingest.batch_event as e
           where e.batch_id = :batch_id and e.from_state = 'quarantined'), 1,
          'The batch moved back to received once.');

select dblink.dblink_disconnect('a');
select dblink.dblink_disconnect('b');
select * from dblink.dblink('setup', $$ select tests.purge_source('replay-race')::text $$) as t(done text);
select dblink.dblink_disconnect('setup');

select * from finish();
rollback;
