-- ingest.publish_batch, merge: a revision lower than the current one that
-- arrives late is kept in history, not current, superseded by the batch of
-- the winner; reporting.invoice keeps the higher revision; the merge counts
-- one late version.
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_revision => '2', p_customer_id => 'C-NEW')]) \gset
select batch_id as second, outcome from tests.load_batch(:'source', tests.d() + 1, array[
  tests.line('INV-1', p_revision => '1', p_customer_id => 'C-OLD')]) \gset

select is(:'outcome'::text, 'published', 'The batch with the late revision publishes.');
select is((select array_agg(i.invoice_number || ' r' || i.revision || ' ' || i.customer_id)
           from reporting.invoice as i where i.source = :'source'),
          array['INV-1 r2 C-NEW'], 'reporting.invoice still shows revision 2.');
select is((select array_agg(format('r%s current=%s batch=%s superseded_by=%s', v.revision, v.is_current,
                                   v.batch_id, coalesce(v.superseded_by_batch_id::text, '-'))
                            order by v.revision)
           from reporting.invoice_version as v where v.source = :'source'),
          array[format('r1 current=f batch=%s superseded_by=%s', :second, :first),
                format('r2 current=t batch=%s superseded_by=-', :first)],
          'Revision 1 goes to history, superseded by the batch of revision 2, which stays current.');
select is((select (b.merge_counts ->> 'late', b.merge_counts ->> 'amended', b.merge_counts ->> 'inserted')::text
           from ingest.batch as b where b.batch_id = :second),
          '(1,0,0)', 'The merge counts one late version and nothing amended or inserted.');

select * from finish();
rollback;
