-- ingest.validate_batch: check every staged record of a batch against the
-- field rules of the input file (docs/reference/input-file.md); keep the
-- typed accepted records in staging.invoice_valid; reject revisions that
-- conflict with history; reconcile with the manifest (record count,
-- distinct keys, control total, and net_total and tax_total when the
-- manifest has them; per currency when the file has several currencies
-- or the manifest gives its totals per currency: ingest.reconcile_currencies);
-- then move the batch staged -> validated, or staged -> quarantined with
-- the reasons.
-- The per-record field rules are decided by the loader in its pass over
-- the file, which COPYs typed rows with the bits of the rules each record
-- fails (ingest.field_rule) into staging.invoice_valid; for raw rows in
-- staging.invoice_line (staged without the loader, e.g. by psql) they are
-- decided here, set-based, pattern before cast (ingest.failing_records).
-- Both ways give the same rejections and typed rows (the e2e test
-- field_rules__loader_and_sql_agree_on_the_corpus).
-- One rejection row per failed rule per record (rule codes: sql/ERRCODES.md).
-- Policy: all-or-nothing quarantines on any rejected record; partial allows
-- up to the source's max_rejected_share.
-- Idempotent: a batch already past staged is returned as it is.  A batch
-- whose staged rows do not match its checkpoint (a server crash took them,
-- unlogged staging, or rows were written next to them) goes back to
-- received (ingest.restage_lost_batch) and is returned so: the load stages
-- the file again (this was IV204, which no later load got past).
-- Locks: the batch row (for update).
-- Errors: IV201 the batch is still received; IV208 no such batch.
-- Runs with work_mem 256MB (a million records' sorts and hashes stay in
-- memory).  The loader calls ingest.analyze_staging first, in a
-- transaction of its own, so that the plans fit the batch (and the
-- read-only scans, ingest.failing_records and ingest.staged_totals, can run
-- in parallel).
create or replace function ingest.validate_batch(p_batch_id bigint, p_attempt_id bigint)
returns table (state text, accepted integer, rejected integer)
language plpgsql
security definer
set search_path = ''
-- sorts and hashes over a whole batch stay in memory (see publish_batch)
set work_mem = '256MB'
as $$
declare
  v_batch      ingest.batch;
  v_source     ingest.source;
  v_staged     integer;
  v_rejected   integer;
  v_accepted   integer;
  v_keys       integer;
  v_sum        numeric;
  v_unreadable integer;
  v_reasons    jsonb := '[]';
  v_expect_keys text;
  v_totals     record;
  v_part       text;
  v_expect_part text;
  v_part_sum   numeric;
  v_part_unreadable integer;
  v_raw        bigint;
  v_typed      bigint;
  v_typed_path boolean;
  v_clean      boolean;
  v_repeats    boolean;
  v_stamp      bigint;
  v_multi      boolean;
  v_currencies jsonb;
begin
  select * into v_batch from ingest.batch as b where b.batch_id = p_batch_id for update;
  if not found then
    raise exception 'batch % does not exist', p_batch_id using errcode = 'IV208';
  end if;
  if v_batch.state = 'received' then
    raise exception 'batch % is received, not staged; it cannot be validated', p_batch_id
      using errcode = 'IV201', hint = 'Load the file again: the load stages it first.';
  end if;
  if v_batch.state <> 'staged' then
    return query select v_batch.state, v_batch.accepted_count, v_batch.rejected_count;
    return;
  end if;
  select * into v_source from ingest.source as s where s.source = v_batch.source;

  -- 0. What reconciliation compares with the manifest, over every record
  --    (before the rejected ones leave staging.invoice_valid), and how
  --    many rows of each kind the batch has: its records are either typed
  --    rows from the loader's COPY (staging.invoice_valid, each with the
  --    field rules it fails) or raw rows staged some other way
  --    (staging.invoice_line, the SQL path).
  select * into v_totals from ingest.staged_totals(p_batch_id) as t;
  -- A single total means something only for a file of one currency; a
  -- file of several (or a manifest with totals per currency) is
  -- reconciled per currency, read here over every record as well.  A
  -- record whose currency is missing or unknown (rejected for it) does
  -- not make a second currency.
  if v_totals.min_currency is distinct from v_totals.max_currency
     or coalesce(v_batch.manifest ?| array['control_totals', 'net_totals', 'tax_totals'], false) then
    select coalesce(jsonb_agg(to_jsonb(c) order by c.currency), '[]'),
           count(*) filter (where exists (select from ingest.currency as k
                                          where k.code = c.currency)) > 1
      into v_currencies, v_multi
    from ingest.staged_currency_totals(p_batch_id) as c;
  else
    v_multi := false;
  end if;
  v_raw := v_totals.raw_rows;
  v_typed := v_totals.typed_rows;
  v_staged := v_raw + v_typed;
  if v_staged is distinct from v_batch.staged_count or (v_raw > 0 and v_typed > 0) then
    -- emptied by a server crash (unlogged), or rows written next to the
    -- batch's own: the checkpoint does not hold; stage again
    perform ingest.restage_lost_batch(p_batch_id, 'staged', p_attempt_id);
    return query select 'received'::text, null::integer, null::integer;
    return;
  end if;
  v_typed_path := v_typed > 0;
  -- the loader's rows, none failing a field rule: steps 1 and 2 have
  -- nothing to write or delete, and two scans of the batch are saved
  v_clean := v_typed_path and v_totals.failing_rows = 0;

  -- 1. The records that fail a field rule: one rejection row per rule
  --    they fail, with the rule's sentence for a clerk
  --    (ingest.field_rule.sentence) and the record's readable gross
  --    amount.  The loader decided the rules in its pass (the bits of
  --    ingest.field_rule, the fields as in the file in raw_fields); raw
  --    rows are checked here (ingest.failing_records, a parallel scan).
  if not v_clean then
    insert into ingest.rejection_row (batch_id, record_no, invoice_number, rule, detail,
                                      gross_amount, currency, fields)
    select p_batch_id, l.record_no, ingest.printable(left(l.invoice_number, 64)), fr.rule,
           -- the rule's sentence (ingest.field_rule, whose migration lists
           -- the arguments) with values from the file, never raw control
           -- characters
           ingest.printable(format(fr.sentence, variadic array[
             left(l.invoice_number, 80), left(l.revision, 40), left(l.status, 40),
             left(l.document_type, 40), left(l.invoice_date, 40), left(l.due_date, 40),
             left(l.currency, 40), left(l.net_amount, 40), left(l.tax_amount, 40),
             left(l.gross_amount, 40), to_char(v_batch.business_date, 'YYYY-MM-DD'),
             c.minor_unit::text, l.net_amount, l.tax_amount, l.gross_amount])
             -- how a source's file format read the values, if it did
             || coalesce(' (' || l.note || ')', '')),
           l.gross, c.code, l.fields
    from (select f.record_no, f.rules, r.invoice_number, r.revision, r.status, r.document_type,
                 r.invoice_date, r.due_date, r.currency, r.net_amount, r.tax_amount,
                 r.gross_amount,
                 case when ingest.is_plain_decimal(r.gross_amount)
                      then r.gross_amount::numeric end as gross,
                 array[r.invoice_number, r.revision, r.status, r.document_type, r.customer_id,
                       r.invoice_date, r.due_date, r.currency, r.net_amount, r.tax_amount,
                       r.gross_amount, r.description] as fields,
                 null::text as note
          from ingest.failing_records(p_batch_id, v_batch.business_date) as f
          join staging.invoice_line as r on r.batch_id = p_batch_id and r.record_no = f.record_no
          where not v_typed_path
          union all
          select v.record_no,
                 array(select fr.rule from ingest.field_rule as fr
                       where v.rules & (1 << fr.bit) <> 0 order by fr.bit),
                 -- the fields in the contract's order (migrations/0026);
                 -- customer_id (5) and description (12) are in no sentence
                 v.raw_fields[1], v.raw_fields[2], v.raw_fields[3], v.raw_fields[4],
                 v.raw_fields[6], v.raw_fields[7], v.raw_fields[8], v.raw_fields[9],
                 v.raw_fields[10], v.raw_fields[11], v.gross_amount, v.raw_fields,
                 left(v.format_note, 1000)
          from staging.invoice_valid as v
          where v_typed_path and v.batch_id = p_batch_id and v.rules <> 0) as l
    left join ingest.currency as c on c.code = l.currency
    cross join lateral unnest(l.rules) as u (code)
    join ingest.field_rule as fr on fr.rule = u.code;
  end if;

  -- 2. The loader's rows: the rejected ones leave (what is left is what
  --    the loader typed, canonical and hashed).  Raw rows: typed copies of
  --    the others, amounts at the currency's scale.  Every value here
  --    passed its pattern in step 1, so these are the casts of
  --    ingest.failing_records on text they accept.
  if v_clean then
    null;
  elsif v_typed_path then
    delete from staging.invoice_valid as v where v.batch_id = p_batch_id and v.rules <> 0;
  else
    insert into staging.invoice_valid (batch_id, record_no, invoice_number, revision, status,
                                       document_type, customer_id, invoice_date, due_date, currency,
                                       net_amount, tax_amount, gross_amount, description,
                                       content_hash, is_duplicate)
    select p_batch_id, t.record_no, t.invoice_number, t.revision, t.status, t.document_type,
           t.customer_id, t.invoice_date, t.due_date, t.currency, t.net, t.tax, t.gross,
           t.description,
           ingest.content_hash(t.status, t.document_type, t.customer_id, t.invoice_date,
                               t.due_date, t.currency, t.net, t.tax, t.gross, t.description),
           false
    from (select l.record_no, l.invoice_number, l.revision::integer as revision, l.status,
                 l.document_type, l.customer_id, l.invoice_date::date as invoice_date,
                 nullif(l.due_date, '')::date as due_date, l.currency,
                 round(l.net_amount::numeric, c.minor_unit) as net,
                 round(l.tax_amount::numeric, c.minor_unit) as tax,
                 round(l.gross_amount::numeric, c.minor_unit) as gross,
                 nullif(l.description, '') as description
          from staging.invoice_line as l
          join ingest.currency as c on c.code = l.currency
          where l.batch_id = p_batch_id
            and not exists (select from ingest.rejection_row as r
                            where r.batch_id = p_batch_id and r.record_no = l.record_no)) as t;
  end if;

  -- 3. The same (invoice_number, revision) more than once in the file:
  --    identical records count once (the first is kept, the others are
  --    marked is_duplicate), different ones are all rejected.  No join:
  --    staging.invoice_valid was just written and its statistics are those
  --    of whenever it was last analyzed (empty, as a rule: autovacuum
  --    after the previous publication), and a join planned on them was a
  --    nested loop over the whole batch per repeated key (48,000 records
  --    with 2,000 repeats: 20 s; docs/PERFORMANCE.md).  So: a plain count
  --    (one hash or sort pass) says whether any key repeats, which in most
  --    files none does; then one window pass over the batch's rows, sorted
  --    by key and record number, gives each row its key's copies, first
  --    record and whether the copies differ; the marks and deletions find
  --    their rows by ctid (same transaction, rows not otherwise touched;
  --    with the batch's id, which keeps them to its partition: a ctid is
  --    unique within a partition, not across them).
  --    When the file has as many distinct invoice numbers as records
  --    (step 0), no key repeats and even the count is skipped.
  if v_totals.distinct_keys = v_staged then
    v_repeats := false;
  else
    perform 1 from staging.invoice_valid as v
     where v.batch_id = p_batch_id
     group by v.invoice_number, v.revision
    having count(*) > 1
     limit 1;
    v_repeats := found;
  end if;
  if v_repeats then
    with k as materialized (
      select y.tid, y.record_no, y.invoice_number, y.revision, y.first_record, y.records,
             y.gross_amount, y.currency,
             bool_or(y.content_hash <> y.first_hash)
               over (partition by y.invoice_number, y.revision) as conflicting
      from (select x.*
            from (select v.ctid as tid, v.record_no, v.invoice_number, v.revision,
                         v.content_hash, v.gross_amount, v.currency,
                         count(*) over w as copies,
                         first_value(v.record_no) over w as first_record,
                         first_value(v.content_hash) over w as first_hash,
                         array_to_string((array_agg(v.record_no) over w)[1:10], ', ') as records
                  from staging.invoice_valid as v
                  where v.batch_id = p_batch_id
                  window w as (partition by v.invoice_number, v.revision order by v.record_no
                               rows between unbounded preceding and unbounded following)) as x
            where x.copies > 1) as y),
    conflicting as (
      insert into ingest.rejection_row (batch_id, record_no, invoice_number, rule, detail,
                                        gross_amount, currency, fields)
      select p_batch_id, k.record_no, k.invoice_number, 'duplicate.conflict',
             format('invoice %s revision %s appears with different content in records %s',
                    k.invoice_number, k.revision, k.records),
             k.gross_amount, k.currency,
             (select ingest.typed_fields(v) from staging.invoice_valid as v
              where v.batch_id = p_batch_id and v.record_no = k.record_no)
      from k
      where k.conflicting
      returning record_no),
    marked as (
      update staging.invoice_valid as v
         set is_duplicate = true
       where v.batch_id = p_batch_id
         and v.ctid = any (array(select k.tid from k
                                 where not k.conflicting and k.record_no <> k.first_record))
      returning 1)
    delete from staging.invoice_valid as v
     where v.batch_id = p_batch_id
       and v.ctid = any (array(select k.tid from k where k.conflicting));
  end if;

  -- 4. Revisions are immutable: a published (key, revision) with other
  --    content.  The stamp is taken first: publication reads history again
  --    only if a publication or revert of the source committed since.
  v_stamp := ingest.history_stamp(v_batch.source);
  perform ingest.reject_revision_conflicts(p_batch_id, v_batch.source,
                                           v_totals.distinct_keys = v_staged,
                                           v_totals.min_key, v_totals.max_key);

  -- 5. Reconciliation against the manifest (totals of step 0).
  v_keys := v_totals.distinct_keys;
  v_sum := v_totals.gross_sum;
  v_unreadable := v_totals.unreadable;

  if v_batch.record_count is not null and v_batch.record_count <> v_staged then
    v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.record_count', 'record_no', 0,
      'detail', format('the file has %s records; the manifest says %s', v_staged, v_batch.record_count));
  end if;
  -- Per currency (a single total on a file of several currencies is a
  -- problem of its own), ingest.reconcile_currencies.
  v_reasons := v_reasons || ingest.reconcile_currencies(v_currencies, v_batch.manifest, v_multi);
  if v_batch.control_total is not null and not v_multi then
    if v_unreadable > 0 then
      v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.control_total', 'record_no', 0,
        'detail', format('%s records have no readable gross_amount; the control total %s cannot be proven',
                         v_unreadable, v_batch.control_total));
    elsif coalesce(v_sum, 0) <> v_batch.control_total then
      v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.control_total', 'record_no', 0,
        'detail', format('gross_amount sums to %s; the manifest says %s',
                         coalesce(v_sum, 0), v_batch.control_total));
    end if;
  end if;
  -- net_total and tax_total (optional; their form was checked by
  -- ingest.parse_manifest): a file whose net and tax columns are swapped
  -- passes every other check, since net + tax = gross either way.
  foreach v_part in array array['net', 'tax'] loop
    v_expect_part := v_batch.manifest ->> (v_part || '_total');
    continue when v_expect_part is null or v_multi;
    if v_part = 'net' then
      v_part_sum := v_totals.net_sum;
      v_part_unreadable := v_totals.net_unreadable;
    else
      v_part_sum := v_totals.tax_sum;
      v_part_unreadable := v_totals.tax_unreadable;
    end if;
    if v_part_unreadable > 0 then
      v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.' || v_part || '_total',
        'record_no', 0,
        'detail', format('%s records have no readable %s_amount; the %s_total %s cannot be proven',
                         v_part_unreadable, v_part, v_part, v_expect_part));
    elsif coalesce(v_part_sum, 0) <> v_expect_part::numeric then
      v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.' || v_part || '_total',
        'record_no', 0,
        'detail', format('%s_amount sums to %s; the manifest''s %s_total says %s',
                         v_part, coalesce(v_part_sum, 0), v_part, v_expect_part));
    end if;
  end loop;
  v_expect_keys := v_batch.manifest ->> 'distinct_keys';
  if v_expect_keys is not null and v_expect_keys::integer <> v_keys then
    v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.distinct_keys', 'record_no', 0,
      'detail', format('the file has %s distinct invoice numbers; the manifest says %s',
                       v_keys, v_expect_keys));
  end if;

  -- 6. The policy decides.
  v_rejected := ingest.rejected_records(p_batch_id);
  v_accepted := v_staged - v_rejected;
  v_reasons := v_reasons
               || coalesce(ingest.rejected_share_problem(v_source, v_rejected, v_staged), '[]');

  update ingest.batch as b
     set accepted_count = v_accepted, rejected_count = v_rejected, distinct_keys = v_keys,
         history_stamp = v_stamp
   where b.batch_id = p_batch_id;

  if jsonb_array_length(v_reasons) > 0
     or (v_rejected > 0 and v_source.policy = 'all-or-nothing') then
    perform ingest.clear_typed_staging(p_batch_id);
    perform ingest.quarantine_batch(p_batch_id, 'staged', p_attempt_id, v_reasons);
    return query select 'quarantined'::text, v_accepted, v_rejected;
    return;
  end if;

  perform ingest.transition(p_batch_id, 'staged', 'validated', p_attempt_id,
                            jsonb_build_object('accepted', v_accepted, 'rejected', v_rejected));
  return query select 'validated'::text, v_accepted, v_rejected;
end;
$$;
comment on function ingest.validate_batch(bigint, bigint) is
  E'Validate and reconcile a staged batch: validated or quarantined.\nErrors: IV201 batch not staged yet; IV208 no such batch.';
revoke all on function ingest.validate_batch(bigint, bigint) from public;
grant execute on function ingest.validate_batch(bigint, bigint) to invoice_loader;
