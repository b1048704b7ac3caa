# shellcheck shell=bash
# scripts/lib/bench_report.sh: the header both benchmarks print (bench.sh,
# bench-publish.sh), so that their figures can be read against the machine
# and the server settings they were measured on.  Source it; needs psql
# reaching the benchmark's cluster (PG* set).

# report_machine LOAD_AT_START: "== machine" and "== PostgreSQL" sections;
# LOAD_AT_START is /proc/loadavg's first three fields when the run began.
report_machine() {
  local mem cpu
  mem=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
  cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
  echo "== machine"
  echo "nproc $(nproc), memory $mem${cpu:+, $cpu}"
  echo "load average (1, 5, 15 min): $1 at the start, $(cut -d" " -f1-3 /proc/loadavg) at the end"
  echo "== PostgreSQL"
  psql -X -qAt -v ON_ERROR_STOP=1 -d postgres -c "select split_part(version(), ' on ', 1)"
  psql -X -qAt -v ON_ERROR_STOP=1 -d postgres -F ' = ' -c "
    select name, current_setting(name)
    from pg_settings
    where name in ('shared_buffers', 'fsync', 'synchronous_commit', 'full_page_writes',
                   'wal_level', 'max_wal_size', 'work_mem', 'maintenance_work_mem',
                   'effective_cache_size', 'random_page_cost', 'jit', 'autovacuum',
                   'max_parallel_workers_per_gather')
    order by name" | paste -sd ',' | sed 's/,/, /g'
}
