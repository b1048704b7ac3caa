-- ingest.publish_batch, one file carrying revisions 0 and 2 of INV-1 (and
-- INV-2 once): revision 2 wins and is current, revision 0 goes to history
-- superseded by this same batch, and INV-2 is current.  The merge has two
-- forms (a file whose invoice numbers are all distinct skips the per-key
-- maximum); this file has a repeated number, so it takes the general one,
-- and the next date, all numbers distinct, the short one: INV-1 revision 3
-- supersedes revision 2 there.  A merge that took the short form for the
-- first file would make both revisions of INV-1 current (23505).
begin;
select plan(6);

select tests.make_source() as source \gset
select batch_id as b1, outcome as o1 from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_revision => '0'),
  tests.line('INV-2'),
  tests.line('INV-1', p_revision => '2', p_net_amount => '200.00', p_tax_amount => '40.00',
             p_gross_amount => '240.00')]) \gset

select is(:'o1'::text, 'published', 'The file with two revisions of INV-1 publishes.');
select is((select distinct_keys || ' of ' || staged_count from ingest.batch where batch_id = :b1),
          '2 of 3', 'Its three records carry two invoice numbers.');
select is((select string_agg(invoice_number || ' r' || revision || ' ' || is_current
                             || coalesce(' by ' || (superseded_by_batch_id = :b1)::text, ''),
                             ', ' order by invoice_number, revision)
           from core.invoice_version where batch_id = :b1),
          'INV-1 r0 false by true, INV-1 r2 true, INV-2 r0 true',
          'Revision 2 is current; revision 0 is history, superseded by the same batch.');
select is((select (merge_counts ->> 'inserted') || ' ' || (merge_counts ->> 'late')
           from ingest.batch where batch_id = :b1),
          '2 1', 'Two invoices inserted, one version went straight to history.');

select batch_id as b2, outcome as o2 from tests.load_batch(:'source', tests.d() + 1, array[
  tests.line('INV-1', p_revision => '3', p_net_amount => '300.00', p_tax_amount => '60.00',
             p_gross_amount => '360.00'),
  tests.line('INV-3')]) \gset
select is((select string_agg(invoice_number || ' r' || revision, ', ' order by invoice_number)
           from reporting.invoice where source = :'source'),
          'INV-1 r3, INV-2 r0, INV-3 r0',
          'The next file (distinct numbers) amends INV-1 to revision 3 and adds INV-3.');
select is((select (merge_counts ->> 'amended') || ' ' || (merge_counts ->> 'inserted')
           from ingest.batch where batch_id = :b2),
          '1 1', 'It counts one amended and one inserted invoice.');

select * from finish();
rollback;
