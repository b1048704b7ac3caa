-- ingest.runner_lock_key gives the keys of the lock begin_attempt takes for
-- (source, business date), and ingest.try_runner_xact_lock refuses it while
-- any session holds that lock, this one included.
begin;
select plan(5);

select tests.make_source('acme-erp');
select batch_id as batch from tests.stage_batch('acme-erp', tests.d(), tests.seed_lines(), p_stage => false) \gset

select ok(exists (select from pg_catalog.pg_locks as l,
                              ingest.runner_lock_key('acme-erp', tests.d()) as k
                  where l.locktype = 'advisory' and l.pid = pg_catalog.pg_backend_pid()
                    and l.classid = k.key1::oid and l.objid = k.key2::oid and l.objsubid = 2),
          'The lock begin_attempt holds is the one runner_lock_key names.');
select is(ingest.try_runner_xact_lock('acme-erp', tests.d()), false,
          'While a session holds it (this one), the sweeps may not take it.');
select is(ingest.try_runner_xact_lock('acme-erp', tests.d() + 1), true,
          'The lock of another date is free.');
select pg_catalog.pg_advisory_unlock_all();
select is(ingest.try_runner_xact_lock('acme-erp', tests.d()), true,
          'Once the runner''s session lets go, a sweep takes it.');
select isnt((select k.key1 from ingest.runner_lock_key('acme-erp', tests.d()) as k),
            (select k.key1 from ingest.runner_lock_key('globex-erp', tests.d()) as k),
            'Two sources have different keys.');

select * from finish();
rollback;
