-- ingest.validate_batch / publish_batch on the loader's typed rows
-- (staging.invoice_valid) over a history: validation takes the batch's key
-- range from ingest.staged_totals and reads history only inside it
-- (ingest.reject_revision_conflicts).  A batch whose new key is its lowest
-- and whose amendment is its highest (INV-3, published the day before)
-- must find INV-3's current version at both ends of that range: the
-- amendment supersedes it, the new key is inserted, and an identical
-- resend in the middle (INV-2) counts as unchanged.  A range cut short at
-- either end would miss the history and publish a second current version
-- of INV-3 (23505) or count the resend as new.
begin;
select plan(5);

select tests.make_source() as source \gset
select outcome as a_outcome from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-1'), tests.line('INV-2'), tests.line('INV-3')]) \gset

select batch_id as b, attempt_id as b_attempt
from tests.stage_batch(:'source', tests.d() + 1, array[
  tests.line('INV-0'), tests.line('INV-2'),
  tests.line('INV-3', p_revision => '1', p_net_amount => '200.00', p_tax_amount => '40.00',
             p_gross_amount => '240.00')], p_stage => false) \gset
-- the rows as the loader sends them: typed, canonical, hashed, no rule failed
create temp table loader_rows as
select :b::bigint as batch_id, r.record_no, 0 as rules, r.invoice_number, r.revision,
       'ISSUED'::text as status, 'INVOICE'::text as document_type, 'CUST-1'::text as customer_id,
       date '2026-11-20' as invoice_date, null::date as due_date, 'EUR'::text as currency,
       r.net, r.tax, r.gross, null::text as description,
       ingest.content_hash('ISSUED', 'INVOICE', 'CUST-1', date '2026-11-20', null, 'EUR',
                           r.net, r.tax, r.gross, null) as content_hash
from (values (1, 'INV-0', 0, 100.00, 20.00, 120.00),
             (2, 'INV-2', 0, 100.00, 20.00, 120.00),
             (3, 'INV-3', 1, 200.00, 40.00, 240.00)) as r(record_no, invoice_number, revision,
                                                          net, tax, gross);
grant select on loader_rows to invoice_loader;
set local role invoice_loader;
-- into the table ingest.typed_staging names for a small batch (0028)
insert into staging.invoice_valid_shared (batch_id, record_no, rules, invoice_number, revision, status,
                                   document_type, customer_id, invoice_date, due_date, currency,
                                   net_amount, tax_amount, gross_amount, description, content_hash)
select * from loader_rows;
reset role;
select ingest.mark_staged(:b, :b_attempt, 3);

select state as b_state from tests.validate(:b) \gset
select * from tests.publish(:b) \gset p_

select is(:'a_outcome' || ' ' || :'b_state' || ' ' || :'p_outcome',
          'published validated published', 'Both batches publish.');
select is((select string_agg(invoice_number || ' r' || revision, ', ' order by invoice_number)
           from reporting.invoice where source = :'source'),
          'INV-0 r0, INV-1 r0, INV-2 r0, INV-3 r1', 'INV-3 is current at revision 1.');
select is((select count(*)::integer from core.invoice_version
           where source = :'source' and invoice_number = 'INV-3' and is_current), 1,
          'INV-3 has one current version.');
select is(((:'p_counts'::jsonb) ->> 'amended') || ' ' || ((:'p_counts'::jsonb) ->> 'inserted')
          || ' ' || ((:'p_counts'::jsonb) ->> 'unchanged'),
          '1 1 1', 'One amended, one inserted, one unchanged.');
select is((select superseded_by_batch_id from core.invoice_version
           where source = :'source' and invoice_number = 'INV-3' and revision = 0), :b::bigint,
          'Revision 0 of INV-3 was superseded by the typed batch.');

select * from finish();
rollback;
