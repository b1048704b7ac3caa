-- invoice_reader (SELECT on reporting only): reads reporting.invoice and
-- reporting.invoice_version, and gets 42501 on core.invoice_version,
-- ingest.batch, the ingest operator views and staging.
begin;
select plan(6);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.seed_lines(20)) \gset

set local role invoice_reader;
select is((select (count(*), sum(i.gross_amount))::text from reporting.invoice as i),
          '(20,4200.00)', 'The reader sees the 20 published invoices in reporting.invoice.');
select is((select count(*)::integer from reporting.invoice_version), 20,
          'The reader sees their versions in reporting.invoice_version.');
select throws_ok('select 1 from core.invoice_version', '42501', null,
                 'The reader cannot select core.invoice_version.');
select throws_ok('select 1 from ingest.batch', '42501', null,
                 'The reader cannot select ingest.batch.');
select throws_ok('select 1 from ingest.batch_overview', '42501', null,
                 'The reader cannot select the operator view ingest.batch_overview.');
select throws_ok('select 1 from staging.invoice_line', '42501', null,
                 'The reader cannot select staging.invoice_line.');
reset role;

select * from finish();
rollback;
