-- ingest.write_batch, then ingest.publish_batch (write, audit, publish):
-- the write puts the batch's versions into core.invoice_version and
-- supersedes what they replace, yet consumers see exactly what they saw
-- before it (reporting.invoice, reporting.invoice_version,
-- reporting.invoice_as_of of now), and nothing of the publication exists
-- yet (watermark, outbox, state); a second write writes nothing.  The
-- publication then shows the batch whole, moves the watermark, writes one
-- notification, and keeps the time the write recorded.
begin;
select plan(21);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-1'), tests.line('INV-2', p_net_amount => '50.00', p_tax_amount => '10.00',
                                  p_gross_amount => '60.00')]) \gset
create temporary table before_invoice as select * from reporting.invoice where source = :'source';
create temporary table before_version as select * from reporting.invoice_version where source = :'source';

select batch_id as second from tests.stage_batch(:'source', tests.d() + 1, array[
  tests.line('INV-1', p_revision => '1', p_net_amount => '200.00', p_tax_amount => '40.00',
             p_gross_amount => '240.00'),
  tests.line('INV-2', p_revision => '1', p_status => 'VOID', p_net_amount => '50.00',
             p_tax_amount => '10.00', p_gross_amount => '60.00'),
  tests.line('INV-3', p_net_amount => '10.00', p_tax_amount => '2.00', p_gross_amount => '12.00')]) \gset
select is((select v.state from tests.validate(:second) as v), 'validated', 'The second day validates.');

select outcome as w_outcome, state as w_state, counts::text as w_counts from tests.write(:second) \gset
select is(:'w_outcome'::text, 'written', 'The write reports written.');
select is(:'w_state'::text, 'validated', '... and the batch stays validated.');
select is((:'w_counts'::jsonb ->> 'amended')::integer || '/' || (:'w_counts'::jsonb ->> 'voided')
          || '/' || (:'w_counts'::jsonb ->> 'inserted'), '1/1/1',
          'Its counts are those of the merge it reconciled.');
select is((select count(*)::integer from core.invoice_version as v where v.batch_id = :second), 3,
          'Its three versions are written.');
select is((select count(*)::integer from core.invoice_version as v where v.superseded_by_batch_id = :second), 2,
          '... and the two versions they replace are superseded.');
select is((select count(*)::integer from staging.invoice_valid as v where v.batch_id = :second), 0,
          'Its typed rows are cleared.');

select bag_eq($$select * from reporting.invoice where source = current_setting('t.source')$$,
              'select * from before_invoice',
              'reporting.invoice shows what it showed before the write.')
  from (select set_config('t.source', :'source', true)) as s;
select bag_eq($$select * from reporting.invoice_version where source = current_setting('t.source')$$,
              'select * from before_version',
              'reporting.invoice_version too: the old versions current, none of the batch''s.');
select bag_eq($$select * from reporting.invoice_as_of(clock_timestamp()) where source = current_setting('t.source')$$,
              'select * from before_invoice',
              'reporting.invoice_as_of of now shows the same.');
select is((select business_date from ingest.watermark where source = :'source'), tests.d(),
          'The watermark has not moved.');
select is((select count(*)::integer from ingest.outbox where batch_id = :second), 0,
          'No notification is written.');
select is((select p.batch_id from ingest.pending_publication as p where p.source = :'source'), :'second'::bigint,
          'The batch is listed as written, not published.');

select outcome as w2_outcome, counts::text as w2_counts from tests.write(:second) \gset
select is((:'w2_outcome' || ' ' || :'w2_counts')::text, 'written ' || :'w_counts',
          'A second write reports the same ...');
select is((select count(*)::integer from core.invoice_version as v where v.batch_id = :second), 3,
          '... and writes nothing.');

select outcome as p_outcome from tests.publish(:second) \gset
select is(:'p_outcome'::text, 'published', 'The publication publishes the written batch.');
select is((select array_agg(i.invoice_number || ' r' || i.revision || ' ' || i.gross_amount order by i.invoice_number)
           from reporting.invoice as i where i.source = :'source'),
          array['INV-1 r1 240.00', 'INV-3 r0 12.00'],
          'reporting.invoice now shows the amendment and the new invoice, not the voided one.');
select is((select business_date from ingest.watermark where source = :'source'), tests.d() + 1,
          'The watermark moves to the day.');
select is((select count(*)::integer from ingest.outbox where batch_id = :second and kind = 'batch_published'), 1,
          'One notification is written.');
select is((select count(*)::integer from ingest.pending_publication as p where p.source = :'source'), 0,
          'The batch is no longer listed.');
select is((select b.published_at = all (select v.published_at from core.invoice_version as v
                                         where v.batch_id = :second)
             and (select e.detail ? 'written_at' from ingest.batch_event as e
                  where e.batch_id = :second and e.to_state = 'published')
           from ingest.batch as b where b.batch_id = :second), true,
          'The batch is published at the time its versions carry; its event records when the write ended.');

select * from finish();
rollback;
