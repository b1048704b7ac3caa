-- ingest.publish_batch, merge: a (key, revision) published before with the
-- same content, sent again in a later file, is a no-op counted 'unchanged':
-- no new version, the invoice still comes from the first batch.
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset
select batch_id as second, outcome from tests.load_batch(:'source', tests.d() + 1, array[
  tests.line('INV-1'), tests.line('INV-2')]) \gset

select is(:'outcome'::text, 'published', 'The batch with the resent invoice publishes.');
select is((select (b.merge_counts ->> 'unchanged', b.merge_counts ->> 'inserted')::text
           from ingest.batch as b where b.batch_id = :second),
          '(1,1)', 'The merge counts INV-1 unchanged and INV-2 inserted.');
select is((select array_agg(v.batch_id) from reporting.invoice_version as v
           where v.source = :'source' and v.invoice_number = 'INV-1'),
          array[:first]::bigint[], 'INV-1 has one version, from the first batch.');
select is((select array_agg(i.invoice_number || ' b' || i.batch_id order by i.invoice_number)
           from reporting.invoice as i where i.source = :'source'),
          array['INV-1 b' || :first, 'INV-2 b' || :second], 'reporting.invoice shows INV-1 from the first batch.');

select * from finish();
rollback;
