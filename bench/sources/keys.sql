-- bench/sources/keys.sql: benchmark scaffolding in the template of the
-- sources benchmark (harness/sources.py), not product schema:
--   public.bench_reader_key  every invoice reporting.invoice shows (the
--     sources' day before), numbered 1..n, for the readers
--     (lookup.pgbench) to draw from, readable by invoice_reader;
--   public.bench_lock_wait   the lock-wait samples (sample_waits.pgbench).
create table public.bench_reader_key as
select (row_number() over (order by source, invoice_number))::integer as i,
       source, invoice_number
from reporting.invoice;
alter table public.bench_reader_key add primary key (i);
grant usage on schema public to invoice_reader;
grant select on public.bench_reader_key to invoice_reader;
create table public.bench_lock_wait (
  at      timestamptz not null default clock_timestamp(),
  waiter  text not null,
  blocker text not null,
  lock    text not null
);
