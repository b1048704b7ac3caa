-- ingest.publish_batch: a batch validated when all its keys were new, that
-- waited for the day before, reads its keys' history again at publication:
-- a key the day before published meanwhile with other content under the
-- same revision is rejected (revision.conflict), a lower revision published
-- meanwhile is amended, the rest are inserted.  The two published keys are
-- the batch's lowest and highest: the edges of the fast path's key range.
begin;
select plan(5);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.5) as source \gset
select state as first_state from tests.load_batch(:'source', tests.d(), array[tests.line('INV-A1')]) \gset
select batch_id as day_d2, outcome as first_try from tests.load_batch(:'source', tests.d() + 2, array[
  tests.line('INV-K2'),
  tests.line('INV-K3'),
  tests.line('INV-K5'),
  tests.line('INV-K7', p_revision => '1', p_net_amount => '200.00', p_tax_amount => '40.00',
             p_gross_amount => '240.00')]) \gset
select outcome as day_d1_outcome from tests.load_batch(:'source', tests.d() + 1, array[
  tests.line('INV-K2', p_net_amount => '90.00', p_tax_amount => '18.00', p_gross_amount => '108.00'),
  tests.line('INV-K7')]) \gset

select is(format('%s %s %s', :'first_state', :'first_try', :'day_d1_outcome'),
          'published waiting published', 'D publishes, D+2 waits, D+1 publishes.');
select * from tests.publish(:day_d2) \gset retry_
select is(:'retry_outcome'::text, 'published', 'D+2 publishes on the next try.');
select is(tests.rejections(:day_d2), array['1 revision.conflict'],
          'Record 1 (published meanwhile with other content) is rejected with revision.conflict.');
select is((select format('inserted=%s amended=%s unchanged=%s rejected=%s',
                         b.merge_counts ->> 'inserted', b.merge_counts ->> 'amended',
                         b.merge_counts ->> 'unchanged', b.merge_counts ->> 'rejected')
           from ingest.batch as b where b.batch_id = :day_d2),
          'inserted=2 amended=1 unchanged=0 rejected=1',
          'Two keys inserted, the highest one (published meanwhile at revision 0) amended.');
select is((select array_agg(i.invoice_number || ' r' || i.revision || ' ' || i.gross_amount
                            order by i.invoice_number)
           from reporting.invoice as i where i.source = :'source'),
          array['INV-A1 r0 120.00', 'INV-K2 r0 108.00', 'INV-K3 r0 120.00',
                'INV-K5 r0 120.00', 'INV-K7 r1 240.00'],
          'reporting.invoice keeps D+1''s content for the conflicting key and shows the amendment.');

select * from finish();
rollback;
