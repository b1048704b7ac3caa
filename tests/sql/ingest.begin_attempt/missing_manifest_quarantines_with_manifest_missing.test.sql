-- ingest.begin_attempt for a source that requires control totals (the
-- default), with neither a manifest nor --expect-count/--expect-total,
-- registers the batch and quarantines it at once: rule manifest.missing on
-- record 0, and a batch_quarantined outbox row in the same transaction.
begin;
select plan(6);

select tests.make_source() as source \gset
select * from tests.stage_batch(:'source', tests.d(), tests.seed_lines(), p_no_manifest => true) \gset

select is(:'state'::text, 'quarantined', 'begin_attempt reports the batch quarantined.');
select is((select b.state from ingest.batch as b where b.batch_id = :batch_id), 'quarantined',
          'The batch is quarantined.');
select is(tests.rejections(:batch_id), array['0 manifest.missing'],
          'The only reason is manifest.missing on the whole file.');
select is((select array_agg(o.kind || ' ' || o.state) from ingest.notification as o
           where o.batch_id = :batch_id),
          array['batch_quarantined pending'], 'One batch_quarantined notification is pending.');
select is((select array_agg(coalesce(e.from_state, '-') || '>' || e.to_state order by e.event_id)
           from ingest.batch_event as e where e.batch_id = :batch_id),
          array['->received', 'received>quarantined'], 'The events show received, then quarantined.');
select is_empty(format('select 1 from staging.invoice_line where batch_id = %s', :batch_id),
                'Nothing is staged for the quarantined batch.');

select * from finish();
rollback;
