-- bench/readers/keys.sql: public.bench_reader_key, :n invoice numbers of
-- :source that reporting.invoice shows (bench/history/sample_keys.sql's
-- sample), numbered 1..n, readable by invoice_reader: the keys pgbench's
-- readers pick at random (pgbench has no strings of its own). Benchmark
-- scaffolding in a throwaway copy of the template, not product schema.
-- Variables: source, n.
create table public.bench_reader_key as
select (row_number() over (order by md5(invoice_number)))::integer as i, invoice_number
from reporting.invoice
where source = :'source'
order by md5(invoice_number)
limit :n;
alter table public.bench_reader_key add primary key (i);
analyze public.bench_reader_key;
grant usage on schema public to invoice_reader;
grant select on public.bench_reader_key to invoice_reader;
select count(*) from public.bench_reader_key;
