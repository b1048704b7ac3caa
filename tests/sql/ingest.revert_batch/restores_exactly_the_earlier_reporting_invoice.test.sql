-- ingest.revert_batch of the latest publication: reporting.invoice is
-- again exactly what it was before that publication (set_eq against a
-- snapshot): the amended and voided invoices are back at their earlier
-- versions, the new one is gone, the unchanged and late records leave no
-- trace.  The batch's four versions left core.invoice_version (and
-- reporting.invoice_version) for core.invoice_version_reverted; the two it
-- superseded are current again.
begin;
select plan(6);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) \gset
create temp table before_second on commit drop as
  select * from reporting.invoice where source = :'source';
create temp table versions_before on commit drop as
  select * from reporting.invoice_version where source = :'source';
select batch_id as second, state from tests.load_batch(:'source', tests.d() + 1, tests.second_day_lines()) \gset
select is(:'state'::text, 'published', 'The second day publishes.');

select * from ingest.revert_batch(:second, 'the sender published the wrong file') \gset r_

select set_eq(format('select * from reporting.invoice where source = %L', :'source'),
              'select * from before_second',
              'reporting.invoice is exactly what it was before the reverted publication.');
select set_eq(format('select * from reporting.invoice_version where source = %L', :'source'),
              'select * from versions_before',
              'reporting.invoice_version is too.');
select is((:r_reverted_versions, :r_restored_versions)::text, '(4,2)',
          'The batch''s four versions (amendment, void, new invoice, late revision) are reverted; the two it superseded restored.');
select is((select count(*)::integer from core.invoice_version_reverted as r
           where r.batch_id = :second and r.reverted_by_action = :r_action_id), 4,
          'Its four versions are kept in history, marked with the revert.');
select is_empty(format('select 1 from core.invoice_version where batch_id = %s', :second),
                'None of its versions is left in core.invoice_version.');

select * from finish();
rollback;
