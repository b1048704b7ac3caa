-- 0035: each run of ingest.sweep() leaves a mark.  A pg_cron job that
-- cannot connect fails before the sweep runs, in the cron database,
-- where the target database's status cannot read; so the sweep records its
-- own runs instead, and silence shows as a last successful run that stops
-- moving (status, and the metric invoice_loader_sweep_last_success_timestamp_seconds
-- an alert compares with the clock).  One row: the latest run and the
-- counts, not a history that would need its own retention.
set local role invoice_owner;

create table ingest.sweep_run (
  singleton         boolean primary key default true check (singleton),
  last_started_at   timestamptz not null,
  last_finished_at  timestamptz not null,
  last_outcome      text not null check (last_outcome in ('succeeded', 'failed')),
  last_failed_part  text,
  last_error        text,
  last_succeeded_at timestamptz,
  runs              bigint not null default 0,
  failed_runs       bigint not null default 0
);
comment on table ingest.sweep_run is
  'The latest CALL ingest.sweep() (by pg_cron or by hand) and how many ran and failed; one row, written at the end of each run by ingest.record_sweep_run.';

create view ingest.sweep_overview as
select r.last_started_at, r.last_finished_at, r.last_outcome, r.last_failed_part,
       r.last_error, r.last_succeeded_at, r.runs, r.failed_runs
from ingest.sweep_run as r;
grant select on ingest.sweep_overview to invoice_loader, invoice_operator;

-- Status reads the sources through this view: it gains each source's
-- deadline, so that the metrics can say when the next business date is
-- due (an alert compares that instant with the clock).
create or replace view ingest.source_overview as
select s.source, s.policy, s.max_rejected_share, s.start_date, s.allow_unknown_columns,
       s.require_control_totals, s.created_at, s.updated_at, s.deadline
from ingest.source as s;
