-- reporting.invoice_as_of: exactly the rows reporting.invoice showed at
-- p_ts (docs/reference/database.md), for auditors.  Each publication and
-- each revert counts from the moment it became visible: its commit, as
-- ingest.history_instant records it (the clock a deferred trigger read at
-- the commit).  The rows themselves carry an earlier time, their stamp:
-- the write's for a publication (ingest.write_batch, which may commit
-- hours before the publication when the loader died in between), the
-- lock's for a revert; every stamp is translated to its instant here.
-- A version was visible while it was current and ISSUED:
--   - a version of core.invoice_version from the instant of
--     coalesce(current_since, published_at) (current_since: when a revert
--     restored it) until the instant of superseded_at (or now);
--   - an earlier period of a restored version (core.invoice_version_period)
--     from the instant of current_from until that of current_until;
--   - a version of a reverted publication (core.invoice_version_reverted)
--     from the instant of coalesce(current_since, published_at) until it
--     was superseded or reverted.
-- A batch that is written but not published yet (ingest.pending_publication)
-- is not there at any p_ts: its versions are left out, and the versions it
-- superseded count as current, as reporting.invoice shows them.  A stamp
-- without an instant is a change from before migration 0031, dated by its
-- stamp as it was then.
-- Exact except within the commit itself: a snapshot taken between the
-- trigger's clock reading and the commit becoming visible (the flush of
-- the commit record) did not see the change yet, which as_of counts from
-- the reading.
-- Cost: the current versions (partial index invoice_version_one_current)
-- plus, for a recent p_ts, only what was superseded or reverted since
-- (indexes on superseded_at, reverted_at, current_until) and what was
-- written before p_ts but became visible after it (the few instants that
-- straddle p_ts: index history_instant_at, then the same indexes by
-- equality): O(history) for an old p_ts, never a scan of every version for
-- a recent one.  Plans are made for the value given (plan_cache_mode), so
-- the indexes are chosen for it.
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
  -- Stamps of changes made before p_ts that became visible after it.
  v_late timestamptz[] := array(select h.stamp from ingest.history_instant as h
                                where h.at > p_ts and h.stamp <= p_ts);
begin
  return query
  select v.source, v.invoice_number, v.revision, v.document_type, v.customer_id,
         v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount,
         v.gross_amount, v.description, v.batch_id, v.published_at
  from core.invoice_version as v
  left join ingest.history_instant as f
    on f.source = v.source and f.stamp = coalesce(v.current_since, v.published_at)
  where v.is_current and v.status = 'ISSUED'
    and coalesce(v.current_since, v.published_at) <= p_ts
    and coalesce(f.at, v.current_since, v.published_at) <= p_ts
    and v.batch_id <> all (v_pending)
  union all
  -- superseded by a publication visible after p_ts
  select v.source, v.invoice_number, v.revision, v.document_type, v.customer_id,
         v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount,
         v.gross_amount, v.description, v.batch_id, v.published_at
  from core.invoice_version as v
  left join ingest.history_instant as f
    on f.source = v.source and f.stamp = coalesce(v.current_since, v.published_at)
  left join ingest.history_instant as u
    on u.source = v.source and u.stamp = v.superseded_at
  where (v.superseded_at > p_ts or v.superseded_at = any (v_late))
    and coalesce(u.at, v.superseded_at) > p_ts
    and not coalesce(v.superseded_by_batch_id = any (v_pending), false)
    and v.status = 'ISSUED'
    and coalesce(v.current_since, v.published_at) <= p_ts
    and coalesce(f.at, v.current_since, v.published_at) <= p_ts
    and v.batch_id <> all (v_pending)
  union all
  -- superseded by a batch not published yet: still current
  select v.source, v.invoice_number, v.revision, v.document_type, v.customer_id,
         v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount,
         v.gross_amount, v.description, v.batch_id, v.published_at
  from core.invoice_version as v
  left join ingest.history_instant as f
    on f.source = v.source and f.stamp = coalesce(v.current_since, v.published_at)
  where v.superseded_by_batch_id = any (v_pending)
    and v.status = 'ISSUED'
    and coalesce(v.current_since, v.published_at) <= p_ts
    and coalesce(f.at, v.current_since, v.published_at) <= p_ts
    and v.batch_id <> all (v_pending)
  union all
  select p.source, p.invoice_number, p.revision, p.document_type, p.customer_id,
         p.invoice_date, p.due_date, p.currency, p.net_amount, p.tax_amount,
         p.gross_amount, p.description, p.batch_id, p.published_at
  from core.invoice_version_period as p
  left join ingest.history_instant as f
    on f.source = p.source and f.stamp = p.current_from
  left join ingest.history_instant as u
    on u.source = p.source and u.stamp = p.current_until
  where (p.current_until > p_ts or p.current_until = any (v_late))
    and coalesce(u.at, p.current_until) > p_ts
    and p.current_from <= p_ts and coalesce(f.at, p.current_from) <= p_ts
    and p.status = 'ISSUED'
  union all
  select r.source, r.invoice_number, r.revision, r.document_type, r.customer_id,
         r.invoice_date, r.due_date, r.currency, r.net_amount, r.tax_amount,
         r.gross_amount, r.description, r.batch_id, r.published_at
  from core.invoice_version_reverted as r
  left join ingest.history_instant as f
    on f.source = r.source and f.stamp = coalesce(r.current_since, r.published_at)
  left join ingest.history_instant as x
    on x.source = r.source and x.stamp = r.reverted_at
  left join ingest.history_instant as u
    on u.source = r.source and u.stamp = r.superseded_at
  where (r.reverted_at > p_ts or r.reverted_at = any (v_late))
    and coalesce(x.at, r.reverted_at) > p_ts
    and coalesce(u.at, r.superseded_at, 'infinity') > p_ts
    and coalesce(r.current_since, r.published_at) <= p_ts
    and coalesce(f.at, r.current_since, r.published_at) <= p_ts
    and r.status = 'ISSUED';
end;
$$;
comment on function reporting.invoice_as_of(timestamptz) is
  E'What reporting.invoice showed at a moment (publications and reverts committed by then).\nErrors: none.';
revoke all on function reporting.invoice_as_of(timestamptz) from public;
grant execute on function reporting.invoice_as_of(timestamptz)
  to invoice_reader, invoice_loader, invoice_operator;
