-- bench/report/server.sql: the server's version, then the settings the
-- figures depend on, one (name, value) row each.
select 'version', split_part(version(), ' on ', 1)
union all
(select name, current_setting(name)
 from pg_settings
 where name in ('shared_buffers', 'fsync', 'synchronous_commit', 'full_page_writes',
                'wal_level', 'max_wal_size', 'work_mem', 'maintenance_work_mem',
                'effective_cache_size', 'random_page_cost', 'jit', 'autovacuum',
                'max_parallel_workers_per_gather')
 order by name);
