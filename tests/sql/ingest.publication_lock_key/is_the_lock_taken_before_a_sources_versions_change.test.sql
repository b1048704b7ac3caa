-- ingest.publication_lock_key gives the key of the advisory lock
-- ingest.lock_batch_for_publication takes (transaction level) before
-- write_batch, publish_batch or revert_batch changes a source's versions:
-- the lock that tests/e2e/sweep_lib.sh holds from outside.
begin;
select plan(3);

select tests.make_source('acme-erp');
select batch_id as batch from tests.stage_batch('acme-erp', tests.d(), tests.seed_lines(), p_stage => false) \gset

select is((select count(*)::integer from pg_catalog.pg_locks as l
           where l.locktype = 'advisory' and l.pid = pg_catalog.pg_backend_pid()
             and l.objsubid = 1),
          0, 'Before: this session holds no single-key advisory lock.');
select b.batch_id as locked from ingest.lock_batch_for_publication(:batch) as b \gset
select ok(exists (select from pg_catalog.pg_locks as l,
                              ingest.publication_lock_key('acme-erp') as k
                  where l.locktype = 'advisory' and l.pid = pg_catalog.pg_backend_pid()
                    and l.granted and l.mode = 'ExclusiveLock' and l.objsubid = 1
                    and l.classid = ((k >> 32) & 4294967295)::oid
                    and l.objid = (k & 4294967295)::oid),
          'The lock lock_batch_for_publication holds is the one publication_lock_key names.');
select isnt(ingest.publication_lock_key('acme-erp'), ingest.publication_lock_key('globex-erp'),
            'Two sources have different keys.');

select * from finish();
rollback;
