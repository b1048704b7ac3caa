-- bench/prototypes/write_ahead.sql: issue 15 item 4, "write, audit,
-- publish", measured on the product's own tables before anything is built.
-- Model e: today's versions (model a of current_model.sql), written by
-- today's statements, but committed BEFORE the publishing transaction,
-- while the batch is listed in a one-row-per-source table of pending
-- batches; readers skip the pending batch's versions and still see what it
-- superseded, so the publishing transaction is the DELETE of that row (plus
-- the watermark, the outbox row and the state, as today).  The readers'
-- filter, with P the pending batches:
--   batch_id <> all (P) and (is_current or superseded_by_batch_id = any (P))
-- A batch that was published by today's code is exactly such a batch at the
-- moment before its switch: with P = {it}, the filter shows what
-- reporting.invoice showed before it published; with P empty, what it
-- shows now.  So this script needs no writes of versions: it measures the
-- readers of the filter in both states against reporting.invoice, checks
-- both states row for row (the state before against
-- reporting.invoice_as_of just before the batch's published_at), and times
-- the switch itself.
-- Variables: batch_id (a batch published over a history).
-- Run: bench/prototypes/write_ahead.sh (it builds the database).
\set ON_ERROR_STOP on
drop schema if exists proto_e cascade;
create schema proto_e;
create table proto_e.pending (source text primary key, batch_id bigint not null unique);
create table proto_e.result (what text, ms numeric);

-- reporting.invoice in model e.  The pending batches are read by two
-- initplans (ARRAY(...)), once per query, which leaves the scan parallel;
-- a join with the pending table (an aggregate or an anti-join) and a UNION
-- ALL of two branches gated on "anything pending" each made the full read
-- serial and two to three times slower (tried on 2026-12-01).
create view proto_e.invoice as
select v.source, v.invoice_number, v.revision, v.document_type, v.customer_id,
       v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount,
       v.gross_amount, v.description, v.batch_id, v.published_at
from core.invoice_version as v
where v.status = 'ISSUED'
  and v.batch_id <> all (array(select p.batch_id from proto_e.pending as p))
  and (v.is_current
       or v.superseded_by_batch_id = any (array(select p.batch_id from proto_e.pending as p)));

-- Static statements, so that PL/pgSQL plans each once (as a prepared
-- lookup would be).
create function proto_e.lookup(p_view text, p_source text, p_number text) returns bigint
language plpgsql as $$
declare
  n bigint;
begin
  if p_view = 'today' then
    select count(*) into n from reporting.invoice as i
     where i.source = p_source and i.invoice_number = p_number;
  else
    select count(*) into n from proto_e.invoice as i
     where i.source = p_source and i.invoice_number = p_number;
  end if;
  return n;
end $$;

select b.source as src, b.published_at as published from ingest.batch as b
 where b.batch_id = :batch_id and b.state = 'published' \gset

-- 200 keys, old and amended and new (the batch's), in md5 order
create unlogged table proto_e.lookup_key as
select v.invoice_number from core.invoice_version as v
where v.source = :'src' and v.is_current and v.status = 'ISSUED'
order by md5(v.invoice_number) limit 150;
insert into proto_e.lookup_key
select v.invoice_number from core.invoice_version as v
where v.batch_id = :batch_id and v.supersedes_revision is not null
order by md5(v.invoice_number) limit 50;

-- Both states, row for row: P empty against reporting.invoice, P = {batch}
-- against reporting.invoice_as_of just before the batch published.
select 'after: rows of one view missing from the other' as check,
       (select count(*) from (select * from reporting.invoice except all
                              select * from proto_e.invoice) as x)
     + (select count(*) from (select * from proto_e.invoice except all
                              select * from reporting.invoice) as y) as differences;
insert into proto_e.pending values (:'src', :batch_id);
select 'before: rows of one view missing from the other' as check,
       (select count(*) from (select * from reporting.invoice_as_of(:'published'::timestamptz - interval '1 microsecond')
                              except all select * from proto_e.invoice) as x)
     + (select count(*) from (select * from proto_e.invoice except all
                              select * from reporting.invoice_as_of(:'published'::timestamptz - interval '1 microsecond')) as y)
         as differences;
delete from proto_e.pending;
vacuum analyze proto_e.pending;
set proto.batch = :batch_id;

-- Reads.  The full reads from the client (a SELECT ... INTO in PL/pgSQL
-- never runs in parallel, and the benchmark's readers are clients), three
-- each, interleaved: today's view, model e with nothing pending (after the
-- switch), model e with the batch pending (before it).
\timing on
select 'today' as view, count(*), sum(gross_amount) from reporting.invoice;
select 'e, nothing pending' as view, count(*), sum(gross_amount) from proto_e.invoice;
insert into proto_e.pending values (:'src', :batch_id);
select 'e, the batch pending' as view, count(*), sum(gross_amount) from proto_e.invoice;
delete from proto_e.pending;
select 'today' as view, count(*), sum(gross_amount) from reporting.invoice;
select 'e, nothing pending' as view, count(*), sum(gross_amount) from proto_e.invoice;
insert into proto_e.pending values (:'src', :batch_id);
select 'e, the batch pending' as view, count(*), sum(gross_amount) from proto_e.invoice;
delete from proto_e.pending;
select 'today' as view, count(*), sum(gross_amount) from reporting.invoice;
select 'e, nothing pending' as view, count(*), sum(gross_amount) from proto_e.invoice;
insert into proto_e.pending values (:'src', :batch_id);
select 'e, the batch pending' as view, count(*), sum(gross_amount) from proto_e.invoice;
delete from proto_e.pending;
\timing off

-- 200 lookups by key in each state, three rounds, planned once each (static
-- statements in PL/pgSQL, as a prepared lookup is).
do $$
declare
  st text;
  t0 timestamptz;
  r int;
  n bigint;
  k text;
  src text := (select b.source from ingest.batch as b where b.batch_id = current_setting('proto.batch')::bigint);
begin
  for r in 1..3 loop
    foreach st in array array['today', 'e, nothing pending', 'e, the batch pending'] loop
      if st = 'e, the batch pending' then
        insert into proto_e.pending values (src, current_setting('proto.batch')::bigint);
      end if;
      t0 := clock_timestamp();
      for k in select l.invoice_number from proto_e.lookup_key as l loop
        n := proto_e.lookup(split_part(st, ',', 1), src, k);
      end loop;
      insert into proto_e.result values (format('%s: one invoice by key, per lookup (200 keys), run %s', st, r),
        round(extract(epoch from clock_timestamp() - t0)::numeric * 1000 / 200, 4));
      delete from proto_e.pending;
    end loop;
  end loop;
end $$;

select what, ms from proto_e.result order by split_part(what, ':', 1), what;

-- The switch: listing the batch as pending, then the publishing
-- transaction's own part of model e (each statement its own transaction,
-- its commit included), three times.
\timing on
insert into proto_e.pending values (:'src', :batch_id);
delete from proto_e.pending where batch_id = :batch_id;
insert into proto_e.pending values (:'src', :batch_id);
delete from proto_e.pending where batch_id = :batch_id;
insert into proto_e.pending values (:'src', :batch_id);
delete from proto_e.pending where batch_id = :batch_id;
\timing off
