-- The four-eyes entry points run with their owner's rights and check the
-- caller: a login that may execute them without being a member of
-- invoice_operator gets IV401 and changes nothing; the loader role may not
-- execute them at all.
begin;
select plan(7);

create role four_eyes_clerk login;
grant usage on schema ingest to four_eyes_clerk;
grant execute on function ingest.approve_batch(bigint, text), ingest.reject_batch(bigint, text),
                          ingest.confirm_action(bigint), ingest.set_source_approval(text, boolean)
  to four_eyes_clerk;

select tests.make_source() as source \gset
select ingest.set_source_approval(:'source', true);
select batch_id from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) \gset

set local session authorization four_eyes_clerk;
select throws_ok(format('select * from ingest.approve_batch(%s, %L)', :batch_id, 'x'),
                 'IV401', null, 'approve: IV401.');
select throws_ok(format('select * from ingest.reject_batch(%s, %L)', :batch_id, 'x'),
                 'IV401', null, 'reject: IV401.');
select throws_ok('select * from ingest.confirm_action(1)', 'IV401', null, 'confirm: IV401.');
select throws_ok(format('select ingest.set_source_approval(%L, false)', :'source'),
                 'IV401', null, 'the option: IV401.');
reset session authorization;
set local role invoice_loader;
select throws_ok(format('select * from ingest.approve_batch(%s, %L)', :batch_id, 'x'),
                 '42501', null, 'The loader role may not approve.');
reset role;

select is((select (b.state, p.awaits_approval, s.require_approval)::text
           from ingest.batch as b join ingest.pending_publication as p using (batch_id)
           join ingest.source as s on s.source = b.source where b.batch_id = :batch_id),
          '(validated,t,t)', 'Nothing changed.');
select is_empty(format('select 1 from ingest.operator_action where batch_id = %s', :batch_id),
                'Nothing was recorded.');

select * from finish();
rollback;
