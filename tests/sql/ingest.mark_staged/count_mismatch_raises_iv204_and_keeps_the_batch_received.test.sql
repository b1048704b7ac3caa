-- ingest.mark_staged checkpoints a batch only when the server stored exactly
-- the records the loader sent (a PostgreSQL 15 COPY stops silently at a \.
-- line): otherwise IV204, and the batch stays received.  The matching count
-- moves it to staged with staged_count set.
begin;
select plan(5);

select tests.make_source() as source \gset
select * from tests.stage_batch(:'source', tests.d(), tests.seed_lines(3), p_stage => false) \gset

insert into staging.invoice_line (batch_id, record_no, invoice_number)
select :batch_id, i, 'INV-' || i from generate_series(1, 3) as i;

select throws_ok(format('select ingest.mark_staged(%s, %s, 4)', :batch_id, :attempt_id),
                 'IV204', null, 'Three stored records for four sent are refused.');
select is((select (b.state, b.staged_count)::text from ingest.batch as b where b.batch_id = :batch_id),
          '(received,)', 'The batch stays received, with no staged count.');
select lives_ok(format('select ingest.mark_staged(%s, %s, 3)', :batch_id, :attempt_id),
                'Three stored records for three sent are checkpointed.');
select is((select (b.state, b.staged_count)::text from ingest.batch as b where b.batch_id = :batch_id),
          '(staged,3)', 'The batch is staged with a staged count of 3.');
select is((select count(*)::integer from ingest.batch_event as e
           where e.batch_id = :batch_id and e.to_state = 'staged'), 1,
          'Exactly one staged event is written.');

select * from finish();
rollback;
