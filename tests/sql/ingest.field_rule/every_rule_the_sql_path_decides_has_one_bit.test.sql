-- ingest.field_rule (migrations/0014) names each per-record field rule
-- once, with the bit the loader sets for it in staging.invoice_valid.rules.
-- The rule codes ingest.failing_records (the SQL path) can return are
-- exactly the rules of the table, and sql/ERRCODES.md lists them (checked by
-- the Catch2 test of ERRCODES.md); a rule added to one and not the other
-- fails here.
begin;
select plan(3);

select set_eq(
  $$ select distinct m[1] from regexp_matches(
       pg_get_functiondef('ingest.failing_records(bigint, date)'::regprocedure),
       '''([a-z_]+\.[a-z_]+)''', 'g') as m $$,
  $$ select rule from ingest.field_rule $$,
  'The rules ingest.failing_records decides are the rules of ingest.field_rule.');
select is((select count(distinct bit)::integer from ingest.field_rule),
          (select count(*)::integer from ingest.field_rule),
          'Every rule has a bit of its own.');
select ok((select bool_and(bit between 0 and 30) from ingest.field_rule),
          'Every bit fits a positive integer.');

select * from finish();
rollback;
