-- The entry points the loader and the operator call are SECURITY DEFINER;
-- the internal steps (transition, quarantine_batch, parse_manifest,
-- is_iso_date, is_plain_decimal, restage_lost_batch, failing_records,
-- staged_totals, merge_accounted, reject_revision_conflicts,
-- revision_conflicts, key_history, consume_replay, require_operator, the
-- trigger functions guard_operator_action and number_outbox_round, the
-- lock keys and try_runner_xact_lock),
-- status_report (which reads the operator views with the caller's rights),
-- sweep_cron_history (pg_cron's row security must see the caller) and the
-- sweep procedure (PostgreSQL allows COMMIT only in an invoker procedure
-- without SET clauses) are not.  The operator's replay_batch and
-- revert_batch and resolve_notification are definers too (they check
-- session_user themselves).
begin;
select plan(47);

select is_definer('ingest', f.name, f.args,
                  format('ingest.%s runs with its owner''s rights.', f.name))
from (values ('add_source', array['text', 'text', 'numeric', 'date', 'text', 'boolean',
                                  'time without time zone', 'integer', 'bigint', 'bigint']),
             ('get_source', array['text']),
             ('begin_attempt', array['jsonb']),
             ('resume_attempt', array['bigint', 'text']),
             ('mark_staged', array['bigint', 'bigint', 'bigint', 'bigint']),
             ('validate_batch', array['bigint', 'bigint']),
             ('publish_batch', array['bigint', 'bigint']),
             ('finish_attempt', array['bigint', 'text', 'text', 'text', 'text']),
             ('analyze_staging', array['text', 'bigint']),
             ('typed_staging', array['bigint', 'boolean']),
             ('replay_batch', array['bigint', 'text', 'boolean']),
             ('set_source_extract', array['text', 'text', 'numeric']),
             ('revert_batch', array['bigint', 'text']),
             ('claim_notifications', array['integer', 'text']),
             ('mark_notification', array['bigint', 'text', 'integer', 'text', 'text', 'text',
                                         'interval']),
             ('sweep_abandoned_attempts', '{}'::text[]),
             ('sweep_orphan_received', array['interval', 'integer']),
             ('sweep_publish_ready', array['uuid', 'bigint[]']),
             ('sweep_deadlines', array['integer']),
             ('sweep_retention', array['integer']),
             ('sweep_typed_staging', '{}'::text[]),
             ('resolve_notification', array['bigint', 'text', 'text'])) as f(name, args);

select isnt_definer('ingest', f.name, f.args,
                    format('ingest.%s runs with its caller''s rights.', f.name))
from (values ('transition', array['bigint', 'text', 'text', 'bigint', 'jsonb']),
             ('quarantine_batch', array['bigint', 'text', 'bigint', 'jsonb']),
             ('parse_manifest', array['text', 'bigint', 'text', 'boolean', 'text', 'date', 'text']),
             ('is_iso_date', array['text']),
             ('is_plain_decimal', array['text']),
             ('restage_lost_batch', array['bigint', 'text', 'bigint']),
             ('failing_records', array['bigint', 'date']),
             ('staged_totals', array['bigint']),
             ('merge_accounted', array['bigint']),
             ('revision_conflicts', array['bigint']),
             ('reject_revision_conflicts', array['bigint', 'text', 'boolean', 'text', 'text']),
             ('key_history', array['bigint', 'text', 'text', 'text', 'boolean']),
             ('status_report', array['text', 'bigint', 'integer', 'text', 'date']),
             ('consume_replay', array['bigint', 'bigint', 'jsonb', 'integer', 'numeric']),
             ('require_operator', array['text']),
             ('guard_operator_action', '{}'::text[]),
             ('number_outbox_round', '{}'::text[]),
             ('sweep_cron_history', array['integer']),
             ('sweep', array['interval', 'integer', 'integer']),
             ('runner_lock_key', array['text', 'date']),
             ('notification_lock_key', array['bigint']),
             ('publication_lock_key', array['text']),
             ('try_runner_xact_lock', array['text', 'date']),
             ('typed_staging_partition', array['bigint']),
             ('drop_typed_staging', array['regclass'])) as f(name, args);

select * from finish();
rollback;
