-- ingest.mark_staged with p_copied (the row count of the COPY's command
-- tag, as the loader passes it): that count, not the rows found in staging,
-- is compared with p_sent.  Copied 2 for sent 3 raises IV204 (even though 3
-- rows are in staging) and the batch stays received with no staged count
-- and no staged event; copied 3 for sent 3 moves it to staged with
-- staged_count 3 and one staged event.
begin;
select plan(6);

select tests.make_source() as source \gset
select * from tests.stage_batch(:'source', tests.d(), tests.seed_lines(3), p_stage => false) \gset

set local role invoice_loader;
insert into staging.invoice_line (batch_id, record_no, invoice_number)
select :batch_id, i, 'INV-' || i from generate_series(1, 3) as i;

select throws_ok(format('select ingest.mark_staged(%s, %s, 3, 2)', :batch_id, :attempt_id),
                 'IV204', null, 'A COPY that reports 2 rows for 3 sent is refused.');
reset role;

select is((select (b.state, b.staged_count)::text from ingest.batch as b where b.batch_id = :batch_id),
          '(received,)', 'The batch stays received, with no staged count.');
select is((select count(*)::integer from ingest.batch_event as e
           where e.batch_id = :batch_id and e.to_state = 'staged'), 0,
          'No staged event is written.');

set local role invoice_loader;
select lives_ok(format('select ingest.mark_staged(%s, %s, 3, 3)', :batch_id, :attempt_id),
                'A COPY that reports 3 rows for 3 sent is checkpointed.');
reset role;

select is((select (b.state, b.staged_count)::text from ingest.batch as b where b.batch_id = :batch_id),
          '(staged,3)', 'The batch is staged with a staged count of 3.');
select is((select array_agg(e.from_state || '->' || e.to_state || ' ' || (e.detail ->> 'records'))
           from ingest.batch_event as e
           where e.batch_id = :batch_id and e.to_state = 'staged'),
          array['received->staged 3'], 'Exactly one staged event is written, with 3 records.');

select * from finish();
rollback;
