-- 0041: four eyes.  A source may require that every batch be approved by
-- an operator before readers see it: the loader's run writes the batch
-- (ingest.write_batch) and stops, the batch stays listed in
-- ingest.pending_publication, marked as awaiting approval, and only
-- ingest.approve_batch publishes it (ingest.reject_batch quarantines it
-- and takes its written versions away).  For such a source the recovery
-- actions that change what readers see or may see (replay, revert,
-- revert to a date, period reopen) are first recorded as a request
-- (ingest.operator_action, action 'request') and take effect only when a
-- second, different login confirms it (ingest.confirm_action), which
-- ingest.confirmation records.
set local role invoice_owner;

alter table ingest.source add column require_approval boolean not null default false;
comment on column ingest.source.require_approval is
  'Every batch of the source waits, written and unseen, for an operator''s approve (or reject), and its replay, revert and period reopen need a second operator''s confirm (ingest.set_source_approval).';

alter table ingest.pending_publication
  add column awaits_approval boolean not null default false,
  add column approved_by_action bigint;
comment on column ingest.pending_publication.awaits_approval is
  'The source required approval when the batch was written: only ingest.approve_batch publishes it.';
comment on column ingest.pending_publication.approved_by_action is
  'The approve action (ingest.operator_action) that lets ingest.publish_batch publish it, set in the approving transaction.';

alter table ingest.operator_action
  add column requested_action text
    check (requested_action in ('replay', 'revert', 'revert_to_date', 'period_reopen')),
  add column to_date date,
  add column confirms_action bigint references ingest.operator_action,
  add column requested_by text;
comment on column ingest.operator_action.requested_action is
  'For a request: the action that waits for a second operator''s confirm (ingest.confirm_action).';
comment on column ingest.operator_action.to_date is
  'For a request of revert_to_date: the business date the source is to be undone to.';
comment on column ingest.operator_action.confirms_action is
  'For an action carried out by a confirm: the request it carries out (the requester is requested_by, the confirmer db_user).';
comment on column ingest.operator_action.requested_by is
  'For an action carried out by a confirm: the login that requested it.';
create index operator_action_confirms on ingest.operator_action (confirms_action)
  where confirms_action is not null;

alter table ingest.operator_action drop constraint operator_action_action_check;
alter table ingest.operator_action add constraint operator_action_action_check
  check (action in ('replay', 'revert', 'notification_resolve', 'period_close', 'period_reopen',
                    'approve', 'reject', 'request'));
alter table ingest.operator_action drop constraint operator_action_check;
alter table ingest.operator_action add constraint operator_action_check
  check (action in ('notification_resolve', 'period_close', 'period_reopen', 'request')
         or batch_id is not null);
alter table ingest.operator_action add constraint operator_action_request_check
  check ((action = 'request') = (requested_action is not null)
         and (action <> 'request' or source is not null));

-- A confirmation: which request, by whom, in which transaction (the
-- entry points it runs check that they run inside it).  At most one per
-- request; written only by ingest.confirm_action.
create table ingest.confirmation (
  request_action_id bigint primary key references ingest.operator_action,
  db_user           text not null default session_user,
  at                timestamptz not null default pg_catalog.clock_timestamp(),
  xact              bigint not null default pg_catalog.txid_current()
);
comment on table ingest.confirmation is
  'A request (ingest.operator_action, action request) confirmed by a second operator: who, when, and the transaction that carried it out.';
revoke all on ingest.confirmation from public;
grant select on ingest.confirmation to invoice_loader, invoice_operator;

create or replace view ingest.source_overview as
select s.source, s.policy, s.max_rejected_share, s.start_date, s.allow_unknown_columns,
       s.require_control_totals, s.created_at, s.updated_at, s.deadline, s.locked_through,
       s.format_version,
       (select f.format from ingest.source_format as f
        where f.source = s.source and f.version = s.format_version) as file_format,
       s.extract_kind, s.max_absent_share, s.require_approval
from ingest.source as s;
