-- A batch whose loader died between writing its versions and publishing
-- them (ingest.write_batch committed, ingest.publish_batch never ran) is
-- the sweep's first choice, before an earlier-dated re-file of its source
-- that waits for it: the sweep publishes it under an attempt of its own,
-- with the counts the write reconciled, then the re-file.
begin;
select plan(6);

select tests.make_source('acme-erp', p_start_date => tests.d());
select tests.load_batch('acme-erp', tests.d(), tests.seed_lines());
select batch_id as written from tests.stage_batch('acme-erp', tests.d() + 1,
  tests.seed_lines(20, 'NEXT-')) \gset
select batch_id as refile from tests.stage_batch('acme-erp', tests.d(),
  tests.seed_lines(3, 'LATE-'), p_sha256 => repeat('c', 64)) \gset
select tests.validate(:written);
select tests.validate(:refile);
select is((select w.outcome from tests.write(:written) as w), 'written', 'The next day is written.');
-- the loader is gone: its runner locks go with its session
select pg_catalog.pg_advisory_unlock_all();

select results_eq($$ select r.outcome from ingest.sweep_publish_ready() as r $$,
                  $$ values ('published'::text) $$, 'The sweep publishes a batch ...');
select is((select b.state || ' ' || (b.merge_counts ->> 'inserted') from ingest.batch as b
           where b.batch_id = :written),
          'published 20', '... the written one, with the counts its write reconciled,');
select is((select a.host || ' ' || a.outcome from ingest.attempt as a
           where a.batch_id = :written order by a.attempt_no desc limit 1),
          'ingest.sweep published', 'under an attempt of its own.');
select is((select b.state from ingest.batch as b where b.batch_id = :refile), 'validated',
          'The re-file is not published in that call ...');
select results_eq(format($$ select r.outcome from ingest.sweep_publish_ready(p_skip => array[%s::bigint]) as r $$,
                         :written),
                  $$ values ('published'::text) $$, '... but in the next one.');

select * from finish();
rollback;
