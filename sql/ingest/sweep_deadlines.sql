-- ingest.sweep_deadlines: part of ingest.sweep.  For every source with a
-- deadline, every business date D whose deadline (D+1 at the source's
-- deadline, UTC) has passed while D is not published gets one
-- deadline_missed notification, never two: its dedupe key is
-- 'deadline_missed:<source>:<D>' and the insert skips a key that exists
-- (concurrent sweeps included).  The dates looked at run from the day
-- after the watermark (or from the start date, or, for a source with
-- neither, from the UTC day it was registered) to the last date whose
-- deadline has passed.  A date published late keeps its notification (it
-- was true when written).  Payload: source, business_date, deadline (the
-- instant), watermark (the source's, at the time).
-- At most p_limit notifications per call; the caller repeats until 0.
-- Returns how many notifications it wrote.
-- Locks: none beyond the inserted rows.
-- Errors: IV308 p_limit not positive.
create or replace function ingest.sweep_deadlines(p_limit integer default 100)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_now timestamp := pg_catalog.now() at time zone 'UTC';
  v_n   integer;
begin
  if p_limit is null or p_limit < 1 then
    raise exception 'the limit must be positive, not %', coalesce(p_limit::text, 'NULL')
      using errcode = 'IV308';
  end if;
  with missed as (
    select s.source, d.day::date as business_date,
           ((d.day::date + 1) + s.deadline) at time zone 'UTC' as deadline,
           w.business_date as watermark
    from ingest.source as s
    left join ingest.source_watermark as w on w.source = s.source
    cross join lateral pg_catalog.generate_series(
             coalesce(w.business_date + 1, s.start_date,
                      (s.created_at at time zone 'UTC')::date)::timestamp,
             ((v_now - s.deadline::interval)::date - 1)::timestamp,
             interval '1 day') as d(day)
    where s.deadline is not null
      and not exists (select from ingest.batch as b
                      where b.source = s.source and b.business_date = d.day::date
                        and b.state = 'published')
      and not exists (select from ingest.outbox as o
                      where o.dedupe_key = 'deadline_missed:' || s.source || ':'
                                           || pg_catalog.to_char(d.day, 'YYYY-MM-DD'))
    order by s.source, d.day
    limit p_limit),
  written as (
    -- the one outbox writer (its pg_notify payload names each row)
    select ingest.write_notification(
             null, 'deadline_missed',
             pg_catalog.jsonb_build_object('source', m.source, 'business_date', m.business_date,
                                           'deadline', m.deadline, 'watermark', m.watermark),
             'deadline_missed:' || m.source || ':'
               || pg_catalog.to_char(m.business_date, 'YYYY-MM-DD')) as notification_id
    from missed as m)
  select count(*) into v_n from written;
  return v_n;
end;
$$;
comment on function ingest.sweep_deadlines(integer) is
  E'Sweep part: one deadline_missed notification per source and business date past its deadline unpublished.\nErrors: IV308 limit not positive.';
revoke all on function ingest.sweep_deadlines(integer) from public;
grant execute on function ingest.sweep_deadlines(integer) to invoice_loader, invoice_operator;
