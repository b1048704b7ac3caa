-- ingest.validate_batch: the seed file (20 invoices, 4,200.00) with a
-- manifest control total of 4199.99 is quarantined with the file-level rule
-- reconcile.control_total, even though every record is valid; nothing is
-- kept for publication and a batch_quarantined notification is written.
begin;
select plan(5);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), tests.seed_lines(20),
                                       p_manifest => tests.manifest(:'source', tests.d(), 20, '4199.99')) \gset
select * from tests.validate(:batch_id) \gset v_

select is(:'v_state'::text, 'quarantined', 'validate_batch reports the batch quarantined.');
select is(tests.rejections(:batch_id), array['0 reconcile.control_total'],
          'The only reason is reconcile.control_total on the whole file.');
select is((select b.state from ingest.batch as b where b.batch_id = :batch_id), 'quarantined',
          'The batch is quarantined.');
select is_empty(format('select 1 from staging.invoice_valid where batch_id = %s', :batch_id),
                'No record is kept for publication.');
select is((select array_agg(o.kind) from ingest.notification as o where o.batch_id = :batch_id),
          array['batch_quarantined'], 'One batch_quarantined notification is written.');

select * from finish();
rollback;
