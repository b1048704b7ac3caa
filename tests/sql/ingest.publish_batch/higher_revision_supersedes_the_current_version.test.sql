-- ingest.publish_batch, merge: a higher revision of a published invoice wins.
-- reporting.invoice shows the new revision; reporting.invoice_version keeps
-- the old one, no longer current, with superseded_by_batch_id set to the
-- new batch; the merge counts one amended invoice.
begin;
select plan(5);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_revision => '0')]) \gset
select batch_id as second, outcome from tests.load_batch(:'source', tests.d() + 1, array[
  tests.line('INV-1', p_revision => '1', p_net_amount => '200.00', p_tax_amount => '40.00',
             p_gross_amount => '240.00')]) \gset

select is(:'outcome'::text, 'published', 'The batch with revision 1 publishes.');
select is((select array_agg(i.invoice_number || ' r' || i.revision || ' ' || i.gross_amount || ' b' || i.batch_id)
           from reporting.invoice as i where i.source = :'source'),
          array['INV-1 r1 240.00 b' || :second], 'reporting.invoice shows revision 1 only.');
select is((select array_agg(format('r%s current=%s superseded_by=%s', v.revision, v.is_current,
                                   coalesce(v.superseded_by_batch_id::text, '-')) order by v.revision)
           from reporting.invoice_version as v where v.source = :'source'),
          array['r0 current=f superseded_by=' || :second, 'r1 current=t superseded_by=-'],
          'reporting.invoice_version keeps revision 0, superseded by the new batch.');
select is((select cv.supersedes_revision from core.invoice_version as cv
           where cv.source = :'source' and cv.revision = 1), 0, 'Revision 1 records that it replaced revision 0.');
select is((select (b.merge_counts ->> 'amended')::integer from ingest.batch as b where b.batch_id = :second), 1,
          'The merge counts one amended invoice.');

select * from finish();
rollback;
