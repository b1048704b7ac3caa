-- ingest.validate_batch / publish_batch under the partial policy: a batch
-- whose rejected share is within the source's maximum publishes its
-- accepted records; the rejected one stays in ingest.rejection and out of
-- reporting, and accepted + rejected still reconcile with the manifest.
begin;
select plan(4);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.5) as source \gset
select batch_id, state, outcome from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-1'),
  tests.line('INV-2', p_net_amount => 'NaN'),
  tests.line('INV-3')]) \gset

select is(format('%s %s', :'state', :'outcome'), 'published published',
          'One rejected record in three publishes under a maximum share of 0.5.');
select is(tests.rejections(:batch_id), array['2 net_amount.format'], 'Record 2 is rejected with its rule.');
select is((select array_agg(i.invoice_number order by i.invoice_number) from reporting.invoice as i
           where i.source = :'source'),
          array['INV-1', 'INV-3'], 'Only the accepted invoices are published.');
select is((select (b.merge_counts ->> 'inserted', b.merge_counts ->> 'rejected',
                   (b.merge_counts ->> 'accepted_gross')::numeric + (b.merge_counts ->> 'rejected_gross')::numeric
                     = b.control_total)::text
           from ingest.batch as b where b.batch_id = :batch_id),
          '(2,1,t)', 'Two inserted and one rejected record reconcile with the control total.');

select * from finish();
rollback;
