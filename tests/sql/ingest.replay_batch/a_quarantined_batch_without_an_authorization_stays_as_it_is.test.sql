-- A load of a quarantined batch with no unused replay authorization
-- (exit 65, nothing changed): begin_attempt returns the
-- batch quarantined, opens an attempt and changes nothing else: no event,
-- the control totals and the rejections stay, no notification is added.
begin;
select plan(5);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.seed_lines(),
                                      tests.manifest(:'source', tests.d(), 20, '4300.00')) \gset
select count(*) as events from ingest.batch_event where batch_id = :batch_id \gset

select * from tests.stage_batch(:'source', tests.d(), tests.seed_lines()) \gset again_
select is(:'again_state'::text, 'quarantined', 'begin_attempt returns the batch quarantined.');
select is((select count(*) from ingest.batch_event as e where e.batch_id = :batch_id), :events::bigint,
          'No event is written.');
select is((select (b.state, b.control_total)::text from ingest.batch as b where b.batch_id = :batch_id),
          '(quarantined,4300.00)', 'The batch keeps its state and recorded control total.');
select is(tests.rejections(:batch_id), array['0 reconcile.control_total'],
          'The rejection stays.');
select is((select count(*)::integer from ingest.notification as n where n.batch_id = :batch_id), 1,
          'No notification is added.');

select * from finish();
rollback;
