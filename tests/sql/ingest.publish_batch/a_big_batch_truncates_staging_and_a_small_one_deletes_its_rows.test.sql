-- ingest.clear_typed_staging, as publication calls it: a batch of 10,000
-- staged records or more, with no other batch staged or validated, empties
-- the two staging tables by TRUNCATE (new files); a smaller one deletes
-- its rows (the files stay: a TRUNCATE of the unlogged tables syncs new
-- files, which costs a small batch more than its rows).  Either way
-- nothing of the batch is left.  (The big batch is a validated batch of 20
-- records whose staged count says 10,000: the decision reads the count.)
begin;
select plan(4);

select tests.make_source() as source \gset
select pg_relation_filenode('staging.invoice_valid') as small_before \gset
select tests.load_batch(:'source', tests.d(), tests.seed_lines(20));
select is(pg_relation_filenode('staging.invoice_valid'), :'small_before'::oid,
          'The publication of 20 records leaves the typed rows'' file in place ...');
select is((select count(*)::integer from staging.invoice_valid), 0, '... and deletes its rows.');

select batch_id as big from tests.stage_batch(:'source', tests.d() + 1, tests.seed_lines(20, 'BIG-')) \gset
select tests.validate(:big);
update ingest.batch set staged_count = 10000 where batch_id = :big;
select pg_relation_filenode('staging.invoice_valid') as big_before \gset
select ingest.clear_typed_staging(:big);
select isnt(pg_relation_filenode('staging.invoice_valid'), :'big_before'::oid,
            'A batch of 10,000 records truncates the table ...');
select is((select count(*)::integer from staging.invoice_valid), 0, '... and nothing is left.');

select * from finish();
rollback;
