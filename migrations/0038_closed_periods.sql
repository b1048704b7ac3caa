-- 0038: closed periods.  Finance closes a month and its figures must not
-- change after that: a source's locked_through is the last invoice date of
-- its closed period.  A later batch's record dated on or before it (a new
-- invoice, an amendment or a VOID alike; an exact resend is no change) is
-- rejected (rule period.closed), and a revert that would change the period
-- is refused, until an operator reopens it.  Closing and reopening are
-- operator actions, kept in ingest.operator_action with the source and the
-- date.
set local role invoice_owner;

alter table ingest.source add column locked_through date;
comment on column ingest.source.locked_through is
  'The last invoice date of the source''s closed period (period close): records dated on or before it are refused (period.closed), and so is a revert that would change them; NULL: nothing is closed.';

alter table ingest.operator_action
  add column source text references ingest.source,
  add column period_through date;
comment on column ingest.operator_action.source is
  'For period_close and period_reopen: the source whose period changed.';
comment on column ingest.operator_action.period_through is
  'For period_close and period_reopen: the lock date the action set (NULL: the period reopened entirely).';
alter table ingest.operator_action drop constraint operator_action_action_check;
alter table ingest.operator_action add constraint operator_action_action_check
  check (action in ('replay', 'revert', 'notification_resolve', 'period_close', 'period_reopen'));
alter table ingest.operator_action drop constraint operator_action_check;
alter table ingest.operator_action add constraint operator_action_check
  check (action in ('notification_resolve', 'period_close', 'period_reopen') or batch_id is not null);
alter table ingest.operator_action add constraint operator_action_period_check
  check (action not in ('period_close', 'period_reopen') or source is not null);

create or replace view ingest.source_overview as
select s.source, s.policy, s.max_rejected_share, s.start_date, s.allow_unknown_columns,
       s.require_control_totals, s.created_at, s.updated_at, s.deadline, s.locked_through
from ingest.source as s;
