-- ingest.validate_batch / publish_batch: a batch of mostly new keys with a
-- few published ones among them, at the edges and inside its key range,
-- still has each published key's history read (the all-new fast path of
-- ingest.reject_revision_conflicts must not apply): other content under a
-- published revision is rejected (revision.conflict), an identical one is
-- unchanged, a higher revision is amended; the new keys are inserted, and
-- the counts reconcile.
begin;
select plan(5);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.5) as source \gset
select state as first_state from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-0002'), tests.line('INV-0005'), tests.line('INV-0009')]) \gset
select batch_id, state, outcome from tests.load_batch(:'source', tests.d() + 1, array[
  tests.line('INV-0002', p_net_amount => '90.00', p_tax_amount => '18.00', p_gross_amount => '108.00'),
  tests.line('INV-0003'),
  tests.line('INV-0005'),
  tests.line('INV-0007'),
  tests.line('INV-0009', p_revision => '1', p_net_amount => '200.00', p_tax_amount => '40.00',
             p_gross_amount => '240.00')]) \gset

select is(format('%s %s %s', :'first_state', :'state', :'outcome'), 'published published published',
          'Both files publish (one rejected record in five is within the share).');
select is(tests.rejections(:batch_id), array['1 revision.conflict'],
          'Record 1 (the lowest key, published with other content) is rejected with revision.conflict.');
select is((select format('inserted=%s amended=%s unchanged=%s rejected=%s late=%s',
                         c ->> 'inserted', c ->> 'amended', c ->> 'unchanged', c ->> 'rejected',
                         c ->> 'late')
           from ingest.batch as b, lateral (select b.merge_counts as c) as m
           where b.batch_id = :batch_id),
          'inserted=2 amended=1 unchanged=1 rejected=1 late=0',
          'Two new keys inserted, the highest key amended, the inner one unchanged.');
select is((select array_agg(i.invoice_number || ' r' || i.revision || ' ' || i.gross_amount
                            order by i.invoice_number)
           from reporting.invoice as i where i.source = :'source'),
          array['INV-0002 r0 120.00', 'INV-0003 r0 120.00', 'INV-0005 r0 120.00',
                'INV-0007 r0 120.00', 'INV-0009 r1 240.00'],
          'reporting.invoice keeps the conflicting key''s published content and shows the amendment.');
select is((select count(*)::integer from core.invoice_version as cv where cv.source = :'source'), 6,
          'Six versions: three of the first file, two new keys and one amendment.');

select * from finish();
rollback;
