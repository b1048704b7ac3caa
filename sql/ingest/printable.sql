-- ingest.printable: text from a supplier's file or manifest made safe to
-- store in a rejection and to print: every control character (C0, DEL,
-- C1) is written as \xNN (\u00NN for C1), so a value can neither forge a
-- log line nor send terminal escape sequences (rejected bytes come from
-- anyone who can drop a file).  Text without control characters comes back
-- as it is, without being split.
-- Helper, immutable; no EXECUTE grants (the definer entry points call it).
-- Errors: none.
create or replace function ingest.printable(p_text text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
           when p_text is null or p_text !~ '[\x01-\x1f\x7f-\x9f]' then p_text
           else (select pg_catalog.string_agg(
                          case when pg_catalog.ascii(t.c) < 32 or pg_catalog.ascii(t.c) = 127
                               then '\x' || pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.ascii(t.c)), 2, '0')
                               when pg_catalog.ascii(t.c) between 128 and 159
                               then '\u00' || pg_catalog.to_hex(pg_catalog.ascii(t.c))
                               else t.c end,
                          '' order by t.i)
                 from pg_catalog.regexp_split_to_table(p_text, '') with ordinality as t(c, i))
         end
$$;
comment on function ingest.printable(text) is
  E'Control characters of a supplier''s text written as \\xNN, for rejections and output.\nErrors: none.';
revoke all on function ingest.printable(text) from public;
