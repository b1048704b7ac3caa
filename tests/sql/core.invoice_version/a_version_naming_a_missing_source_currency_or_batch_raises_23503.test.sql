-- core.invoice_version: the references its foreign keys used to check are
-- checked per statement by trigger core.check_invoice_version_refs, with
-- the foreign keys' SQLSTATE 23503, even for a superuser writing past the
-- entry points: an inserted version naming an unknown currency, an unknown
-- source, a batch that does not exist or a superseding batch that does not
-- exist is refused, and so is a multi-row insert with one such row (none of
-- its rows stays); an UPDATE recording a supersession by a batch that does
-- not exist is refused.  The same statements with existing references
-- succeed.
begin;
select plan(10);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset
select max(batch_id) + 1000 as missing_batch from ingest.batch \gset

-- One version row as publication writes it; superseded (not current) when
-- p_superseded_by is given.
create function tests.version_values(
  p_source text, p_invoice_number text, p_currency text, p_batch_id bigint,
  p_superseded_by bigint default null)
returns text
language sql
as $$
  select format($v$(%L, %L, 0, 'ISSUED', 'INVOICE', 'CUST-1', date '2026-11-20', %L, 100, 20, 120,
                    '\x01', %s, 1, %L, %s, %s, now())$v$,
                p_source, p_invoice_number, p_currency, p_batch_id, p_superseded_by is null,
                coalesce(p_superseded_by::text, 'null'),
                case when p_superseded_by is null then 'null' else 'now()' end)
$$;
create function tests.insert_versions(variadic p_values text[])
returns text
language sql
as $$
  select 'insert into core.invoice_version (source, invoice_number, revision, status, document_type,
            customer_id, invoice_date, currency, net_amount, tax_amount, gross_amount, content_hash,
            batch_id, record_no, is_current, superseded_by_batch_id, superseded_at, published_at)
          values ' || array_to_string(p_values, ', ')
$$;

select throws_ok(tests.insert_versions(tests.version_values(:'source', 'INV-2', 'XXX', :batch_id)),
                 '23503', null, 'A version in an unknown currency is refused.');
select throws_ok(tests.insert_versions(tests.version_values('no-such-source', 'INV-2', 'EUR', :batch_id)),
                 '23503', null, 'A version of an unknown source is refused.');
select throws_ok(tests.insert_versions(tests.version_values(:'source', 'INV-2', 'EUR', :missing_batch)),
                 '23503', null, 'A version of a batch that does not exist is refused.');
select throws_ok(tests.insert_versions(tests.version_values(:'source', 'INV-2', 'EUR', :batch_id,
                                                            :missing_batch)),
                 '23503', null, 'A version superseded by a batch that does not exist is refused.');
select throws_ok(tests.insert_versions(tests.version_values(:'source', 'INV-2', 'EUR', :batch_id),
                                       tests.version_values(:'source', 'INV-3', 'XXX', :batch_id)),
                 '23503', null, 'A two-row insert with one unknown currency is refused.');
select is((select count(*)::integer from core.invoice_version as cv where cv.source = :'source'), 1,
          'None of the refused rows stays: only the published INV-1.');
select lives_ok(tests.insert_versions(tests.version_values(:'source', 'INV-2', 'EUR', :batch_id),
                                      tests.version_values(:'source', 'INV-3', 'EUR', :batch_id,
                                                           :batch_id)),
                'The same rows with an existing source, currency and batches are accepted.');

select throws_ok(format($$ update core.invoice_version
                             set is_current = false, superseded_by_batch_id = %s, superseded_at = now()
                           where source = %L and invoice_number = 'INV-1' $$, :missing_batch, :'source'),
                 '23503', null, 'Recording a supersession by a batch that does not exist is refused.');
select is((select (cv.is_current, cv.superseded_by_batch_id)::text from core.invoice_version as cv
           where cv.source = :'source' and cv.invoice_number = 'INV-1'),
          '(t,)', 'INV-1 stays current.');
select lives_ok(format($$ update core.invoice_version
                            set is_current = false, superseded_by_batch_id = %s, superseded_at = now()
                          where source = %L and invoice_number = 'INV-1' $$, :batch_id, :'source'),
                'Recording a supersession by an existing batch is allowed.');

select * from finish();
rollback;
