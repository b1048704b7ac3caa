-- ingest.sweep_cron_history: part of ingest.sweep.  When this database is
-- pg_cron's own (the extension is installed here), deletes the run history
-- (cron.job_run_details) older than p_keep_days of the invoice-loader
-- sweep jobs (job name 'invoice-loader sweep <db>'), which pg_cron keeps
-- forever; other jobs' history is left alone.  Without pg_cron here, or
-- without the caller's rights on the cron schema, it does nothing: pg_cron
-- is never required (`migrate` works without it).
-- Runs with the CALLER's rights, on purpose: pg_cron's row security shows a
-- role its own jobs only, so a job running as invoice_loader trims its own
-- history, and a superuser's job every sweep job's.
-- Returns the rows deleted (0 when there is nothing to do).
-- Errors: IV308 p_keep_days not positive.
create or replace function ingest.sweep_cron_history(p_keep_days integer default 7)
returns bigint
language plpgsql
set search_path = ''
as $$
declare
  v_n bigint;
begin
  if p_keep_days is null or p_keep_days < 1 then
    raise exception 'the history to keep must be at least one day, not %',
                    coalesce(p_keep_days::text, 'NULL')
      using errcode = 'IV308';
  end if;
  if not exists (select from pg_catalog.pg_extension as e where e.extname = 'pg_cron') then
    return 0;
  end if;
  if not pg_catalog.has_schema_privilege('cron', 'USAGE') then
    return 0;
  end if;
  if not pg_catalog.has_table_privilege('cron.job_run_details', 'DELETE')
     or not pg_catalog.has_table_privilege('cron.job', 'SELECT') then
    return 0;
  end if;
  -- Static SQL: PL/pgSQL resolves cron.* only when this statement first
  -- runs, which is after the check above.
  delete from cron.job_run_details as d
   where d.end_time < pg_catalog.now() - pg_catalog.make_interval(days => p_keep_days)
     and d.jobid in (select j.jobid from cron.job as j
                     where j.jobname like 'invoice-loader sweep %');
  get diagnostics v_n = row_count;
  return v_n;
end;
$$;
comment on function ingest.sweep_cron_history(integer) is
  E'Sweep part: trim pg_cron''s run history of the sweep jobs, when pg_cron is in this database.\nErrors: IV308 keep days not positive.';
revoke all on function ingest.sweep_cron_history(integer) from public;
grant execute on function ingest.sweep_cron_history(integer) to invoice_loader, invoice_operator;
