-- ingest.publish_batch, the seed case: the validated batch of 20 invoices
-- totalling 4,200.00 publishes: 20 current invoices in reporting.invoice
-- summing to 4200.00, the watermark at the business date, one
-- batch_published notification, the batch published with its merge counts.
begin;
select plan(7);

select tests.make_source() as source \gset
select * from tests.load_batch(:'source', tests.d(), tests.seed_lines(20),
                               tests.manifest(:'source', tests.d(), 20, '4200.00')) \gset

select is(format('%s %s', :'state', :'outcome'), 'published published', 'The seed batch is published.');
select is((select (count(*), sum(i.gross_amount), min(i.batch_id), max(i.batch_id))::text
           from reporting.invoice as i where i.source = :'source'),
          format('(20,4200.00,%s,%s)', :batch_id, :batch_id),
          'reporting.invoice shows the 20 invoices of the batch, totalling 4200.00.');
select is((select array_agg(w.business_date || ' ' || w.batch_id) from ingest.watermark as w
           where w.source = :'source'),
          array[tests.d() || ' ' || :batch_id], 'The watermark is at the business date, set by this batch.');
select is((select array_agg(o.kind || ' ' || o.state || ' ' || (o.payload ->> 'batch_id'))
           from ingest.notification as o where o.batch_id = :batch_id),
          array['batch_published pending ' || :batch_id], 'One pending batch_published notification names the batch.');
select is((select (b.state, b.published_at is not null, (b.merge_counts ->> 'inserted')::integer)::text
           from ingest.batch as b where b.batch_id = :batch_id),
          '(published,t,20)', 'The batch is published with 20 inserted invoices in its merge counts.');
select is((select array_agg(e.to_state order by e.event_id) from ingest.batch_event as e
           where e.batch_id = :batch_id),
          array['received', 'staged', 'validated', 'published'], 'The batch passed every checkpoint once.');
select is_empty(format('select 1 from staging.invoice_valid where batch_id = %s', :batch_id),
                'The typed staging rows are cleared after publication.');

select * from finish();
rollback;
