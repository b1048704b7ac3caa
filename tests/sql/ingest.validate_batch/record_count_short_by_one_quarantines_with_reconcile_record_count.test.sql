-- ingest.validate_batch: a manifest saying 20 records when 19 were staged
-- (the control total matching those 19, 3800.00, so that only the count
-- differs) quarantines the batch with reconcile.record_count alone.
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), tests.seed_lines(19),
                                       p_manifest => tests.manifest(:'source', tests.d(), 20, '3800.00')) \gset
select * from tests.validate(:batch_id) \gset v_

select is(:'v_state'::text, 'quarantined', 'validate_batch reports the batch quarantined.');
select is(tests.rejections(:batch_id), array['0 reconcile.record_count'],
          'The only reason is reconcile.record_count on the whole file.');
select is((select (b.state, b.staged_count, b.record_count)::text from ingest.batch as b
           where b.batch_id = :batch_id),
          '(quarantined,19,20)', 'The batch is quarantined with 19 staged against 20 announced.');
select is_empty(format('select 1 from staging.invoice_valid where batch_id = %s', :batch_id),
                'No record is kept for publication.');

select * from finish();
rollback;
