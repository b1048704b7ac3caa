# shellcheck shell=bash
# scripts/lib/bench_report.sh: what both benchmarks (bench.sh,
# bench-publish.sh) read and print the same way: the machine and server
# settings their figures were measured on, and a batch's step times from
# the database's own records.  Source it; needs psql reaching the
# benchmark's cluster (PG* set).

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

# step_times DB WHERE: "batch_id|state|copy_ms|validation_ms|publication_ms|attempt_ms"
# of the newest batch of ingest.batch_overview matching WHERE (an SQL
# condition, e.g. "sha256 = '...'"), from the database's own records: the
# checkpoint events (received->staged is the COPY, staged->validated the
# validation, validated->published the publication) and the attempts
# (first start to last finish).  The times users see in `status`.
step_times() {
  psql -X -qAt -v ON_ERROR_STOP=1 -d "$1" -c "
    with b as (select batch_id, state from ingest.batch_overview where $2
               order by batch_id desc limit 1),
    e as (select max(e.at) filter (where e.to_state = 'received') as received,
                 max(e.at) filter (where e.to_state = 'staged') as staged,
                 max(e.at) filter (where e.to_state = 'validated') as validated,
                 max(e.at) filter (where e.to_state = 'published') as published
          from ingest.batch_event_overview as e join b using (batch_id)),
    a as (select min(a.started_at) as started, max(a.finished_at) as finished
          from ingest.attempt_overview as a join b using (batch_id))
    select b.batch_id, b.state,
           round(extract(epoch from e.staged - e.received) * 1000, 1),
           round(extract(epoch from e.validated - e.staged) * 1000, 1),
           round(extract(epoch from e.published - e.validated) * 1000, 1),
           round(extract(epoch from a.finished - a.started) * 1000, 1)
    from b, e, a"
}
