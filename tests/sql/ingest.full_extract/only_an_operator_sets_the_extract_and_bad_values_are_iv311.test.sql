-- ingest.set_source_extract (source add --extract/--max-absent-share)
-- is an operator's: the loader role may not call it, and a login that can
-- execute it without being an operator gets IV401 and changes nothing.
-- Bad values are IV311: an unknown extract, a share outside 0..1, a share
-- for a delta source; an unknown source is IV301.
begin;
select plan(9);

select tests.make_source() as source \gset
create role extract_test_clerk login;
grant usage on schema ingest to extract_test_clerk;
grant execute on function ingest.set_source_extract(text, text, numeric) to extract_test_clerk;
set local session authorization extract_test_clerk;
select throws_ok($$ select * from ingest.set_source_extract('acme-erp', 'full', 0.2) $$,
                 'IV401', null, 'A login that is not an operator is refused with IV401.');
reset session authorization;
set local role invoice_loader;
select throws_ok($$ select * from ingest.set_source_extract('acme-erp', 'full', 0.2) $$,
                 '42501', null, 'The loader role may not set the extract.');
reset role;
select is((select (s.extract_kind, s.max_absent_share)::text from ingest.source as s where s.source = :'source'),
          '(delta,0.10)', 'Nothing changed: delta, the default share.');

set local role invoice_operator;
select throws_ok($$ select * from ingest.set_source_extract('acme-erp', 'snapshot') $$,
                 'IV311', null, 'An extract other than delta or full is IV311.');
select throws_ok($$ select * from ingest.set_source_extract('acme-erp', 'full', 1.5) $$,
                 'IV311', null, 'A share above 1 is IV311.');
select throws_ok($$ select * from ingest.set_source_extract('acme-erp', null, 0.2) $$,
                 'IV311', null, 'A share for a delta source is IV311.');
select throws_ok($$ select * from ingest.set_source_extract('nope', 'full') $$,
                 'IV301', null, 'An unknown source is IV301.');
select is((select (e.extract_kind, e.max_absent_share)::text
           from ingest.set_source_extract('acme-erp', 'full', 0.2) as e),
          '(full,0.2)', 'An operator sets full and a share.');
select is((select (e.extract_kind, e.max_absent_share)::text
           from ingest.set_source_extract('acme-erp', null, null) as e),
          '(full,0.2)', 'Arguments left NULL keep the stored values.');
reset role;

select * from finish();
rollback;
