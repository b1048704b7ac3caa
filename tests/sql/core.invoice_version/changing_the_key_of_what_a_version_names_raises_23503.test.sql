-- core.invoice_version: trigger core.keep_referenced_rows (after update)
-- keeps the key of what a version names, as the foreign keys did (23503),
-- even for a superuser: changing the code of the currency of a published
-- version, the key of a source named only by versions, or the batch_id of a
-- batch named only as a version's batch or only as a version's superseding
-- batch raises 23503 and changes nothing (the sources and batches here are
-- referenced by versions alone, so no other foreign key can be what
-- refuses; batch_id is GENERATED ALWAYS, so its only new value is DEFAULT).
-- An update of a used row that keeps its key (minor_unit, updated_at,
-- state, the key set to itself) works, and so does renaming a currency no
-- version uses.
begin;
select plan(15);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset
select tests.make_source('versions-only') as other_source \gset
select tests.make_batch(:'source', tests.d() + 1) as own_batch \gset
select tests.make_batch(:'source', tests.d() + 2) as superseding_batch \gset

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

-- The keys of what the versions name.
create temporary table named_keys as
select (select string_agg(code || ':' || minor_unit, ' ' order by code) from ingest.currency
         where code in ('EUR', 'XPF')) as currencies,
       (select string_agg(source, ' ' order by source) from ingest.source) as sources,
       (select string_agg(batch_id::text, ' ' order by batch_id) from ingest.batch) as batches;

select throws_ok($$ update ingest.currency set code = 'EUX' where code = 'EUR' $$, '23503', null,
                 'The code of the currency of published versions cannot be changed.');
select throws_ok($$ update ingest.currency set code = case code when 'EUR' then 'EUX' else 'XPX' end
                     where code in ('EUR', 'XPF') $$, '23503', null,
                 'Nor together with that of an unused one.');
select throws_ok(format($$ update ingest.source set source = 'renamed-source' where source = %L $$,
                        :'other_source'), '23503', null,
                 'The key of a source named by a version cannot be changed.');
select throws_ok(format($$ update ingest.batch set batch_id = default where batch_id = %s $$, :own_batch),
                 '23503', null, 'The batch_id of a version''s batch cannot be changed.');
select throws_ok(format($$ update ingest.batch set batch_id = default where batch_id = %s $$,
                        :superseding_batch),
                 '23503', null, 'The batch_id of the batch that superseded a version cannot be changed.');
select is((select (c.currencies, c.sources, c.batches)::text from named_keys as c),
          (select ((select string_agg(code || ':' || minor_unit, ' ' order by code) from ingest.currency
                     where code in ('EUR', 'XPF')),
                   (select string_agg(source, ' ' order by source) from ingest.source),
                   (select string_agg(batch_id::text, ' ' order by batch_id) from ingest.batch))::text),
          'Nothing was changed: the same currencies, sources and batch ids.');
select is((select count(*)::integer from ingest.currency where code in ('EUX', 'XPX'))
          + (select count(*)::integer from ingest.source where source = 'renamed-source'),
          0, 'No renamed row exists.');

select lives_ok($$ update ingest.currency set minor_unit = 3 where code = 'EUR' $$,
                'The minor unit of a used currency can be changed.');
select lives_ok($$ update ingest.currency set code = code where code = 'EUR' $$,
                'Setting a used currency''s code to itself is no change of key.');
select lives_ok(format($$ update ingest.source set updated_at = now() where source = %L $$, :'other_source'),
                'A source named by a version can be updated without changing its key.');
select lives_ok(format($$ update ingest.batch set updated_at = now(), state = 'quarantined'
                          where batch_id in (%s, %s) $$, :own_batch, :superseding_batch),
                'A batch named by a version can be updated without changing its batch_id.');
select is((select (c.minor_unit, b.n)::text
           from ingest.currency as c,
                (select count(*)::integer as n from ingest.batch
                  where batch_id in (:own_batch, :superseding_batch) and state = 'quarantined') as b
           where c.code = 'EUR'),
          '(3,2)', 'Those updates took effect.');

select lives_ok($$ update ingest.currency set code = 'XPX' where code = 'XPF' $$,
                'A currency no version uses can be renamed.');
select is((select string_agg(code, ' ' order by code) from ingest.currency where code in ('XPF', 'XPX')),
          'XPX', 'It was renamed.');
select is((select count(*)::integer from core.invoice_version as v
           where v.currency = 'EUR'
             and exists (select from ingest.currency as c where c.code = v.currency)
             and exists (select from ingest.source as s where s.source = v.source)
             and exists (select from ingest.batch as b where b.batch_id = v.batch_id)
             and (v.superseded_by_batch_id is null
                  or exists (select from ingest.batch as b where b.batch_id = v.superseded_by_batch_id))),
          3, 'Every version still names an existing currency, source and batch.');

select * from finish();
rollback;
