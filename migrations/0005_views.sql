-- 0005: what consumers and operators read (docs/reference/database.md).
set local role invoice_owner;

create view reporting.invoice as
select v.source, v.invoice_number, v.revision, v.document_type, v.customer_id,
       v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount,
       v.gross_amount, v.description, v.batch_id, v.published_at
from core.invoice_version as v
where v.is_current and v.status = 'ISSUED';
comment on view reporting.invoice is 'One row per current, non-void invoice.';

create view reporting.invoice_version as
select v.source, v.invoice_number, v.revision, v.status, v.document_type, v.customer_id,
       v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount,
       v.gross_amount, v.description, v.is_current, v.batch_id, v.published_at,
       v.superseded_by_batch_id, v.superseded_at
from core.invoice_version as v;
comment on view reporting.invoice_version is 'Every published version, with the batch that published it and the batch that superseded it (NULL while current).';

create view ingest.batch_overview as
select b.batch_id, b.source, b.business_date, b.sha256, b.state, b.record_count,
       b.control_total,
       (select count(*) from ingest.attempt as a where a.batch_id = b.batch_id)::integer as attempts,
       (select coalesce(a.message, '')
          from ingest.attempt as a
         where a.batch_id = b.batch_id and a.outcome in ('failed', 'quarantined', 'waiting')
         order by a.attempt_no desc limit 1) as last_error,
       b.created_at, b.updated_at,
       b.file_name, b.size_bytes, b.staged_count, b.accepted_count, b.rejected_count,
       b.merge_counts, b.published_at
from ingest.batch as b;
comment on view ingest.batch_overview is 'Batches with state, control totals, attempts and the last error.';

create view ingest.watermark as
select w.source, w.business_date, w.batch_id, w.advanced_at
from ingest.source_watermark as w;

create view ingest.notification as
select o.notification_id, o.batch_id, o.kind, o.dedupe_key, o.created_at,
       o.dispatched_at, o.state, o.payload
from ingest.outbox as o;

create view ingest.rejection as
select r.batch_id, r.record_no, r.invoice_number, r.rule, r.detail
from ingest.rejection_row as r;

create view ingest.attempt_overview as
select a.attempt_id, a.batch_id, a.attempt_no, a.run_id, a.host, a.pid, a.db_user,
       a.state_at_start, a.state_at_end, a.started_at, a.finished_at, a.outcome,
       a.error_class, a.sqlstate, a.message
from ingest.attempt as a;

grant select on reporting.invoice, reporting.invoice_version
  to invoice_reader, invoice_loader, invoice_operator;
grant select on ingest.batch_overview, ingest.watermark, ingest.notification,
                ingest.rejection, ingest.attempt_overview
  to invoice_loader, invoice_operator;

create view ingest.batch_event_overview as
select e.event_id, e.batch_id, e.attempt_id, e.from_state, e.to_state, e.at, e.db_user, e.detail
from ingest.batch_event as e;
grant select on ingest.batch_event_overview to invoice_loader, invoice_operator;
