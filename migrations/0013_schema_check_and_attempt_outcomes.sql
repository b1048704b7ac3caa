-- 0013: what the loader's schema check and its signal handling need.
-- Every command but `migrate` compares the newest applied migration with
-- the newest one the binary carries, as the role it runs as: the loader and
-- operator roles read loader_meta.schema_migration (version numbers and
-- names only; nothing secret).  A run stopped by SIGTERM/SIGINT is recorded
-- as 'interrupted'; a run refused because another holds the batch, as
-- 'busy'.
grant usage on schema loader_meta to invoice_loader, invoice_operator;
grant select on loader_meta.schema_migration to invoice_loader, invoice_operator;

set local role invoice_owner;

alter table ingest.attempt drop constraint attempt_outcome_check;
alter table ingest.attempt add constraint attempt_outcome_check
  check (outcome in ('published', 'already_published', 'quarantined', 'waiting', 'failed',
                     'abandoned', 'interrupted', 'busy'));
comment on column ingest.attempt.outcome is
  'published, already_published, quarantined, waiting (for an earlier date), failed, abandoned (its process died), interrupted (SIGTERM/SIGINT), busy (another run held the batch).';

-- status grew filters (state, business dates since): the old signature goes.
drop function if exists ingest.status_report(text, bigint, integer);

-- What `status` reads of the sources (with the caller's rights, like the
-- other operator views): the configuration, never a secret.
create view ingest.source_overview as
select s.source, s.policy, s.max_rejected_share, s.start_date, s.allow_unknown_columns,
       s.require_control_totals, s.created_at, s.updated_at
from ingest.source as s;
comment on view ingest.source_overview is 'Registered sources and their settings, for status.';
grant select on ingest.source_overview to invoice_loader, invoice_operator;
