-- Revert and replay of a reverted batch name the attempt whose
-- publication was undone (attempt_no and run_id), not a later attempt: a
-- load of the reverted batch without a replay records attempt 2 and
-- changes nothing, and the replay still names attempt 1.  The replay's
-- authorization is used by the next load (attempt 3), which
-- ingest.status_report shows with the action (used_at,
-- used_by_attempt_no, used_by_run_id); the revert was used by no load.
begin;
select plan(7);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) \gset
select a.run_id as run1 from ingest.attempt as a where a.batch_id = :batch_id and a.attempt_no = 1 \gset

set local role invoice_operator;
select * from ingest.revert_batch(:batch_id, 'wrong file') \gset v_
reset role;
select is(:v_superseded_attempt_no, 1, 'The revert names attempt 1, which published the batch,');
select is(:'v_superseded_run_id'::uuid, :'run1'::uuid, 'with its run id.');

-- a load without a replay: attempt 2, nothing changes
select is((select s.state from tests.stage_batch(:'source', tests.d(), tests.first_day_lines(),
                                                  p_stage => false) as s),
          'reverted', 'A load without a replay finds the batch reverted (attempt 2).');

set local role invoice_operator;
select * from ingest.replay_batch(:batch_id, 'the file was right after all') \gset r_
reset role;
select is((select (o.superseded_attempt_no, o.superseded_run_id)::text
           from ingest.operator_action as o where o.action_id = :r_action_id),
          (1, :'run1'::uuid)::text,
          'The replay names attempt 1 and its run, not attempt 2 that changed nothing.');

select is((select l.state from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) as l),
          'published', 'The next load uses the authorization and publishes.');
select is((select string_agg(a ->> 'action' || ' ' || coalesce(a ->> 'used_by_attempt_no', '-') || ' '
                             || coalesce(a ->> 'used_by_run_id', '-'), ', ' order by (a ->> 'action_id')::bigint)
           from jsonb_array_elements(ingest.status_report(p_batch_id => :batch_id) -> 'operator_actions') as a),
          'revert - -, replay 3 ' || (select a.run_id from ingest.attempt as a
                                      where a.batch_id = :batch_id and a.attempt_no = 3),
          'status_report: the replay was used by attempt 3 and its run; the revert by none.');
set local role invoice_loader;
select lives_ok(format('select ingest.status_report(p_batch_id => %s)', :batch_id),
                'The loader may read the status of the authorizations.');
reset role;

select * from finish();
rollback;
