-- The merge's statements are static, one function per form (ingest.merge_*,
-- called by ingest.write_batch), and their planner settings are SET
-- clauses: each is planned for the batch at hand on every call
-- (plan_cache_mode = force_custom_plan, as EXECUTE planned it), and the
-- supersessions find versions through the one-current index
-- (enable_seqscan = off).  No form fixes work_mem: the INSERTs follow the
-- work_mem ingest.write_batch runs at (an operator may lower it), which a
-- SET clause would replace.  A form losing its setting, or one fixing
-- work_mem, fails here.
begin;
select plan(4);

select set_eq(
  $$ select p.proname::text from pg_proc as p
     where p.pronamespace = 'ingest'::regnamespace and p.proname like 'merge\_%'
       and p.proname <> 'merge_accounted' $$,
  array['merge_supersede', 'merge_supersede_one_per_key', 'merge_insert',
        'merge_insert_one_per_key', 'merge_insert_new_keys',
        'merge_insert_new_keys_one_per_key'],
  'The merge has six forms, each a function of its own.');
select is((select array_agg(p.proname::text order by p.proname) from pg_proc as p
           where p.pronamespace = 'ingest'::regnamespace and p.proname like 'merge\_%'
             and p.proname <> 'merge_accounted'
             and not 'plan_cache_mode=force_custom_plan' = any (coalesce(p.proconfig, '{}'))),
          null, 'Every form is planned for its batch on every call.');
select is((select array_agg(p.proname::text order by p.proname) from pg_proc as p
           where p.pronamespace = 'ingest'::regnamespace and p.proname like 'merge\_supersede%'
             and not 'enable_seqscan=off' = any (coalesce(p.proconfig, '{}'))),
          null, 'Both supersessions run with enable_seqscan off.');
select is((select array_agg(p.proname::text order by p.proname) from pg_proc as p
           where p.pronamespace = 'ingest'::regnamespace and p.proname like 'merge\_%'
             and exists (select from unnest(p.proconfig) as c
                         where c like 'work\_mem=%' or c like 'hash\_mem\_multiplier=%')),
          null, 'No form fixes work_mem or hash_mem_multiplier.');

select * from finish();
rollback;
