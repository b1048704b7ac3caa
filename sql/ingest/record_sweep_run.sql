-- ingest.record_sweep_run: the end of a CALL ingest.sweep(), recorded in
-- ingest.sweep_run (one row: the latest run, the counts).  p_failed_part
-- NULL: every part succeeded.
-- Called by ingest.sweep, a SECURITY INVOKER procedure, so the roles that
-- may run the sweep may execute it; SECURITY DEFINER, so they need no
-- write right on the table.
-- Errors: none.
create or replace function ingest.record_sweep_run(
  p_started_at  timestamptz,
  p_failed_part text,
  p_error       text)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into ingest.sweep_run as r (last_started_at, last_finished_at, last_outcome,
                                     last_failed_part, last_error, last_succeeded_at,
                                     runs, failed_runs)
  select p_started_at, t.at,
         case when p_failed_part is null then 'succeeded' else 'failed' end,
         p_failed_part, ingest.printable(pg_catalog.left(p_error, 500)),
         case when p_failed_part is null then t.at end,
         1, case when p_failed_part is null then 0 else 1 end
  from (select pg_catalog.clock_timestamp() as at) as t
  on conflict (singleton) do update
     set last_started_at = excluded.last_started_at,
         last_finished_at = excluded.last_finished_at,
         last_outcome = excluded.last_outcome,
         last_failed_part = excluded.last_failed_part,
         last_error = excluded.last_error,
         last_succeeded_at = coalesce(excluded.last_succeeded_at, r.last_succeeded_at),
         runs = r.runs + 1,
         failed_runs = r.failed_runs + excluded.failed_runs
$$;
comment on function ingest.record_sweep_run(timestamptz, text, text) is
  'Record the end of a sweep run in ingest.sweep_run.';
revoke all on function ingest.record_sweep_run(timestamptz, text, text) from public;
grant execute on function ingest.record_sweep_run(timestamptz, text, text)
  to invoice_loader, invoice_operator;
