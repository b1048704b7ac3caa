-- Retention: the staging rows of batches published or quarantined more
-- than the source's retention_days ago are deleted, at most a chunk per
-- call (each call one short transaction of ingest.sweep), the oldest batch
-- first; ingest.staging_purge records each batch once done.  A batch
-- within its retention keeps its rows; what consumers read stays.
begin;
select plan(9);

select tests.d() as d \gset
set local role invoice_operator;
select ingest.add_source('acme-erp', p_start_date => :'d', p_retention_days => 10);
reset role;
select batch_id as old from tests.load_batch('acme-erp', tests.d(), tests.seed_lines()) \gset
-- quarantined: the manifest's total is a cent off
select batch_id as bad from tests.load_batch('acme-erp', tests.d() + 1, tests.seed_lines(5, 'Q-'),
  tests.manifest('acme-erp', tests.d() + 1, 5, '300.01')) \gset
select batch_id as recent from tests.load_batch('acme-erp', tests.d() + 1, tests.seed_lines(4, 'R-')) \gset
select pg_catalog.pg_advisory_unlock_all();
update ingest.batch set updated_at = pg_catalog.now() - interval '12 days' where batch_id = :old;
update ingest.batch set updated_at = pg_catalog.now() - interval '11 days' where batch_id = :bad;

select results_eq($$ select r.batch_id, r.rows_deleted, r.done from ingest.sweep_retention(8) as r $$,
                  format($$ values (%s::bigint, 8, false) $$, :old),
                  'The first call deletes one chunk of the oldest batch.');
select results_eq($$ select r.rows_deleted, r.done from ingest.sweep_retention(8) as r
                     union all select r.rows_deleted, r.done from ingest.sweep_retention(8) as r $$,
                  $$ values (8, false), (4, true) $$,
                  'Chunk by chunk until the batch''s twenty rows are gone.');
select is((select (p.state_at_purge, p.rows_deleted, p.purged_at is not null)::text
           from ingest.staging_purge as p where p.batch_id = :old),
          '(published,20,t)', 'staging_purge records the published batch as purged.');
select results_eq($$ select r.batch_id, r.rows_deleted, r.done from ingest.sweep_retention(8) as r $$,
                  format($$ values (%s::bigint, 5, true) $$, :bad),
                  'Then the quarantined batch, in one chunk.');
select is_empty($$ select * from ingest.sweep_retention(8) $$, 'Then nothing is left to purge.');
select is((select count(*)::integer from staging.invoice_line as l where l.batch_id in (:old, :bad)), 0,
          'The purged batches have no raw rows left.');
select is((select count(*)::integer from staging.invoice_line as l where l.batch_id = :recent), 4,
          'A batch within its retention keeps its rows.');
select is((select count(*)::integer from reporting.invoice where source = 'acme-erp'), 24,
          'What consumers read is untouched.');
select is(tests.rejections(:bad), array['0 reconcile.control_total'],
          'The quarantined batch''s reasons stay.');

select * from finish();
rollback;
