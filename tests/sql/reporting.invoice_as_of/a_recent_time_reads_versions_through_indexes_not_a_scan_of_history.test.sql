-- reporting.invoice_as_of for a recent time reads core.invoice_version
-- through indexes (the current versions, and those superseded since then:
-- index invoice_version_superseded_at), never by a sequential scan of all
-- history: 20,000 versions of 200 invoices (100 revisions each), analyzed;
-- the scans of the call are counted with pg_stat_get_xact_numscans, which
-- counts this transaction's scans.
-- The plan of the function's query for this fixture (auto_explain, PG 15):
--   Append
--     ->  Index Scan using invoice_version_one_current on invoice_version v
--           Filter: ((COALESCE(current_since, published_at) <= '2026-04-09 12:00:00+00') AND (status = 'ISSUED'))
--     ->  Index Scan using invoice_version_superseded_at on invoice_version v_1
--           Index Cond: (superseded_at > '2026-04-09 12:00:00+00')
--           Filter: (...)
--     ->  Seq Scan on invoice_version_period p      (empty here; indexed on current_until)
--     ->  Seq Scan on invoice_version_reverted r    (empty here; indexed on reverted_at)
begin;
select plan(4);

select tests.make_source() as source \gset
select tests.make_batch(:'source', tests.d(), 'published') as batch_id \gset
insert into core.invoice_version (source, invoice_number, revision, status, document_type,
  customer_id, invoice_date, currency, net_amount, tax_amount, gross_amount, content_hash,
  batch_id, record_no, is_current, supersedes_revision, superseded_by_batch_id, superseded_at,
  published_at)
select :'source', 'INV-' || k, r, 'ISSUED', 'INVOICE', 'CUST-1', date '2026-11-20', 'EUR',
       100, 20, 120, '\x00', :batch_id, k, r = 99, nullif(r - 1, -1),
       case when r < 99 then :batch_id end,
       case when r < 99 then timestamptz '2026-01-01' + (r + 1) * interval '1 day' end,
       timestamptz '2026-01-01' + r * interval '1 day'
from generate_series(1, 200) as k, generate_series(0, 99) as r;
analyze core.invoice_version;

select pg_stat_get_xact_numscans('core.invoice_version'::regclass) as seq_before,
       pg_stat_get_xact_numscans('core.invoice_version_superseded_at'::regclass) as idx_before \gset
select is((select count(*)::integer from reporting.invoice_as_of(timestamptz '2026-04-09 12:00')
           where source = :'source'), 200,
          'Two days before the last revisions, as_of shows the 200 invoices.');
select is((select count(*)::integer from reporting.invoice_as_of(timestamptz '2026-04-09 12:00') as a
           where a.source = :'source' and a.revision = 98), 200,
          'each at the revision current then.');
select cmp_ok(pg_stat_get_xact_numscans('core.invoice_version_superseded_at'::regclass) - :idx_before,
              '>', 0::bigint, 'The versions superseded since then are found through their index.');
select is(pg_stat_get_xact_numscans('core.invoice_version'::regclass) - :seq_before, 0::bigint,
          'core.invoice_version is not scanned sequentially.');

select * from finish();
rollback;
