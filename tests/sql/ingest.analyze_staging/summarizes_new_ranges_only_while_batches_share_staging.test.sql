-- ingest.analyze_staging summarizes the BRIN ranges written since its last
-- call only while another batch is in staging (received, staged or
-- validated); a batch alone there reads its own new pages either way, so
-- they are left unsummarized.  The first range is summarized always: a
-- crash resets the unlogged index to an empty revmap, which the planner
-- costs negative until one range is summarized.
begin;
select plan(6);

-- a fresh index, as after a crash or a big batch's truncation
truncate staging.invoice_line, staging.invoice_valid_shared;
select tests.make_source('acme-erp');
select tests.make_source('globex-erp');
select batch_id as first from tests.stage_batch('acme-erp', tests.d(), tests.seed_lines(9000)) \gset

select is((select count(*)::integer from ingest.batch as b
           where b.state in ('received', 'staged', 'validated')), 1,
          'One batch is in staging.');
select cmp_ok(pg_catalog.pg_relation_size('staging.invoice_line') / 8192, '>', 128::bigint,
              'Its raw rows span more than one range of 128 pages.');

set local role invoice_loader;
select ingest.analyze_staging('validation', :first);
reset role;

select is(pg_catalog.brin_summarize_range('staging.invoice_line_batch', 0), 0,
          'Alone, the batch''s first range is summarized all the same.');
select cmp_ok(pg_catalog.brin_summarize_new_values('staging.invoice_line_batch'), '>', 0,
              'Its other ranges were left as written (summarized here, by the test).');

-- a second batch in staging: its new ranges are summarized before a step
select batch_id as second from tests.stage_batch('globex-erp', tests.d(), tests.seed_lines(9000)) \gset
set local role invoice_loader;
select ingest.analyze_staging('validation', :second);
reset role;
select is(pg_catalog.brin_summarize_new_values('staging.invoice_line_batch'), 0,
          'With two batches in staging, every range written since is summarized.');
set local enable_seqscan = off;
select is((select count(*)::integer from staging.invoice_line as l where l.batch_id = :first)
          || ' ' || (select count(*) from staging.invoice_line as l where l.batch_id = :second),
          '9000 9000', 'Each batch finds its own rows through the index.');

select * from finish();
rollback;
