-- ingest.is_iso_date: true when p is a real calendar date written exactly as
-- YYYY-MM-DD (year 0001-9999); NULL for NULL.  A cast to date would accept
-- 'today', 'infinity', '99999-01-01' and DateStyle-dependent forms, and
-- raise on '2024-02-30' instead of answering.  Plain string and integer
-- tests, no date arithmetic: it runs twice per record in validation.
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
    when p !~ '^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$' then false
    when substr(p, 1, 4) = '0000' then false
    when substr(p, 6, 2)::integer not between 1 and 12 then false
    -- every month has days 1 to 28: most dates stop here
    when substr(p, 9, 2)::integer between 1 and 28 then true
    else substr(p, 9, 2)::integer between 1 and
         case when substr(p, 6, 2) in ('04', '06', '09', '11') then 30
              when substr(p, 6, 2) <> '02' then 31
              when substr(p, 1, 4)::integer % 4 = 0
                   and (substr(p, 1, 4)::integer % 100 <> 0 or substr(p, 1, 4)::integer % 400 = 0)
                then 29
              else 28 end
  end
$$;
comment on function ingest.is_iso_date(text) is 'True for a real calendar date written as YYYY-MM-DD.';
revoke all on function ingest.is_iso_date(text) from public;
