-- reporting.invoice_as_of: exactly the rows reporting.invoice showed at
-- p_ts (docs/reference/database.md), publications and reverts up to then
-- included, for auditors.  A version was visible while it was current and
-- ISSUED:
--   - a version of core.invoice_version from coalesce(current_since,
--     published_at) (current_since: when a revert restored it) until
--     superseded_at (or now);
--   - an earlier period of a restored version (core.invoice_version_period)
--     from current_from until current_until;
--   - a version of a reverted publication (core.invoice_version_reverted)
--     from coalesce(current_since, published_at) until it was superseded or
--     reverted.
-- A batch that is written but not published yet (ingest.pending_publication,
-- migration 0024) is not there at any p_ts: its versions are left out, and
-- the versions it superseded count as current, as reporting.invoice shows
-- them.
-- Times are those the publishing and reverting transactions recorded: the
-- clock when they took the source's publication lock, so a source's
-- publications and reverts are in the order they happened.  (A reader
-- whose snapshot was taken between that moment and the commit did not see
-- the change yet; as_of counts it from the lock.)
-- Cost: the current versions (partial index invoice_version_one_current)
-- plus, for a recent p_ts, only what was superseded or reverted since
-- (indexes on superseded_at, reverted_at, current_until): O(history) for an
-- old p_ts, never a scan of every version for a recent one.  Plans are made
-- for the value given (plan_cache_mode), so the indexes are chosen for it.
-- Errors: none.
create or replace function reporting.invoice_as_of(p_ts timestamptz)
returns table (source text, invoice_number text, revision integer, document_type text,
               customer_id text, invoice_date date, due_date date, currency text,
               net_amount numeric, tax_amount numeric, gross_amount numeric,
               description text, batch_id bigint, published_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
declare
  v_pending bigint[] := array(select p.batch_id from ingest.pending_publication as p);
begin
  return query
  select v.source, v.invoice_number, v.revision, v.document_type, v.customer_id,
         v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount,
         v.gross_amount, v.description, v.batch_id, v.published_at
  from core.invoice_version as v
  where v.is_current and v.status = 'ISSUED'
    and coalesce(v.current_since, v.published_at) <= p_ts
    and v.batch_id <> all (v_pending)
  union all
  select v.source, v.invoice_number, v.revision, v.document_type, v.customer_id,
         v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount,
         v.gross_amount, v.description, v.batch_id, v.published_at
  from core.invoice_version as v
  where v.superseded_at > p_ts and v.status = 'ISSUED'
    and coalesce(v.current_since, v.published_at) <= p_ts
    and v.batch_id <> all (v_pending)
  union all
  -- superseded by a batch not published yet: still current
  select v.source, v.invoice_number, v.revision, v.document_type, v.customer_id,
         v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount,
         v.gross_amount, v.description, v.batch_id, v.published_at
  from core.invoice_version as v
  where v.superseded_by_batch_id = any (v_pending) and v.superseded_at <= p_ts
    and v.status = 'ISSUED' and coalesce(v.current_since, v.published_at) <= p_ts
    and v.batch_id <> all (v_pending)
  union all
  select p.source, p.invoice_number, p.revision, p.document_type, p.customer_id,
         p.invoice_date, p.due_date, p.currency, p.net_amount, p.tax_amount,
         p.gross_amount, p.description, p.batch_id, p.published_at
  from core.invoice_version_period as p
  where p.current_until > p_ts and p.current_from <= p_ts and p.status = 'ISSUED'
  union all
  select r.source, r.invoice_number, r.revision, r.document_type, r.customer_id,
         r.invoice_date, r.due_date, r.currency, r.net_amount, r.tax_amount,
         r.gross_amount, r.description, r.batch_id, r.published_at
  from core.invoice_version_reverted as r
  where r.reverted_at > p_ts and coalesce(r.superseded_at, r.reverted_at) > p_ts
    and coalesce(r.current_since, r.published_at) <= p_ts and r.status = 'ISSUED';
end;
$$;
comment on function reporting.invoice_as_of(timestamptz) is
  E'What reporting.invoice showed at a moment (publications and reverts up to then).\nErrors: none.';
revoke all on function reporting.invoice_as_of(timestamptz) from public;
grant execute on function reporting.invoice_as_of(timestamptz)
  to invoice_reader, invoice_loader, invoice_operator;
