-- EXECUTE on ingest's functions, role by role (docs/reference/database.md):
-- invoice_loader runs get_source, begin_attempt, resume_attempt, mark_staged,
-- typed_staging, analyze_staging, validate_batch, publish_batch, finish_attempt,
-- status_report, the dispatcher's claim_notifications and
-- mark_notification, and the sweep with its parts;
-- invoice_operator runs add_source, get_source, status_report, replay_batch
-- revert_batch, resolve_notification and the four-eyes entry points
-- set_source_approval, approve_batch, reject_batch and confirm_action
-- (the loader runs no operator
-- function), and the sweep with its parts;
-- invoice_reader runs none of ingest's (reporting.invoice_as_of and
-- reporting.invoice_as_of_batch, granted to all three, are checked in
-- reporting.invoice_as_of); nobody runs the internal steps directly.
begin;
select plan(159);

with f(name, args, loader, operator) as (values
  ('add_source', array['text', 'text', 'numeric', 'date', 'text', 'boolean', 'time without time zone',
                       'integer', 'bigint', 'bigint'], false, true),
  ('get_source', array['text'], true, true),
  ('begin_attempt', array['jsonb'], true, false),
  ('resume_attempt', array['bigint', 'text'], true, false),
  ('mark_staged', array['bigint', 'bigint', 'bigint', 'bigint'], true, false),
  ('validate_batch', array['bigint', 'bigint'], true, false),
  ('publish_batch', array['bigint', 'bigint'], true, false),
  ('finish_attempt', array['bigint', 'text', 'text', 'text', 'text'], true, false),
  ('status_report', array['text', 'bigint', 'integer', 'text', 'date'], true, true),
  ('transition', array['bigint', 'text', 'text', 'bigint', 'jsonb'], false, false),
  ('quarantine_batch', array['bigint', 'text', 'bigint', 'jsonb'], false, false),
  ('parse_manifest', array['text', 'bigint', 'text', 'boolean', 'text', 'date', 'text'], false, false),
  ('is_iso_date', array['text'], false, false),
  ('analyze_staging', array['text', 'bigint'], true, false),
  ('typed_staging', array['bigint', 'boolean'], true, false),
  ('typed_staging_partition', array['bigint'], false, false),
  ('drop_typed_staging', array['regclass'], false, false),
  ('restage_lost_batch', array['bigint', 'text', 'bigint'], false, false),
  ('failing_records', array['bigint', 'date'], false, false),
  ('staged_totals', array['bigint'], false, false),
  ('merge_accounted', array['bigint'], false, false),
  ('revision_conflicts', array['bigint'], false, false),
  ('is_plain_decimal', array['text'], false, false),
  ('reject_revision_conflicts', array['bigint', 'text', 'boolean', 'text', 'text'], false, false),
  ('key_history', array['bigint', 'text', 'text', 'text', 'boolean'], false, false),
  ('replay_batch', array['bigint', 'text', 'boolean'], false, true),
  ('set_source_extract', array['text', 'text', 'numeric'], false, true),
  ('revert_batch', array['bigint', 'text'], false, true),
  ('consume_replay', array['bigint', 'bigint', 'jsonb', 'integer', 'numeric'], false, false),
  ('require_operator', array['text'], false, false),
  ('guard_operator_action', '{}'::text[], false, false),
  ('number_outbox_round', '{}'::text[], false, false),
  ('claim_notifications', array['integer', 'text'], true, false),
  ('mark_notification', array['bigint', 'text', 'integer', 'text', 'text', 'text', 'interval'],
   true, false),
  ('sweep', array['interval', 'integer', 'integer'], true, true),
  ('sweep_abandoned_attempts', '{}'::text[], true, true),
  ('sweep_orphan_received', array['interval', 'integer'], true, true),
  ('sweep_publish_ready', array['uuid', 'bigint[]'], true, true),
  ('sweep_deadlines', array['integer'], true, true),
  ('sweep_retention', array['integer'], true, true),
  ('sweep_typed_staging', '{}'::text[], true, true),
  ('sweep_cron_history', array['integer'], true, true),
  ('runner_lock_key', array['text', 'date'], false, false),
  ('notification_lock_key', array['bigint'], false, false),
  ('publication_lock_key', array['text'], false, false),
  ('try_runner_xact_lock', array['text', 'date'], false, false),
  ('resolve_notification', array['bigint', 'text', 'text'], false, true),
  ('set_source_approval', array['text', 'boolean'], false, true),
  ('approve_batch', array['bigint', 'text'], false, true),
  ('reject_batch', array['bigint', 'text'], false, true),
  ('confirm_action', array['bigint'], false, true),
  ('request_confirmation', array['text', 'text', 'bigint', 'date', 'text'], false, false),
  ('require_awaiting_approval', array['bigint'], false, false)),
r(role, granted) as (values ('invoice_loader', 1), ('invoice_operator', 2), ('invoice_reader', 3))
select function_privs_are('ingest', f.name, f.args, r.role,
         case when (r.granted = 1 and f.loader) or (r.granted = 2 and f.operator)
              then array['EXECUTE'] else '{}'::text[] end,
         format('%s %s execute ingest.%s.', r.role,
                case when (r.granted = 1 and f.loader) or (r.granted = 2 and f.operator)
                     then 'may' else 'may not' end, f.name))
from f cross join r
order by f.name, r.role;

select * from finish();
rollback;
