-- staging.invoice_valid takes the loader's typed COPY (migrations/0014,
-- trigger ingest.check_typed_staging_scope): as for staging.invoice_line,
-- rows from any role but the owner are taken only for a received batch
-- whose runner lock the writing session holds; anything else is refused
-- with IV221 and the statement writes nothing.  Validation's SQL path,
-- which types raw rows as the owner, is let through (it validates here).
begin;
select plan(7);

select tests.make_source() as source \gset
select tests.make_source('other-erp') as other \gset
select batch_id as held from tests.stage_batch(:'source', tests.d(), tests.seed_lines(2), p_stage => false) \gset
select batch_id as staged from tests.stage_batch(:'source', tests.d() + 1, tests.seed_lines(2)) \gset
select batch_id as foreign_batch from tests.stage_batch(:'other', tests.d(), tests.seed_lines(2), p_stage => false) \gset
select pg_advisory_unlock(hashtext('invoice-loader:' || :'other'), tests.d() - date '2000-01-01');

set local role invoice_loader;
select throws_ok(format($$ insert into staging.invoice_valid (batch_id, record_no, rules, invoice_number)
                           values (%s, 1, 1, 'STRAY') $$, :foreign_batch), 'IV221', null,
                 'A typed row for a received batch whose runner lock this session does not hold is refused.');
select throws_ok(format($$ insert into staging.invoice_valid (batch_id, record_no, rules, invoice_number)
                           values (%s, 3, 1, 'STRAY') $$, :staged), 'IV221', null,
                 'A typed row for a staged batch is refused, though this session holds its lock.');
select throws_ok(format($$ insert into staging.invoice_valid (batch_id, record_no, rules, invoice_number)
                           values (%s, 1, 1, 'INV-1'), (%s, 1, 1, 'STRAY') $$, :held, :foreign_batch),
                 'IV221', null,
                 'A statement with typed rows for a held and a foreign batch is refused as a whole.');
select throws_ok(format($$ insert into staging.invoice_valid (batch_id, record_no, rules, invoice_number)
                           values (%s, 1, 0, 'INV-1') $$, :held),
                 '23514', null,
                 'A row that claims to pass every rule must carry every typed value and its hash.');
select lives_ok(format($$ insert into staging.invoice_valid (batch_id, record_no, rules, invoice_number)
                          values (%s, 1, 1, 'INV-1'), (%s, 2, 1, 'INV-2') $$, :held, :held),
                'Typed rows for the received batch this session began are taken.');
reset role;

select is((select count(*)::integer from staging.invoice_valid where batch_id = :held), 2,
          'The held batch has exactly the two rows of the statement that was taken.');
select is((select state from tests.validate(:staged)), 'validated',
          'Validation''s SQL path types the raw rows of the staged batch through the same trigger.');

select * from finish();
rollback;
