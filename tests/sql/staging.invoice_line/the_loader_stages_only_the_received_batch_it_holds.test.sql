-- staging.invoice_line (trigger ingest.check_staging_scope, migrations/
-- 0011): rows are taken only for a received batch whose runner lock the
-- inserting session holds, as the loader's COPY after begin_attempt.  A
-- row for a batch that does not exist, for a received batch whose runner
-- lock this session does not hold (another run's), or for a staged batch
-- (one stray row used to wedge it: every later load exited 70, IV204) is
-- refused with IV221, and the statement writes nothing, not even its rows
-- for the batch it does hold.
begin;
select plan(8);

select tests.make_source() as source \gset
select tests.make_source('other-erp') as other \gset
select batch_id as held from tests.stage_batch(:'source', tests.d(), tests.seed_lines(2), p_stage => false) \gset
select batch_id as staged from tests.stage_batch(:'source', tests.d() + 1, tests.seed_lines(2)) \gset
select batch_id as foreign_batch from tests.stage_batch(:'other', tests.d(), tests.seed_lines(2), p_stage => false) \gset
-- the run of other-erp's batch is another session: this one lets its lock go
select pg_advisory_unlock(hashtext('invoice-loader:' || :'other'), tests.d() - date '2000-01-01');

set local role invoice_loader;
select throws_ok(format($$ insert into staging.invoice_line (batch_id, record_no, invoice_number)
                           values (%s, 1, 'STRAY') $$, :foreign_batch), 'IV221', null,
                 'A row for a received batch whose runner lock this session does not hold is refused.');
select throws_ok(format($$ insert into staging.invoice_line (batch_id, record_no, invoice_number)
                           values (%s, 3, 'STRAY') $$, :staged), 'IV221', null,
                 'A row for a staged batch is refused, though this session holds its lock.');
select throws_ok($$ insert into staging.invoice_line (batch_id, record_no, invoice_number)
                    values (999999999, 1, 'STRAY') $$, 'IV221', null,
                 'A row for a batch that does not exist is refused.');
select throws_ok(format($$ insert into staging.invoice_line (batch_id, record_no, invoice_number)
                           values (%s, 1, 'INV-1'), (%s, 1, 'STRAY') $$, :held, :foreign_batch),
                 'IV221', null,
                 'A statement with rows for a held and a foreign batch is refused as a whole.');
select lives_ok(format($$ insert into staging.invoice_line (batch_id, record_no, invoice_number)
                          values (%s, 1, 'INV-1'), (%s, 2, 'INV-2') $$, :held, :held),
                'Rows for the received batch this session began are taken.');
reset role;

select is((select count(*)::integer from staging.invoice_line where batch_id = :held), 2,
          'The held batch has exactly the two rows of the statement that was taken.');
select is((select count(*)::integer from staging.invoice_line where batch_id = :staged), 2,
          'The staged batch keeps its two rows, as checkpointed.');
select is((select count(*)::integer from staging.invoice_line where batch_id = :foreign_batch), 0,
          'The other run''s batch has no row.');

select * from finish();
rollback;
