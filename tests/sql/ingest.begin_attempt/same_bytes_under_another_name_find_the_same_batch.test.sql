-- ingest.begin_attempt is idempotent by (source, sha256): the same bytes
-- delivered again under another file name find the existing batch
-- (created = false), open attempt 2, and close the unfinished attempt 1 of
-- the run that died as 'abandoned'.
begin;
select plan(7);

select tests.make_source() as source \gset
select * from tests.stage_batch(:'source', tests.d(), tests.seed_lines(), p_stage => false,
                                p_file_name => 'invoices-2026-11-28.csv') \gset first_
select * from tests.stage_batch(:'source', tests.d(), tests.seed_lines(), p_stage => false,
                                p_file_name => 'resent/INVOICES.CSV') \gset second_

select is(:second_batch_id, :first_batch_id, 'The second delivery finds the first batch.');
select is(:'second_created'::boolean, false, 'The batch is not created again.');
select is(:second_attempt_no, 2, 'The attempt number goes up to 2.');
select is((select count(*)::integer from ingest.batch as b where b.source = :'source'), 1,
          'The source still has one batch.');
select is((select (a.outcome, a.finished_at is not null, a.state_at_end)::text
           from ingest.attempt as a where a.attempt_id = :first_attempt_id),
          '(abandoned,t,received)', 'The unfinished first attempt is closed as abandoned.');
select is((select (a.outcome is null, a.finished_at is null)::text
           from ingest.attempt as a where a.attempt_id = :second_attempt_id),
          '(t,t)', 'The second attempt is open.');
select is((select count(*)::integer from ingest.batch_event as e where e.batch_id = :first_batch_id), 1,
          'Finding the batch again writes no new event.');

select * from finish();
rollback;
