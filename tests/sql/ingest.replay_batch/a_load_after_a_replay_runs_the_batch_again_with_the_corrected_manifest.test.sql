-- ingest.replay_batch + the next load (docs/guide/recover.md), the sender's
-- corrected manifest: a batch quarantined because its manifest's control
-- total was wrong is replayed; the next load of the same bytes consumes the
-- authorization in begin_attempt, starts a new attempt from received with
-- the corrected control totals (no IV102 for the changed manifest), stages
-- the file again and publishes: 20 invoices, 4,200.00, the watermark.  The
-- earlier attempt's rejection is kept in ingest.rejection_superseded,
-- tagged with that attempt; ingest.rejection shows the current attempt's
-- (none).
begin;
select plan(10);

select tests.make_source() as source \gset
select * from tests.load_batch(:'source', tests.d(), tests.seed_lines(),
                               tests.manifest(:'source', tests.d(), 20, '4300.00')) \gset first_
select is(:'first_state'::text, 'quarantined', 'The wrong control total quarantines the batch.');

select * from ingest.replay_batch(:first_batch_id, 'sender corrected the manifest') \gset replay_
select is(:replay_superseded_attempt_no, 1, 'The replay supersedes attempt 1.');

select * from tests.load_batch(:'source', tests.d(), tests.seed_lines(),
                               tests.manifest(:'source', tests.d(), 20, '4200.00')) \gset second_
select is(:second_batch_id, :first_batch_id, 'The same bytes are the same batch.');
select is(:'second_state'::text, 'published', 'The replayed batch publishes.');
select is((select (b.record_count, b.control_total, b.replays)::text from ingest.batch as b
           where b.batch_id = :first_batch_id),
          '(20,4200.00,1)', 'The corrected control totals are the batch''s; one replay consumed.');
select is((select count(*) || ' ' || sum(i.gross_amount) from reporting.invoice as i
           where i.source = :'source'),
          '20 4200.00', 'Twenty invoices totalling 4,200.00 are published.');
select is((select w.business_date from ingest.watermark as w where w.source = :'source'), tests.d(),
          'The watermark is the business date.');
select is(tests.rejections(:first_batch_id), '{}'::text[],
          'ingest.rejection shows the current attempt''s rejections: none.');
select is((select array_agg(r.attempt_no || ' ' || r.record_no || ' ' || r.rule)
           from ingest.rejection_superseded as r where r.batch_id = :first_batch_id),
          array['1 0 reconcile.control_total'],
          'The earlier attempt''s rejection is kept, tagged with attempt 1.');
select is((select array_agg(coalesce(e.from_state, '-') || '>' || e.to_state order by e.event_id)
           from ingest.batch_event as e where e.batch_id = :first_batch_id),
          array['->received', 'received>staged', 'staged>quarantined', 'quarantined>received',
                'received>staged', 'staged>validated', 'validated>published'],
          'The events show the quarantine, the replay back to received, and the run to published.');

select * from finish();
rollback;
