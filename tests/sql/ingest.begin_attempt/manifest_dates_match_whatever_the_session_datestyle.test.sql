-- ingest.begin_attempt compares the manifest's business_date
-- ("YYYY-MM-DD", docs/reference/input-file.md) with the batch's date.  The result
-- must not depend on the client's DateStyle (libpq honours PGDATESTYLE):
-- a correct manifest is accepted under 'SQL, DMY' and 'German' as under ISO.
begin;
select plan(4);

select tests.make_source() as source \gset

set local datestyle = 'SQL, DMY';
select * from tests.stage_batch(:'source', tests.d(), tests.seed_lines(), p_stage => false) \gset dmy_
set local datestyle = 'German';
select * from tests.stage_batch(:'source', tests.d() + 1, tests.seed_lines(), p_stage => false) \gset german_
reset datestyle;

select is(:'dmy_state'::text, 'received', 'A correct manifest is accepted under DateStyle SQL, DMY.');
select is(tests.rejections(:dmy_batch_id), '{}'::text[], 'No manifest problem is recorded under SQL, DMY.');
select is(:'german_state'::text, 'received', 'A correct manifest is accepted under DateStyle German.');
select is(tests.rejections(:german_batch_id), '{}'::text[], 'No manifest problem is recorded under German.');

select * from finish();
rollback;
