-- core.invoice_version: the partial unique index invoice_version_one_current
-- makes a second current version of a business key impossible (23505), even
-- for a superuser writing past the entry points; a non-current version of
-- the same key is fine.
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset

select is((select count(*)::integer from core.invoice_version as cv
           where cv.source = :'source' and cv.invoice_number = 'INV-1' and cv.is_current), 1,
          'Publication leaves INV-1 with one current version.');

select throws_ok(format($$
  insert into core.invoice_version (source, invoice_number, revision, status, document_type,
    customer_id, invoice_date, currency, net_amount, tax_amount, gross_amount, content_hash,
    batch_id, record_no, is_current, published_at)
  values (%L, 'INV-1', 1, 'ISSUED', 'INVOICE', 'CUST-1', date '2026-11-20', 'EUR', 100, 20, 120,
          '\x01', %s, 1, true, now()) $$, :'source', :batch_id),
  '23505', null, 'A second current version of INV-1 is refused by the unique index.');

select lives_ok(format($$
  insert into core.invoice_version (source, invoice_number, revision, status, document_type,
    customer_id, invoice_date, currency, net_amount, tax_amount, gross_amount, content_hash,
    batch_id, record_no, is_current, superseded_by_batch_id, superseded_at, published_at)
  values (%L, 'INV-1', 1, 'ISSUED', 'INVOICE', 'CUST-1', date '2026-11-20', 'EUR', 100, 20, 120,
          '\x01', %s, 1, false, %s, now(), now()) $$, :'source', :batch_id, :batch_id),
  'A non-current version of INV-1 is accepted.');

select is((select count(*)::integer from core.invoice_version as cv
           where cv.source = :'source' and cv.invoice_number = 'INV-1' and cv.is_current), 1,
          'INV-1 still has exactly one current version.');

select * from finish();
rollback;
