-- bench/prototypes/current_model.sql: issue 15 item 3, "keep current
-- without rewriting history", measured before anything is built.  Four
-- ways of keeping the current version of each key, in stand-alone tables
-- of a scratch database (not the product's schema), over the same history
-- and the same batch, writes and reads:
--   a  today: wide versions with is_current, superseded_by_batch_id and
--      superseded_at; primary key, one-current partial unique index, batch
--      index; a publication UPDATEs the versions it supersedes;
--   b  a narrow current table, one row per key (revision, batch, status),
--      primary key (source, invoice_number): "one current version per key"
--      is its primary key; supersession is an insert into a narrow
--      supersession table; versions are insert-only (primary key and batch
--      index, no partial index);
--   c  derived: insert-only versions, current = the highest revision of a
--      key; readers compute it (no supersession write at all);
--   d  b with the reporting columns in the current table (every column a
--      reader of reporting.invoice sees), so that readers read one table
--      of current rows and never join the versions; every current
--      invoice is written twice.  Its versions could be written before
--      the publishing transaction (readers never see them), which would
--      then be the supersessions and the current table's upsert: the
--      "publishing transaction" line.
-- History: :keys keys, one in four with two revisions (1.25 versions a
-- key: 5M versions for 4M keys), the newest keys last.  Batch: :batch
-- records, 6% amendments and 3% voids (a revision above the current one)
-- among the most recent keys, the rest new keys.
-- Run: scripts/with-tmp-pg.sh bash bench/prototypes/current_model.sh
-- [KEYS BATCH] (defaults 4000000 1000000); it prints one line per
-- measurement ("a write ...", "b read ..."), times in ms from
-- clock_timestamp() inside the server, WAL in MB from pg_current_wal_lsn().
\set ON_ERROR_STOP on
set work_mem = '256MB';
set maintenance_work_mem = '512MB';
set synchronous_commit = on;

drop schema if exists proto cascade;
create schema proto;

-- one row per measurement
create table proto.result (model text, kind text, what text, ms numeric, wal_mb numeric);
create function proto.measure(p_model text, p_kind text, p_what text, p_sql text)
returns void language plpgsql as $$
declare
  t0 timestamptz;
  w0 pg_lsn;
begin
  w0 := pg_current_wal_insert_lsn();
  t0 := clock_timestamp();
  execute p_sql;
  insert into proto.result values (p_model, p_kind, p_what,
    round(extract(epoch from clock_timestamp() - t0)::numeric * 1000, 1),
    round((pg_current_wal_insert_lsn() - w0) / 1048576.0, 1));
end $$;

-- The history, once, as plain rows; each model copies it.
create unlogged table proto.hist as
select 'acme'::text as source, 'INV-' || lpad(k::text, 9, '0') as invoice_number, r as revision,
       'ISSUED'::text as status, 'INVOICE'::text as document_type,
       'CUST-' || (k % 5000) as customer_id, date '2026-01-01' + (k % 300)::integer as invoice_date,
       null::date as due_date, 'EUR'::text as currency,
       (((k * 7919 + r) % 100000) / 100.0 + 1)::numeric(14, 2) as net_amount, 0.00::numeric as tax_amount,
       (((k * 7919 + r) % 100000) / 100.0 + 1)::numeric(14, 2) as gross_amount,
       'history invoice ' || k as description,
       sha256(convert_to(k || ':' || r, 'UTF8')) as content_hash,
       (k / 40000 + 1)::bigint + r * 3 as batch_id, (k % 40000)::integer as record_no,
       r = case when k % 4 = 0 then 1 else 0 end as is_current,
       (k / 40000 + 1)::bigint + 3 as superseded_by
from generate_series(0::bigint, :keys - 1) as k
cross join lateral generate_series(0, case when k % 4 = 0 then 1 else 0 end) as r
order by k, r;

-- The batch: 6% amendments and 3% voids of the most recent keys, the rest new.
create unlogged table proto.batch as
select 'acme'::text as source, 'INV-' || lpad(k::text, 9, '0') as invoice_number,
       case when k < :keys then 5 else 0 end as revision,
       case when k < :keys and n % 100 >= 97 then 'VOID' else 'ISSUED' end as status,
       'INVOICE'::text as document_type, 'CUST-' || (k % 5000) as customer_id,
       date '2026-11-28' as invoice_date, null::date as due_date, 'EUR'::text as currency,
       ((n % 100000) / 100.0 + 2)::numeric(14, 2) as net_amount, 0.00::numeric as tax_amount,
       ((n % 100000) / 100.0 + 2)::numeric(14, 2) as gross_amount, 'batch invoice ' || n as description,
       sha256(convert_to('b:' || n, 'UTF8')) as content_hash, 999999::bigint as batch_id,
       n::integer as record_no
from generate_series(1, :batch) as n
cross join lateral (select case when n % 100 >= 91
                                then :keys - 1 - (n / 100 * 9 + n % 100 - 91)::bigint
                                else :keys + n end as k) as x;
analyze proto.hist;
analyze proto.batch;

-- a: today's table
create table proto.a_version (
  source text not null, invoice_number text not null, revision integer not null,
  status text not null, document_type text not null, customer_id text not null,
  invoice_date date not null, due_date date, currency text not null, net_amount numeric not null,
  tax_amount numeric not null, gross_amount numeric not null, description text,
  content_hash bytea not null, batch_id bigint not null, record_no integer not null,
  is_current boolean not null, supersedes_revision integer, superseded_by_batch_id bigint,
  superseded_at timestamptz, published_at timestamptz not null,
  primary key (source, invoice_number, revision));
insert into proto.a_version
select source, invoice_number, revision, status, document_type, customer_id, invoice_date, due_date,
       currency, net_amount, tax_amount, gross_amount, description, content_hash, batch_id, record_no,
       is_current, null, case when not is_current then superseded_by end,
       case when not is_current then now() end, now()
from proto.hist;
create unique index a_one_current on proto.a_version (source, invoice_number) where is_current;
create index a_batch on proto.a_version (batch_id);

-- b: versions insert-only, a narrow current table, a narrow supersession table
create table proto.b_version (
  source text not null, invoice_number text not null, revision integer not null,
  status text not null, document_type text not null, customer_id text not null,
  invoice_date date not null, due_date date, currency text not null, net_amount numeric not null,
  tax_amount numeric not null, gross_amount numeric not null, description text,
  content_hash bytea not null, batch_id bigint not null, record_no integer not null,
  published_at timestamptz not null,
  primary key (source, invoice_number, revision));
create table proto.b_current (
  source text not null, invoice_number text not null, revision integer not null,
  batch_id bigint not null, status text not null, current_since timestamptz not null,
  primary key (source, invoice_number));
create table proto.b_superseded (
  source text not null, invoice_number text not null, revision integer not null,
  superseded_by_batch_id bigint not null, superseded_at timestamptz not null,
  primary key (source, invoice_number, revision));
insert into proto.b_version
select source, invoice_number, revision, status, document_type, customer_id, invoice_date, due_date,
       currency, net_amount, tax_amount, gross_amount, description, content_hash, batch_id, record_no,
       now()
from proto.hist;
insert into proto.b_current
select source, invoice_number, revision, batch_id, status, now() from proto.hist where is_current;
insert into proto.b_superseded
select source, invoice_number, revision, superseded_by, now() from proto.hist where not is_current;
create index b_batch on proto.b_version (batch_id);

-- c: versions only
create table proto.c_version (like proto.b_version including all);
insert into proto.c_version select * from proto.b_version;
create index c_batch on proto.c_version (batch_id);

-- d: b's versions and supersessions, a current table with every reporting column
create table proto.d_version (like proto.b_version including all);
insert into proto.d_version select * from proto.b_version;
create index d_batch on proto.d_version (batch_id);
create table proto.d_current (
  source text not null, invoice_number text not null, revision integer not null,
  status text not null, document_type text not null, customer_id text not null,
  invoice_date date not null, due_date date, currency text not null, net_amount numeric not null,
  tax_amount numeric not null, gross_amount numeric not null, description text,
  batch_id bigint not null, current_since timestamptz not null,
  primary key (source, invoice_number));
insert into proto.d_current
select source, invoice_number, revision, status, document_type, customer_id, invoice_date, due_date,
       currency, net_amount, tax_amount, gross_amount, description, batch_id, now()
from proto.hist where is_current;
create table proto.d_superseded (like proto.b_superseded including all);
insert into proto.d_superseded select * from proto.b_superseded;

vacuum (freeze, analyze) proto.a_version, proto.b_version, proto.b_current, proto.b_superseded,
  proto.c_version, proto.d_version, proto.d_current, proto.d_superseded;
checkpoint;

-- The keys that change (what the merge's key history gives it).
create unlogged table proto.changed as
select b.invoice_number, b.revision from proto.batch as b where b.revision > 0;
analyze proto.changed;

-- Writes, one transaction each (as publication), a CHECKPOINT before each.
checkpoint;
begin;
select proto.measure('a', 'write', 'supersede the changed keys'' current versions', $q$
  update proto.a_version as v
     set is_current = false, superseded_by_batch_id = 999999, superseded_at = now()
    from proto.changed as c
   where v.source = 'acme' and v.invoice_number = c.invoice_number and v.is_current $q$);
select proto.measure('a', 'write', 'insert the batch''s versions', $q$
  insert into proto.a_version
  select source, invoice_number, revision, status, document_type, customer_id, invoice_date,
         due_date, currency, net_amount, tax_amount, gross_amount, description, content_hash,
         batch_id, record_no, true, null, null, null, now()
  from proto.batch $q$);
commit;

checkpoint;
begin;
select proto.measure('b', 'write', 'insert the batch''s versions', $q$
  insert into proto.b_version
  select source, invoice_number, revision, status, document_type, customer_id, invoice_date,
         due_date, currency, net_amount, tax_amount, gross_amount, description, content_hash,
         batch_id, record_no, now()
  from proto.batch $q$);
select proto.measure('b', 'write', 'record the supersessions', $q$
  insert into proto.b_superseded
  select c.source, c.invoice_number, c.revision, 999999, now()
  from proto.b_current as c join proto.changed as x
    on c.source = 'acme' and c.invoice_number = x.invoice_number $q$);
select proto.measure('b', 'write', 'move current (update changed keys, insert new ones)', $q$
  insert into proto.b_current as c
  select source, invoice_number, revision, batch_id, status, now() from proto.batch
  on conflict (source, invoice_number) do update
     set revision = excluded.revision, batch_id = excluded.batch_id, status = excluded.status,
         current_since = excluded.current_since
   where c.revision < excluded.revision $q$);
commit;

checkpoint;
begin;
select proto.measure('c', 'write', 'insert the batch''s versions', $q$
  insert into proto.c_version
  select source, invoice_number, revision, status, document_type, customer_id, invoice_date,
         due_date, currency, net_amount, tax_amount, gross_amount, description, content_hash,
         batch_id, record_no, now()
  from proto.batch $q$);
commit;

checkpoint;
begin;
select proto.measure('d', 'write', 'insert the batch''s versions', $q$
  insert into proto.d_version
  select source, invoice_number, revision, status, document_type, customer_id, invoice_date,
         due_date, currency, net_amount, tax_amount, gross_amount, description, content_hash,
         batch_id, record_no, now()
  from proto.batch $q$);
commit;
-- the part that would be the publishing transaction
begin;
select proto.measure('d', 'write', 'publishing transaction: record the supersessions', $q$
  insert into proto.d_superseded
  select c.source, c.invoice_number, c.revision, 999999, now()
  from proto.d_current as c join proto.changed as x
    on c.source = 'acme' and c.invoice_number = x.invoice_number $q$);
select proto.measure('d', 'write', 'publishing transaction: move current (every reporting column)', $q$
  insert into proto.d_current as c
  select source, invoice_number, revision, status, document_type, customer_id, invoice_date,
         due_date, currency, net_amount, tax_amount, gross_amount, description, batch_id, now()
  from proto.batch
  on conflict (source, invoice_number) do update
     set revision = excluded.revision, status = excluded.status,
         document_type = excluded.document_type, customer_id = excluded.customer_id,
         invoice_date = excluded.invoice_date, due_date = excluded.due_date,
         currency = excluded.currency, net_amount = excluded.net_amount,
         tax_amount = excluded.tax_amount, gross_amount = excluded.gross_amount,
         description = excluded.description, batch_id = excluded.batch_id,
         current_since = excluded.current_since
   where c.revision < excluded.revision $q$);
commit;

vacuum analyze proto.a_version, proto.b_version, proto.b_current, proto.b_superseded,
  proto.c_version, proto.d_version, proto.d_current, proto.d_superseded;

-- Reads: what reporting.invoice would be in each model.
create view proto.a_invoice as
  select v.* from proto.a_version as v where v.is_current and v.status = 'ISSUED';
create view proto.b_invoice as
  select v.* from proto.b_current as c
  join proto.b_version as v
    on v.source = c.source and v.invoice_number = c.invoice_number and v.revision = c.revision
  where c.status = 'ISSUED';
create view proto.c_invoice as
  select x.* from (select distinct on (v.source, v.invoice_number) v.*
                   from proto.c_version as v
                   order by v.source, v.invoice_number, v.revision desc) as x
  where x.status = 'ISSUED';
create view proto.d_invoice as
  select c.* from proto.d_current as c where c.status = 'ISSUED';

-- 200 keys to look up: old, amended, voided and new, spread over the key range
create unlogged table proto.lookup as
select 'INV-' || lpad(((g::bigint * 2654435761) % (:keys + :batch / 2))::text, 9, '0') as invoice_number
from generate_series(1, 200) as g;

do $$
declare
  m text;
  t0 timestamptz;
  k text;
  n bigint;
  s numeric;
  r int;
begin
  foreach m in array array['a', 'b', 'c', 'd'] loop
    for r in 1..3 loop
      t0 := clock_timestamp();
      execute format('select count(*), sum(gross_amount) from proto.%s_invoice', m) into n, s;
      insert into proto.result values (m, 'read', format('count and sum (%s rows, %s), run %s', n, s, r),
        round(extract(epoch from clock_timestamp() - t0)::numeric * 1000, 1), null);
    end loop;
    t0 := clock_timestamp();
    for k in select invoice_number from proto.lookup loop
      execute format('select count(*) from proto.%s_invoice where source = $1 and invoice_number = $2', m)
        into n using 'acme', k;
    end loop;
    insert into proto.result values (m, 'read', 'one invoice by key (per lookup, 200 keys)',
      round(extract(epoch from clock_timestamp() - t0)::numeric * 1000 / 200, 3), null);
  end loop;
end $$;

-- The four models must agree on what is current.
select 'agree' as check,
       (select count(*) from proto.a_invoice) as a_rows, (select count(*) from proto.b_invoice) as b_rows,
       (select count(*) from proto.c_invoice) as c_rows, (select count(*) from proto.d_invoice) as d_rows,
       (select sum(gross_amount) from proto.a_invoice) = (select sum(gross_amount) from proto.b_invoice)
       and (select sum(gross_amount) from proto.b_invoice) = (select sum(gross_amount) from proto.c_invoice)
       and (select sum(gross_amount) from proto.c_invoice) = (select sum(gross_amount) from proto.d_invoice)
         as same_sum;

select model, kind, what, ms, wal_mb from proto.result order by model, kind desc, what;
select model, sum(ms) as write_ms, sum(wal_mb) as write_wal_mb
from proto.result where kind = 'write' group by model order by model;
select pg_size_pretty(pg_total_relation_size('proto.a_version')) as a_size,
       pg_size_pretty(pg_total_relation_size('proto.b_version') + pg_total_relation_size('proto.b_current')
                      + pg_total_relation_size('proto.b_superseded')) as b_size,
       pg_size_pretty(pg_total_relation_size('proto.c_version')) as c_size,
       pg_size_pretty(pg_total_relation_size('proto.d_version') + pg_total_relation_size('proto.d_current')
                      + pg_total_relation_size('proto.d_superseded')) as d_size;
