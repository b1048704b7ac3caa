-- Two loads of a replayed batch at once (two dblink sessions, as the
-- loader role; committed fixture under a source of its own, purged at the
-- end): the first consumes the authorization in begin_attempt and holds the
-- runner lock; the second gets IV203 (another run holds the batch: exit 75)
-- and changes nothing; after the first has committed and gone, a third
-- load finds the batch received and consumes nothing.
begin;
select plan(5);

select dblink.dblink_connect('setup', tests.conninfo());
select * from dblink.dblink('setup', $$
  select b.batch_id
  from (select tests.make_source('replay-race-load') as source) as s,
       tests.load_batch(s.source, tests.d(), tests.seed_lines(),
                        tests.manifest(s.source, tests.d(), 20, '4300.00')) as b $$)
  as t(batch_id bigint) \gset
select * from dblink.dblink('setup', format('select tests.replay(%s)', :batch_id)) as t(action_id bigint);
-- (the set-up session holds the runner lock of its load until it leaves)
select dblink.dblink_disconnect('setup');
select tests.begin_args('replay-race-load', tests.d(), b.sha256, b.size_bytes, 'again.csv',
                        tests.columns(), tests.manifest('replay-race-load', tests.d(), 20, '4200.00'), 20)::text
         as args
from ingest.batch as b where b.batch_id = :batch_id \gset

select dblink.dblink_connect('first', tests.conninfo());
select dblink.dblink_connect('second', tests.conninfo());
select (select t.pid from dblink.dblink('first', 'select pg_backend_pid()') as t(pid integer)) as first_pid \gset
select dblink.dblink_exec('first', 'set role invoice_loader');
select dblink.dblink_exec('second', 'set role invoice_loader');
select dblink.dblink_exec('first', 'begin');
select is((select t.state from dblink.dblink('first', format(
             'select state from ingest.begin_attempt(%L)', :'args')) as t(state text)),
          'received', 'The first load consumes the replay (not committed yet).');
select throws_ok(format($$ select * from dblink.dblink('second', %L) as t(state text) $$,
                        format('select state from ingest.begin_attempt(%L)', :'args')),
                 'IV203', null, 'The second load is refused: another run holds the batch.');
select dblink.dblink_exec('first', 'commit');
select dblink.dblink_disconnect('first');
-- the first backend ends (and drops its runner lock) after the disconnect
-- returns: bounded wait (at most 200 x 50 ms) until its locks are gone
select set_config('test.first_pid', :'first_pid', true);
do $$
declare
  v_n integer := 0;
begin
  while exists (select from pg_locks where pid = current_setting('test.first_pid')::integer)
        and v_n < 200 loop
    perform pg_sleep(0.05);
    v_n := v_n + 1;
  end loop;
end
$$;

select is((select t.state from dblink.dblink('second', format(
             'select state from ingest.begin_attempt(%L)', :'args')) as t(state text)),
          'received', 'Once the first run is gone, a load finds the batch received.');
select is((select (b.replays, b.control_total)::text from ingest.batch as b where b.batch_id = :batch_id),
          '(1,4200.00)', 'One replay was consumed, with the corrected control total.');
select is((select count(*)::integer from ingest.replay_authorization as r
           where r.batch_id = :batch_id and r.consumed_at is not null), 1,
          'The authorization was consumed once.');

select dblink.dblink_disconnect('second');
select dblink.dblink_connect('setup', tests.conninfo());
select * from dblink.dblink('setup', $$ select tests.purge_source('replay-race-load')::text $$) as t(done text);
select dblink.dblink_disconnect('setup');

select * from finish();
rollback;
