-- A replay authorization is used once: the load that consumes it runs the
-- batch again; when that run is quarantined again (the manifest is still
-- wrong), the next load finds no authorization and the batch stays
-- quarantined.  The authorization names the attempt that consumed it; the
-- second quarantine is a notification of its own (round 1).
begin;
select plan(6);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.seed_lines(),
                                      tests.manifest(:'source', tests.d(), 20, '4300.00')) \gset
select tests.replay(:batch_id) as action_id \gset

select * from tests.load_batch(:'source', tests.d(), tests.seed_lines(),
                               tests.manifest(:'source', tests.d(), 20, '4400.00')) \gset second_
select is(:'second_state'::text, 'quarantined', 'The replayed run is quarantined again.');
select is((select a.consumed_by_attempt_id from ingest.replay_authorization as a
           where a.action_id = :action_id),
          (select x.attempt_id from ingest.attempt as x where x.batch_id = :batch_id and x.attempt_no = 2),
          'The authorization was consumed by attempt 2.');

select * from tests.stage_batch(:'source', tests.d(), tests.seed_lines()) \gset third_
select is(:'third_state'::text, 'quarantined', 'The next load finds no authorization.');
select is((select (b.replays, b.control_total)::text from ingest.batch as b where b.batch_id = :batch_id),
          '(1,4400.00)', 'Only one replay was consumed.');
select is((select count(*)::integer from ingest.batch_event as e
           where e.batch_id = :batch_id and e.to_state = 'received' and e.from_state is not null), 1,
          'The batch went back to received once.');
select is((select array_agg(n.kind || ' ' || n.dedupe_key order by n.notification_id)
           from ingest.notification as n where n.batch_id = :batch_id),
          array['batch_quarantined batch_quarantined:' || :batch_id,
                'batch_quarantined batch_quarantined:' || :batch_id || ':r1'],
          'Each quarantine has its own notification.');

select * from finish();
rollback;
