-- core.invoice_version: trigger core.keep_referenced_rows keeps what a
-- version names, as the foreign keys did (23503), even for a superuser:
-- deleting the currency of a published version, a source named only by
-- versions, a batch named only as a version's batch, or a batch named only
-- as a version's superseding batch raises 23503 and deletes nothing (the
-- sources and batches here are referenced by versions alone, so no other
-- foreign key can be what refuses).  A currency, source or batch that no
-- version names is deleted.
begin;
select plan(10);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset
select tests.make_source('versions-only') as other_source \gset
select tests.make_source('unused-source') as unused_source \gset
select tests.make_batch(:'source', tests.d() + 1) as own_batch \gset
select tests.make_batch(:'source', tests.d() + 2) as superseding_batch \gset
select tests.make_batch(:'source', tests.d() + 3) as unused_batch \gset

-- A version of source versions-only (published by the batch of acme-erp),
-- one of batch own_batch, and INV-1 superseded by superseding_batch.
insert into core.invoice_version (source, invoice_number, revision, status, document_type,
  customer_id, invoice_date, currency, net_amount, tax_amount, gross_amount, content_hash,
  batch_id, record_no, is_current, published_at)
values (:'other_source', 'INV-9', 0, 'ISSUED', 'INVOICE', 'CUST-1', date '2026-11-20', 'EUR',
        100, 20, 120, '\x01', :batch_id, 1, true, now()),
       (:'source', 'INV-8', 0, 'ISSUED', 'INVOICE', 'CUST-1', date '2026-11-20', 'EUR',
        100, 20, 120, '\x01', :own_batch, 1, true, now());
update core.invoice_version set is_current = false, superseded_by_batch_id = :superseding_batch,
                                superseded_at = now()
 where source = :'source' and invoice_number = 'INV-1';

select throws_ok($$ delete from ingest.currency where code = 'EUR' $$, '23503', null,
                 'The currency of published versions cannot be deleted.');
select throws_ok($$ delete from ingest.currency where code in ('EUR', 'XPF') $$, '23503', null,
                 'Nor together with an unused one.');
select throws_ok(format($$ delete from ingest.source where source = %L $$, :'other_source'), '23503', null,
                 'A source named by a version cannot be deleted.');
select throws_ok(format($$ delete from ingest.batch where batch_id = %s $$, :own_batch), '23503', null,
                 'The batch of a version cannot be deleted.');
select throws_ok(format($$ delete from ingest.batch where batch_id = %s $$, :superseding_batch), '23503', null,
                 'The batch that superseded a version cannot be deleted.');
select is((select count(*)::integer from ingest.currency where code in ('EUR', 'XPF'))
          + (select count(*)::integer from ingest.source where source = :'other_source')
          + (select count(*)::integer from ingest.batch where batch_id in (:own_batch, :superseding_batch)),
          5, 'Nothing was deleted.');

select lives_ok($$ delete from ingest.currency where code = 'XPF' $$,
                'A currency no version uses is deleted.');
select lives_ok(format($$ delete from ingest.source where source = %L $$, :'unused_source'),
                'A source no version names is deleted.');
select lives_ok(format($$ delete from ingest.batch where batch_id = %s $$, :unused_batch),
                'A batch no version names is deleted.');
select is((select count(*)::integer from ingest.currency where code = 'XPF')
          + (select count(*)::integer from ingest.source where source = :'unused_source')
          + (select count(*)::integer from ingest.batch where batch_id = :unused_batch),
          0, 'They are gone.');

select * from finish();
rollback;
