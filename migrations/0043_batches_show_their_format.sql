-- 0043: a batch shows how its bytes were read.  status --batch (and its
-- JSON) gives the version of the source's file format the batch was read
-- with and the columns that format gave a value (ingest.batch's
-- format_version and defaults, migration 0039), which operators read
-- through ingest.batch_overview.
set local role invoice_owner;

create or replace view ingest.batch_overview as
select b.batch_id, b.source, b.business_date, b.sha256, b.state, b.record_count,
       b.control_total,
       (select count(*) from ingest.attempt as a where a.batch_id = b.batch_id)::integer as attempts,
       (select coalesce(a.message, '')
          from ingest.attempt as a
         where a.batch_id = b.batch_id and a.outcome in ('failed', 'quarantined', 'waiting')
         order by a.attempt_no desc limit 1) as last_error,
       b.created_at, b.updated_at,
       b.file_name, b.size_bytes, b.staged_count, b.accepted_count, b.rejected_count,
       b.merge_counts, b.published_at,
       b.manifest -> 'control_totals' as control_totals,
       b.format_version, b.defaults
from ingest.batch as b;
