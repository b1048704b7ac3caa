-- ingest.clear_typed_staging, as publication calls it: a batch of 10,000
-- staged records or more, with no other batch staged or validated, empties
-- the shared staging tables by TRUNCATE (new files); a smaller one deletes
-- its rows (the files stay: a TRUNCATE of the unlogged tables syncs new
-- files, which costs a small batch more than its rows).  A batch with a
-- partition of its own (100,000 records or more: ingest.typed_staging)
-- has it dropped, and ingest.sweep_typed_staging drops one that is left
-- only once its batch is past validation.  Either way nothing of the
-- batch is left.  (The big batches are batches of 20 records whose counts
-- say 10,000 and 100,000: the decisions read the counts.)
begin;
select plan(10);

select tests.make_source() as source \gset
select pg_relation_filenode('staging.invoice_valid_shared') as small_before \gset
select tests.load_batch(:'source', tests.d(), tests.seed_lines(20));
select is(pg_relation_filenode('staging.invoice_valid_shared'), :'small_before'::oid,
          'The publication of 20 records leaves the typed rows'' file in place ...');
select is((select count(*)::integer from staging.invoice_valid), 0, '... and deletes its rows.');

select batch_id as big from tests.stage_batch(:'source', tests.d() + 1, tests.seed_lines(20, 'BIG-')) \gset
select tests.validate(:big);
update ingest.batch set staged_count = 10000 where batch_id = :big;
select pg_relation_filenode('staging.invoice_valid_shared') as big_before \gset
select ingest.clear_typed_staging(:big);
select isnt(pg_relation_filenode('staging.invoice_valid_shared'), :'big_before'::oid,
            'A batch of 10,000 records truncates the table ...');
select is((select count(*)::integer from staging.invoice_valid), 0, '... and nothing is left.');

-- a batch with a partition of its own
select batch_id as own from tests.stage_batch(:'source', tests.d() + 2, tests.seed_lines(2, 'OWN-'),
                                              p_stage => false) \gset
update ingest.batch set file_records = 100000 where batch_id = :own;
set local role invoice_loader;
select ingest.typed_staging(:own);
reset role;
insert into staging.invoice_valid (batch_id, record_no, rules, invoice_number)
values (:own, 1, 1, 'OWN-1'), (:own, 2, 1, 'OWN-2');
select is(ingest.typed_staging_partition(:own)::text, format('staging.invoice_valid_b%s', :own),
          'The owner''s rows of the batch went into its partition.');
select ingest.clear_typed_staging(:own);
select is(ingest.typed_staging_partition(:own), null,
          'Clearing the batch drops its partition ...');
select is((select count(*)::integer from staging.invoice_valid where batch_id = :own), 0,
          '... and its rows with it.');

-- one its clearing left (staging was in use then) goes with a sweep, once
-- its batch is past validation
select pg_advisory_lock(hashtext('invoice-loader:' || :'source'), tests.d() + 2 - date '2000-01-01');
set local role invoice_loader;
select ingest.typed_staging(:own);
reset role;
select is(ingest.sweep_typed_staging(), 0,
          'A sweep leaves the partition of a received batch alone ...');
update ingest.batch set state = 'quarantined' where batch_id = :own;
select is(ingest.sweep_typed_staging(), 1, '... and drops it once the batch is quarantined');
select is(ingest.typed_staging_partition(:own), null, '... so that it is gone.');

select * from finish();
rollback;
