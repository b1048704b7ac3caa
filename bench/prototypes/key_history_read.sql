-- bench/prototypes/key_history_read.sql: issue 15 item 5, the history read
-- of ingest.reject_revision_conflicts, before (an INSERT ... SELECT join,
-- which PostgreSQL never runs in parallel) and after (the same join in
-- ingest.key_history, a RETURN QUERY function, which may), and then with
-- the read limited to the batch's key range (migrations/0016), and with
-- the batch's keys known distinct (migrations/0018).  Run in a
-- database holding bench/publish/history.sql's history for source :source,
-- as the superuser.  A fake batch of :n typed rows is written into
-- staging.invoice_valid (as the owner, past the scope trigger): 9% of its
-- invoice numbers are the history's most recent, the rest new.  Each form
-- runs :reps times, alternating; one line per run.
\set ON_ERROR_STOP on
set work_mem = '256MB';
insert into ingest.batch (source, business_date, sha256, size_bytes, file_records, file_name,
                          columns, state)
values (:'source', date '2099-01-01', repeat('cd', 32), 0, 0, 'key-history-probe.csv',
        '{}', 'received')
returning batch_id as probe \gset
set role invoice_owner;
insert into staging.invoice_valid (batch_id, record_no, rules, invoice_number, revision, status,
                                   document_type, customer_id, invoice_date, currency,
                                   net_amount, tax_amount, gross_amount, content_hash)
select :probe, n, 0,
       case when n % 100 >= 91 then k.invoice_number else 'NEW-' || lpad(n::text, 9, '0') end,
       9, 'ISSUED', 'INVOICE', 'C', date '2026-11-28', 'EUR', 1, 0, 1, '\x00'
from generate_series(1, :n) as n
left join (select cv.invoice_number, row_number() over (order by cv.invoice_number desc) as r
           from core.invoice_version as cv
           where cv.source = :'source' and cv.is_current
           order by cv.invoice_number desc limit :n) as k
  on k.r = n / 100 * 9 + n % 100 - 90;
reset role;
analyze staging.invoice_valid;
create temp table timing (form text, run int, ms numeric, rows bigint);
select set_config('probe.batch', :'probe', false), set_config('probe.source', :'source', false),
       set_config('probe.reps', :'reps', false) \gset
do $$
declare
  t0 timestamptz;
  r int;
  n bigint;
  v_batch bigint := current_setting('probe.batch')::bigint;
  v_source text := current_setting('probe.source');
  v_min text;
  v_max text;
  v_all_min text;
  v_all_max text;
  f record;
begin
  -- the batch's key range, as reject_revision_conflicts passes it; and the
  -- whole history's, which reads everything (the form before 0016)
  select min(v.invoice_number), max(v.invoice_number) into v_min, v_max
  from staging.invoice_valid as v where v.batch_id = v_batch;
  select least(min(cv.invoice_number), v_min), greatest(max(cv.invoice_number), v_max)
    into v_all_min, v_all_max
  from core.invoice_version as cv where cv.source = v_source;
  for r in 1..current_setting('probe.reps')::int loop
    t0 := clock_timestamp();
    insert into staging.key_version (batch_id, invoice_number, revision, is_current,
                                     content_hash, version_batch_id)
    select v_batch, cv.invoice_number, cv.revision, cv.is_current, cv.content_hash, cv.batch_id
    from (select distinct v.invoice_number from staging.invoice_valid as v
          where v.batch_id = v_batch) as k
    join core.invoice_version as cv
      on cv.source = v_source and cv.invoice_number = k.invoice_number;
    get diagnostics n = row_count;
    insert into timing values ('before: INSERT ... SELECT join', r,
      round(extract(epoch from clock_timestamp() - t0)::numeric * 1000), n);
    delete from staging.key_version where batch_id = v_batch;
    -- ingest.key_history's forms: the whole history (before 0016), the
    -- batch's key range (0016), and the range with the keys known distinct
    for f in select * from (values
               ('after: ingest.key_history (RETURN QUERY)', v_all_min, v_all_max, false, 1),
               ('then: only the batch''s key range (migrations/0016)', v_min, v_max, false, 2),
               ('then: the key range, keys known distinct (migrations/0018)', v_min, v_max, true, 3))
             as t(label, lo, hi, dist, o) order by o loop
      t0 := clock_timestamp();
      insert into staging.key_version (batch_id, invoice_number, revision, is_current,
                                       content_hash, version_batch_id)
      select v_batch, h.invoice_number, h.revision, h.is_current, h.content_hash,
             h.version_batch_id
      from ingest.key_history(v_batch, v_source, f.lo, f.hi, f.dist) as h;
      get diagnostics n = row_count;
      insert into timing values (f.label, r,
        round(extract(epoch from clock_timestamp() - t0)::numeric * 1000), n);
      delete from staging.key_version where batch_id = v_batch;
    end loop;
  end loop;
end $$;
select form, run, ms, rows from timing order by run, form;
select form, percentile_cont(0.5) within group (order by ms) as median_ms from timing group by form;
delete from staging.invoice_valid where batch_id = :probe;
delete from ingest.batch where batch_id = :probe;
