-- bench/load/count_text.sql: the rows a baseline loaded into bench_text
-- (pgloader exits 0 even when it rejects rows, hence the count).
select count(*) from bench_text;
