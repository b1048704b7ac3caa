-- ingest.validate_batch's two ways in (migrations/0014): the loader's typed
-- rows (staging.invoice_valid, the bits of the rules each record fails and,
-- for a failed record, its fields as in the file) and raw rows
-- (staging.invoice_line, checked by ingest.failing_records).  The same
-- file staged both ways gives the same rejection rows (rule, sentence,
-- gross amount), the same counts and reconciliation, and the same typed
-- rows.  Batch A is staged raw, as psql would; batch B (the next date)
-- gets typed rows as the loader sends them: the bits of A's rejections,
-- the readable values, the raw fields of the failed records, and for the
-- accepted records the typed rows A's validation wrote.  (The loader's own
-- rules are compared with these on a shared corpus by the e2e test
-- field_rules__loader_and_sql_agree_on_the_corpus.)
begin;
select plan(8);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.9) as source \gset
\set file 'array[tests.line(''INV-1''), tests.line(''INV-2'', p_net_amount => ''NaN''), tests.line(''INV-3'', p_status => ''PAID'', p_due_date => ''2026-11-01''), tests.line(''INV-4'', p_net_amount => ''100.005'', p_gross_amount => ''120.005''), tests.line(''INV-5'', p_currency => ''XXX''), tests.line(''bad number!'', p_revision => ''-1'', p_invoice_date => ''2026-02-30''), tests.line(''INV-7'', p_document_type => ''CREDIT_NOTE''), tests.line(''INV-8'', p_description => ''tab	and "quotes"'')]'

select batch_id as a from tests.stage_batch(:'source', tests.d(), :file) \gset
select state as a_state from tests.validate(:a) \gset

select batch_id as b, attempt_id as b_attempt
from tests.stage_batch(:'source', tests.d() + 1, :file, p_stage => false) \gset
-- what the loader would send, built from A (which the loader's role cannot read)
create temp table loader_rows as
select :b as batch_id, l.record_no,
       (select sum(1 << f.bit)::integer from ingest.rejection
        join ingest.field_rule as f using (rule)
        where batch_id = :a and record_no = l.record_no) as rules,
       l.invoice_number, null::integer as revision, l.status, l.document_type, l.customer_id,
       null::date as invoice_date, null::date as due_date, l.currency,
       case when ingest.is_plain_decimal(l.net_amount) then l.net_amount::numeric end as net_amount,
       case when ingest.is_plain_decimal(l.tax_amount) then l.tax_amount::numeric end as tax_amount,
       case when ingest.is_plain_decimal(l.gross_amount) then l.gross_amount::numeric end as gross_amount,
       l.description,
       array[l.invoice_number, l.revision, l.status, l.document_type, l.customer_id,
             l.invoice_date, l.due_date, l.currency, l.net_amount, l.tax_amount,
             l.gross_amount, l.description] as raw_fields
from staging.invoice_line as l
where l.batch_id = :a and l.record_no in (select record_no from ingest.rejection where batch_id = :a)
union all
select :b, v.record_no, 0, v.invoice_number, v.revision, v.status, v.document_type, v.customer_id,
       v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount, v.gross_amount,
       v.description, null
from staging.invoice_valid as v where v.batch_id = :a;
-- the typed rows' content hashes: A's, record by record
alter table loader_rows add column content_hash bytea;
update loader_rows as v set content_hash = x.content_hash
  from staging.invoice_valid as x
 where v.rules = 0 and x.batch_id = :a and x.record_no = v.record_no;
grant select on loader_rows to invoice_loader;
set local role invoice_loader;
-- into the table ingest.typed_staging names for a small batch (0028)
insert into staging.invoice_valid_shared (batch_id, record_no, rules, invoice_number, revision, status,
                                   document_type, customer_id, invoice_date, due_date, currency,
                                   net_amount, tax_amount, gross_amount, description,
                                   raw_fields, content_hash)
select * from loader_rows;
reset role;
select ingest.mark_staged(:b, :b_attempt, 8);
select state as b_state from tests.validate(:b) \gset

select is(:'a_state' || ' ' || :'b_state', 'validated validated', 'Both batches validate (partial policy).');
select cmp_ok((select count(*)::integer from ingest.rejection where batch_id = :a), '>=', 8,
              'The raw batch has its rejections (at least one rule per bad record).');
select set_eq(format('select record_no, invoice_number, rule, detail from ingest.rejection where batch_id = %s', :a),
              format('select record_no, invoice_number, rule, detail from ingest.rejection where batch_id = %s', :b),
              'The same rejection rows, rules and sentences, both ways.');
select set_eq(format('select record_no, rule, gross_amount from ingest.rejection_row where batch_id = %s', :a),
              format('select record_no, rule, gross_amount from ingest.rejection_row where batch_id = %s', :b),
              'The same gross amounts are kept with the rejections.');
select is((select array_agg(x.c order by x.batch_id)
           from (select batch_id, (accepted_count, rejected_count, distinct_keys)::text as c
                 from ingest.batch where batch_id in (:a, :b)) as x),
          (select array_agg(x.c) from (select (accepted_count, rejected_count, distinct_keys)::text as c
                                       from ingest.batch where batch_id = :a) as x, generate_series(1, 2)),
          'The same accepted, rejected and distinct-key counts.');
select is((select (accepted_count, rejected_count)::text from ingest.batch where batch_id = :b),
          '(2,6)', 'Two records are accepted (INV-1 and INV-8), six rejected.');
select set_eq(format('select record_no, invoice_number, revision, status, document_type, customer_id, invoice_date, due_date, currency, net_amount::text, tax_amount::text, gross_amount::text, description, content_hash, rules, is_duplicate from staging.invoice_valid where batch_id = %s', :a),
              format('select record_no, invoice_number, revision, status, document_type, customer_id, invoice_date, due_date, currency, net_amount::text, tax_amount::text, gross_amount::text, description, content_hash, rules, is_duplicate from staging.invoice_valid where batch_id = %s', :b),
              'The same typed rows are left for publication, rejected ones gone.');
select is((select count(*)::integer from staging.invoice_valid where batch_id = :b and rules <> 0), 0,
          'No row with a failed rule is left.');

select * from finish();
rollback;
