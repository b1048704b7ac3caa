-- 0032: reconciliation enforced by the database at commit.  Until now the
-- publishing transaction published the counts ingest.write_batch stored
-- without looking at the rows again, so a later change (or a hand in
-- psql) that skipped or altered the write's check would publish a batch
-- that disagrees with its manifest.  A deferred constraint trigger on the
-- batch's move to published now compares, when the transaction commits,
-- what readers are about to see (the batch's versions, read from
-- core.invoice_version) and what the batch accounts for outside them
-- (unchanged resends and identical duplicates as the write counted them,
-- rejected records as ingest.rejection_row holds them) with the
-- manifest's record count, its control_total or its control_totals per
-- currency; a difference refuses the commit (IV222): nothing is
-- published.
-- A rejected record's currency (a code of ingest.currency, NULL when it
-- has none the database knows) is kept with its rejection rows, so that
-- the rejected amounts can be summed per currency.
set local role invoice_owner;

alter table ingest.rejection_row add column currency text;
comment on column ingest.rejection_row.currency is
  'The rejected record''s currency when it is a code of ingest.currency (else NULL): its gross_amount counts in that currency''s total.';

-- The trigger's function is in sql/ (applied after the migrations): a
-- placeholder that refuses to run until then (as in migration 0011).
do $do$
begin
  if pg_catalog.to_regprocedure('ingest.check_publication()') is null then
    create function ingest.check_publication() returns trigger
    language plpgsql set search_path = '' as $b$
    begin
      raise exception 'ingest.check_publication is a placeholder: migrate applies sql/ after the migrations'
        using errcode = 'feature_not_supported';
    end
    $b$;
    revoke all on function ingest.check_publication() from public;
  end if;
end
$do$;

create constraint trigger publication_reconciles
  after update of state on ingest.batch
  deferrable initially deferred
  for each row when (new.state = 'published' and old.state is distinct from 'published')
  execute function ingest.check_publication();
comment on trigger publication_reconciles on ingest.batch is
  'At commit: a batch moved to published must reconcile, from the rows readers will see, with its manifest (ingest.check_publication); else the commit fails with IV222.';

-- The manifest's totals per currency, next to its single control_total,
-- for status and whoever reads the batches (a column added at the end).
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
       b.manifest -> 'control_totals' as control_totals
from ingest.batch as b;
comment on column ingest.batch_overview.control_totals is
  'The manifest''s control_totals (ISO 4217 code to the sum of gross_amount in that currency), or NULL when it gives a single control_total.';
