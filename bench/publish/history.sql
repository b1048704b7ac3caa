-- bench/publish/history.sql: the history the publication is measured over,
-- built directly as the superuser into a migrated database whose source
-- :source starts :dates business dates before :batch_date (FK triggers
-- off: the rows are consistent by construction):
--   one published ingest.batch per business date (fake sha256 values, with
--   its attempt, checkpoint events and a dispatched notification);
--   :keys_per_date new invoices per date, 80% of the versions current and
--   the rest superseded (per 20 invoices: 16 with one revision, 3 with two,
--   1 with three, each later revision published 3 business dates after the
--   previous one; 1 in 100 ends VOID), rows in publication order;
--   the watermark is the last history date, so the batch's date is
--   watermark + 1; then VACUUM (FREEZE, ANALYZE) and CHECKPOINT.
-- Keys: 20 invoices make 25 versions (16 x 1, 3 x 2, 1 x 3 revisions), so
-- keys = 0.8 N and each date brings keys / dates new invoices.
-- Content hashes are stand-ins (not ingest.content_hash of the content),
-- labelled form 2 as every version published since migrations/0014 is: a
-- resend of a history version would count as a revision conflict, and no
-- benchmark sends one.
-- Variables: source, batch_date, dates, keys_per_date.
set session_replication_role = replica;  -- no FK triggers: consistent by construction
set work_mem = '512MB';
set maintenance_work_mem = '512MB';
begin;

insert into ingest.batch (source, business_date, sha256, size_bytes, file_records, file_name, columns,
                          state, manifest, record_count, control_total, staged_count,
                          accepted_count, rejected_count, distinct_keys, created_at,
                          updated_at, published_at)
select :'source', t.day, encode(sha256(convert_to('bench-history:' || t.day, 'UTF8')), 'hex'),
       0, 0, :'source' || '_' || t.day || '.csv',
       array['invoice_number', 'revision', 'status', 'document_type', 'customer_id',
             'invoice_date', 'due_date', 'currency', 'net_amount', 'tax_amount',
             'gross_amount', 'description'],
       'published', null, 0, 0, 0, 0, 0, 0, t.at, t.at, t.at
from generate_series(0, :dates - 1) as d(i)
cross join lateral (select :'batch_date'::date - :dates + d.i as day,
                           (:'batch_date'::date - :dates + d.i + 1)::timestamptz
                             + interval '2 hours' as at) as t
order by d.i;

create temp table hb as
select b.batch_id, b.business_date, b.published_at,
       (row_number() over (order by b.business_date) - 1)::integer as i
from ingest.batch as b where b.source = :'source';
create unique index on hb (i);
analyze hb;

insert into core.invoice_version (source, invoice_number, revision, status, document_type,
                                  customer_id, invoice_date, due_date, currency, net_amount,
                                  tax_amount, gross_amount, description, content_hash,
                                  content_hash_version,
                                  batch_id, record_no, is_current, supersedes_revision,
                                  superseded_by_batch_id, superseded_at, published_at)
select :'source', 'INV-' || to_char(b0.business_date, 'YYYYMMDD') || '-' || lpad(k.j::text, 6, '0'),
       r.r,
       case when r.r = k.revs - 1 and k.j % 100 = 0 then 'VOID' else 'ISSUED' end,
       case when k.credit then 'CREDIT_NOTE' else 'INVOICE' end,
       'CUST-' || lpad((k.k % 5000 + 1)::text, 5, '0'),
       b0.business_date - k.j % 5, b0.business_date - k.j % 5 + 30, 'EUR',
       a.net, a.tax, a.net + a.tax,
       'history invoice ' || k.k || ' revision ' || r.r,
       sha256(convert_to(k.k || ':' || r.r, 'UTF8')), 2,  -- stand-ins, labelled form 2 (today's)
       bv.batch_id, k.j, r.r = k.revs - 1, case when r.r > 0 then r.r - 1 end,
       bn.batch_id, bn.published_at, bv.published_at
from (select g as k, (g / :keys_per_date)::integer as d0, (g % :keys_per_date + 1)::integer as j,
             g % 20 = 7 as credit,
             case when g % 20 = 0 then 3 when g % 20 between 1 and 3 then 2 else 1 end as revs
      from generate_series(0::bigint, :keys_per_date::bigint * :dates - 1) as g) as k
cross join lateral generate_series(0, k.revs - 1) as r(r)
join hb as b0 on b0.i = k.d0
join hb as bv on bv.i = least(k.d0 + 3 * r.r, :dates - 1)
left join hb as bn on r.r < k.revs - 1 and bn.i = least(k.d0 + 3 * (r.r + 1), :dates - 1)
cross join lateral (
  select (case when k.credit then -1 else 1 end
          * (1000 + (k.k * 7919 + r.r * 104729) % 499000) / 100.0)::numeric(14, 2) as net) as n
cross join lateral (
  select n.net, round(n.net * case when k.j % 4 = 0 then 0.07 else 0.19 end, 2) as tax) as a
order by bv.i, k.k, r.r;

update ingest.batch as b
   set file_records = c.n, record_count = c.n, staged_count = c.n, accepted_count = c.n, distinct_keys = c.n,
       control_total = c.gross, size_bytes = c.n * 140,
       manifest = jsonb_build_object('source', b.source, 'business_date', b.business_date,
                                     'record_count', c.n, 'control_total', c.gross::text),
       merge_counts = jsonb_build_object('inserted', c.n - c.amended, 'amended', c.amended,
                                         'voided', 0, 'late', 0, 'unchanged', 0,
                                         'duplicates', 0, 'rejected', 0, 'records', c.n)
  from (select v.batch_id, count(*)::integer as n, sum(v.gross_amount) as gross,
               count(*) filter (where v.revision > 0)::integer as amended
        from core.invoice_version as v group by v.batch_id) as c
 where c.batch_id = b.batch_id;

insert into ingest.attempt (batch_id, attempt_no, run_id, host, pid, db_user, backend_pid,
                            state_at_start, state_at_end, started_at, finished_at, outcome)
select hb.batch_id, 1, md5('bench-attempt:' || hb.batch_id)::uuid, 'bench', 1, 'invoice_loader',
       1, 'received', 'published', hb.published_at - interval '2 minutes', hb.published_at,
       'published'
from hb order by hb.i;

insert into ingest.batch_event (batch_id, attempt_id, from_state, to_state, at, db_user)
select hb.batch_id, case when s.n > 0 then a.attempt_id end, s.from_state, s.to_state,
       hb.published_at - (3 - s.n) * interval '30 seconds', 'invoice_loader'
from hb
join ingest.attempt as a on a.batch_id = hb.batch_id
cross join (values (0, null, 'received'), (1, 'received', 'staged'),
                   (2, 'staged', 'validated'), (3, 'validated', 'published'))
  as s(n, from_state, to_state)
order by hb.i, s.n;

insert into ingest.outbox (batch_id, kind, dedupe_key, payload, created_at, dispatched_at, state)
select b.batch_id, 'batch_published', 'batch_published:' || b.batch_id,
       jsonb_build_object('batch_id', b.batch_id, 'source', b.source,
                          'business_date', b.business_date, 'sha256', b.sha256,
                          'counts', b.merge_counts),
       b.published_at, b.published_at + interval '1 minute', 'dispatched'
from ingest.batch as b order by b.batch_id;

insert into ingest.source_watermark (source, business_date, batch_id, advanced_at)
select :'source', hb.business_date, hb.batch_id, hb.published_at
from hb order by hb.i desc limit 1;
commit;
reset session_replication_role;
vacuum (freeze, analyze);
checkpoint;
