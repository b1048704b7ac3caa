-- staging.invoice_valid takes the loader's typed COPY, partitioned by batch
-- (migrations/0028): the loader writes into the table ingest.typed_staging
-- names, never into the parent.  A batch of 100,000 records or more gets a
-- partition of its own; the others share the DEFAULT partition
-- staging.invoice_valid_shared.  As for staging.invoice_line, rows from
-- any role but the owner are taken only for a received batch whose runner
-- lock the writing session holds (the shared table's trigger
-- ingest.check_typed_staging_scope over the statement's rows, the own
-- partition's the same function once, with the batch as its argument, its
-- CHECK pinning the batch); anything else is refused with IV221 and the statement writes
-- nothing.  Validation's SQL path, which types raw rows as the owner, is
-- let through (it validates here).
begin;
select plan(19);

select tests.make_source() as source \gset
select tests.make_source('other-erp') as other \gset
select batch_id as held from tests.stage_batch(:'source', tests.d(), tests.seed_lines(2), p_stage => false) \gset
select batch_id as staged from tests.stage_batch(:'source', tests.d() + 1, tests.seed_lines(2)) \gset
select batch_id as big from tests.stage_batch(:'source', tests.d() + 2, tests.seed_lines(2), p_stage => false) \gset
select batch_id as foreign_batch from tests.stage_batch(:'other', tests.d(), tests.seed_lines(2), p_stage => false) \gset
select pg_advisory_unlock(hashtext('invoice-loader:' || :'other'), tests.d() - date '2000-01-01');
-- what the loader counted in a big file (the rows themselves do not matter here)
update ingest.batch set file_records = 100000 where batch_id = :big;

set local role invoice_loader;
select throws_ok(format($$ insert into staging.invoice_valid (batch_id, record_no, rules, invoice_number)
                           values (%s, 1, 1, 'INV-1') $$, :held), '42501', null,
                 'The loader cannot write into the partitioned table itself.');
select is(ingest.typed_staging(:held), 'staging.invoice_valid_shared',
          'A batch of fewer than 100,000 records is typed into the shared partition.');
select throws_ok(format($$ insert into staging.invoice_valid_shared (batch_id, record_no, rules, invoice_number)
                           values (%s, 1, 1, 'STRAY') $$, :foreign_batch), 'IV221', null,
                 'A typed row for a received batch whose runner lock this session does not hold is refused.');
select throws_ok(format($$ insert into staging.invoice_valid_shared (batch_id, record_no, rules, invoice_number)
                           values (%s, 3, 1, 'STRAY') $$, :staged), 'IV221', null,
                 'A typed row for a staged batch is refused, though this session holds its lock.');
select throws_ok(format($$ insert into staging.invoice_valid_shared (batch_id, record_no, rules, invoice_number)
                           values (%s, 1, 1, 'INV-1'), (%s, 1, 1, 'STRAY') $$, :held, :foreign_batch),
                 'IV221', null,
                 'A statement with typed rows for a held and a foreign batch is refused as a whole.');
select throws_ok(format($$ insert into staging.invoice_valid_shared (batch_id, record_no, rules, invoice_number)
                           values (%s, 1, 0, 'INV-1') $$, :held),
                 '23514', null,
                 'A row that claims to pass every rule must carry every typed value and its hash.');
select lives_ok(format($$ insert into staging.invoice_valid_shared (batch_id, record_no, rules, invoice_number)
                          values (%s, 1, 1, 'INV-1'), (%s, 2, 1, 'INV-2') $$, :held, :held),
                'Typed rows for the received batch this session began are taken.');

-- a big batch: a partition of its own
select throws_ok(format($$ select ingest.typed_staging(%s) $$, :foreign_batch), 'IV221', null,
                 'No table is named, nor made, for a batch whose runner lock this session does not hold.');
select is(ingest.typed_staging(:big, p_attach => false), 'staging.invoice_valid_shared',
          'Asked not to attach (a dry run), it makes no partition: the shared one.');
select is(ingest.typed_staging(:big), format('staging.invoice_valid_b%s', :big),
          'A batch of 100,000 records gets a partition of its own.');
select is(ingest.typed_staging(:big, p_attach => false), format('staging.invoice_valid_b%s', :big),
          'Once it has one, that partition, attach or not.');
select is(ingest.typed_staging(:big), format('staging.invoice_valid_b%s', :big),
          'Asked again, the same partition.');
select lives_ok(format($$ insert into staging.invoice_valid_b%s (batch_id, record_no, rules, invoice_number)
                          values (%s, 1, 1, 'INV-1') $$, :big, :big),
                'The loader writes the big batch''s typed rows into its partition.');
select throws_ok(format($$ insert into staging.invoice_valid_b%s (batch_id, record_no, rules, invoice_number)
                           values (%s, 2, 1, 'STRAY') $$, :big, :held), '23514', null,
                 'The partition takes no row of another batch.');
select throws_ok(format($$ insert into staging.invoice_valid_shared (batch_id, record_no, rules, invoice_number)
                           values (%s, 2, 1, 'STRAY') $$, :big), '23514', null,
                 'Nor does the shared partition take a row of a batch that has one of its own.');
reset role;
select pg_advisory_unlock(hashtext('invoice-loader:' || :'source'), tests.d() + 2 - date '2000-01-01');
set local role invoice_loader;
select throws_ok(format($$ insert into staging.invoice_valid_b%s (batch_id, record_no, rules, invoice_number)
                           values (%s, 2, 1, 'INV-2') $$, :big, :big), 'IV221', null,
                 'Without the batch''s runner lock its own partition takes nothing either.');
reset role;

select is((select count(*)::integer from staging.invoice_valid where batch_id = :held), 2,
          'The held batch has exactly the two rows of the statement that was taken.');
select is((select count(*)::integer from staging.invoice_valid where batch_id = :big), 1,
          'The big batch has the one row its partition took.');
select is((select state from tests.validate(:staged)), 'validated',
          'Validation''s SQL path types the raw rows of the staged batch through the same trigger.');

select * from finish();
rollback;
