-- The new SECURITY DEFINER entry points (begin_attempt, replay_batch,
-- revert_batch, reporting.invoice_as_of and invoice_as_of_batch) pin
-- search_path to '' and qualify every name, so objects in the caller's
-- pg_temp (searched first for relations even with an empty search_path,
-- and never for functions unless named) change nothing: temporary tables
-- named like every table they use, and temporary functions named like
-- pg_has_role, require_operator, transition and btrim, are all ignored.
-- The writes land in the real tables, the pg_temp tables stay empty (or
-- keep their bogus row), and a non-operator is still refused with IV401.
begin;
select plan(9);

create role shadow_test_clerk login;
create role shadow_test_operator login in role invoice_operator;
grant usage on schema ingest to shadow_test_clerk;
grant execute on function ingest.replay_batch(bigint, text, boolean) to shadow_test_clerk;

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), tests.seed_lines()) \gset

-- the shadows, in this session's pg_temp
create temp table batch (like ingest.batch);
create temp table attempt (like ingest.attempt);
create temp table operator_action (like ingest.operator_action);
create temp table replay_authorization (like ingest.replay_authorization);
create temp table invoice_version (like core.invoice_version);
create temp table invoice_version_reverted (like core.invoice_version_reverted);
create temp table invoice_version_period (like core.invoice_version_period);
create temp table source_watermark (like ingest.source_watermark);
create temp table outbox (like ingest.outbox);
create temp table source (like ingest.source);
create temp table batch_transition (like ingest.batch_transition);
create temp table rejection_row (like ingest.rejection_row);
insert into pg_temp.invoice_version
select * from core.invoice_version where batch_id = :first limit 1;
update pg_temp.invoice_version set invoice_number = 'SHADOW', customer_id = 'SHADOW';
create function pg_temp.pg_has_role(name, text, text) returns boolean language sql as 'select true';
create function pg_temp.require_operator(text) returns void language sql as 'select';
create function pg_temp.transition(bigint, text, text, bigint, jsonb) returns void language sql as 'select';
create function pg_temp.btrim(text) returns text language sql as 'select ''x''';
grant all on all tables in schema pg_temp to public;

select is((select count(*)::integer from reporting.invoice_as_of(clock_timestamp()) as a
           where a.invoice_number = 'SHADOW'), 0,
          'invoice_as_of does not read pg_temp.invoice_version.');
select is((select count(*)::integer from reporting.invoice_as_of_batch(:first)), 20,
          'invoice_as_of_batch shows the real publication.');

set local session authorization shadow_test_clerk;
select throws_ok(format('select * from ingest.replay_batch(%s, %L)', :first, 'x'), 'IV401', null,
                 'A pg_temp pg_has_role or require_operator does not make a clerk an operator.');
reset session authorization;

set local session authorization shadow_test_operator;
select lives_ok(format('select * from ingest.revert_batch(%s, %L)', :first, 'shadowed revert'),
                'revert_batch works with the shadows in place.');
select lives_ok(format('select * from ingest.replay_batch(%s, %L)', :first, 'shadowed replay'),
                'replay_batch works with the shadows in place.');
reset session authorization;
select is((select s.state from tests.stage_batch(:'source', tests.d(), tests.seed_lines()) as s),
          'staged', 'begin_attempt consumes the replay with the shadows in place.');

select is((select array_agg(o.action order by o.action_id) from ingest.operator_action as o
           where o.batch_id = :first),
          array['revert', 'replay'], 'The actions are in ingest.operator_action.');
select is((select b.state from ingest.batch as b where b.batch_id = :first), 'staged',
          'The real batch moved (reverted, then received and staged again).');
select is((select (select count(*) from pg_temp.batch) + (select count(*) from pg_temp.attempt)
                + (select count(*) from pg_temp.operator_action)
                + (select count(*) from pg_temp.replay_authorization)
                + (select count(*) from pg_temp.invoice_version_reverted)
                + (select count(*) from pg_temp.invoice_version_period)
                + (select count(*) from pg_temp.source_watermark)
                + (select count(*) from pg_temp.outbox)
                + (select count(*) from pg_temp.rejection_row))::integer, 0,
          'Nothing was written to the pg_temp shadows.');

select * from finish();
rollback;
