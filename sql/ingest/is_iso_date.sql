-- ingest.is_iso_date: true when p is a real calendar date written exactly as
-- YYYY-MM-DD (year 0001-9999); NULL for NULL.  A cast to date would accept
-- 'today', 'infinity', '99999-01-01' and DateStyle-dependent forms, and
-- raise on '2024-02-30' instead of answering.
-- Deliberately without SET search_path (it uses only pg_catalog built-ins,
-- which resolve first whatever the caller's path): a SET clause would stop
-- PostgreSQL from inlining it into validation, one call per row.
create or replace function ingest.is_iso_date(p text)
returns boolean
language sql
immutable
parallel safe
as $$
  select case
    when p is null then null
    when p !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' then false
    when substr(p, 1, 4)::integer < 1 then false
    when substr(p, 6, 2)::integer not between 1 and 12 then false
    else substr(p, 9, 2)::integer between 1 and
         extract(day from make_date(substr(p, 1, 4)::integer, substr(p, 6, 2)::integer, 1)
                          + interval '1 month - 1 day')::integer
  end
$$;
comment on function ingest.is_iso_date(text) is 'True for a real calendar date written as YYYY-MM-DD.';
revoke all on function ingest.is_iso_date(text) from public;
