-- ingest.begin_attempt with bytes the source has never delivered registers
-- a new batch in state received, with the manifest's control totals, one
-- 'received' event and an open attempt number 1.
begin;
select plan(6);

select tests.make_source() as source \gset
select * from tests.stage_batch(:'source', tests.d(), tests.seed_lines(), p_stage => false) \gset

select is(:'created'::boolean, true, 'The batch is reported as newly created.');
select is(:'state'::text, 'received', 'A new batch starts received.');
select is((select (b.record_count, b.control_total, b.state)::text from ingest.batch as b
           where b.batch_id = :batch_id),
          '(20,4200.00,received)', 'The manifest''s record count and control total are recorded.');
select is((select array_agg(coalesce(e.from_state, '-') || '>' || e.to_state)
           from ingest.batch_event as e where e.batch_id = :batch_id),
          array['->received'], 'Registration writes one received event.');
select is((select (a.attempt_no, a.finished_at is null, a.state_at_start)::text
           from ingest.attempt as a where a.attempt_id = :attempt_id),
          '(1,t,received)', 'Attempt 1 is open.');
select is(:attempt_no, 1, 'The attempt number returned is 1.');

select * from finish();
rollback;
