-- 0042: the columns a file has beyond the contract's, kept.  A source that
-- allows unknown columns (source add --allow-unknown-columns) used to read
-- past them; a cost centre or an order reference delivered with each
-- invoice was lost.  Each record's unknown columns now travel with it, as
-- a JSON object from the delivered column name to its value as delivered
-- (null for an empty field), into the version it becomes, and readers see
-- them in reporting.invoice_version.extra.  They are not part of the
-- invoice's content (its hash): a resend that differs in them alone is the
-- same revision.  NULL: the file had none, or the source does not keep
-- them.
set local role invoice_owner;

alter table staging.invoice_valid add column extra jsonb;
comment on column staging.invoice_valid.extra is
  'The record''s columns the contract does not have (a source that allows unknown columns), name to value as delivered; NULL: none.';

alter table core.invoice_version add column extra jsonb;
comment on column core.invoice_version.extra is
  'The columns its record had beyond the contract''s, name to value as delivered (not part of the content hash); NULL: none.';

create or replace view reporting.invoice_version as
select v.source, v.invoice_number, v.revision, v.status, v.document_type, v.customer_id,
       v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount, v.gross_amount,
       v.description,
       v.is_current
         or coalesce(v.superseded_by_batch_id
                       = any (array(select p.batch_id from ingest.pending_publication as p)),
                     false) as is_current,
       v.batch_id, v.published_at,
       case when v.superseded_by_batch_id
                   = any (array(select p.batch_id from ingest.pending_publication as p))
            then null else v.superseded_by_batch_id end as superseded_by_batch_id,
       case when v.superseded_by_batch_id
                   = any (array(select p.batch_id from ingest.pending_publication as p))
            then null else v.superseded_at end as superseded_at,
       coalesce(v.superseded_by_batch_id
                  <> all (array(select p.batch_id from ingest.pending_publication as p))
                and exists (select from core.invoice_closure as c
                            where c.source = v.source and c.invoice_number = v.invoice_number
                              and c.revision = v.revision
                              and c.batch_id = v.superseded_by_batch_id),
                false) as closed_by_absence,
       v.extra
from core.invoice_version as v
where v.batch_id <> all (array(select p.batch_id from ingest.pending_publication as p));
