-- bench/load/text_table.sql: the baselines' target, a logged table
-- bench_text with one text column per column of the CSV header :header
-- (comma-separated; the harness checks the names are plain identifiers).
-- Variables: header.
select format('create table bench_text (%s)',
              string_agg(format('%I text', h.col), ', ' order by h.n))
from unnest(string_to_array(:'header', ',')) with ordinality as h(col, n)
\gexec
