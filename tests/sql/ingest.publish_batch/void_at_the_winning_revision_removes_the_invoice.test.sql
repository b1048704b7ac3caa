-- ingest.publish_batch, merge: VOID at the winning revision removes the
-- invoice from reporting.invoice; history keeps both versions, the VOID one
-- current; other invoices are untouched; the merge counts one voided.
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-1'), tests.line('INV-2')]) \gset
select batch_id as second, outcome from tests.load_batch(:'source', tests.d() + 1, array[
  tests.line('INV-1', p_revision => '1', p_status => 'VOID')]) \gset

select is(:'outcome'::text, 'published', 'The batch voiding INV-1 publishes.');
select is((select array_agg(i.invoice_number || ' b' || i.batch_id) from reporting.invoice as i
           where i.source = :'source'),
          array['INV-2 b' || :first], 'reporting.invoice no longer shows INV-1; INV-2 stays.');
select is((select array_agg(format('%s r%s %s current=%s', v.invoice_number, v.revision, v.status, v.is_current)
                            order by v.revision)
           from reporting.invoice_version as v where v.source = :'source' and v.invoice_number = 'INV-1'),
          array['INV-1 r0 ISSUED current=f', 'INV-1 r1 VOID current=t'],
          'History keeps INV-1 revision 0 and the current VOID revision 1.');
select is((select (b.merge_counts ->> 'voided')::integer from ingest.batch as b where b.batch_id = :second), 1,
          'The merge counts one voided invoice.');

select * from finish();
rollback;
