-- Least privilege with the recovery tables (docs/reference/database.md): the
-- loader role holds no INSERT, UPDATE, DELETE or TRUNCATE on any table of
-- ingest or core (a batch's state, its events, the audit trail, the replay
-- authorizations, the state machine and the versions change only through
-- the definer entry points); it may read the state machine and the audit
-- trail.  The same holds for the operator, whose writes are replay_batch,
-- revert_batch and add_source.
begin;
select plan(4);

select is_empty($$
  select format('%s has %s on %s', r.role, p.priv, c.oid::regclass)
  from pg_catalog.pg_class as c
  join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
  cross join unnest(array['invoice_loader', 'invoice_operator', 'invoice_reader']) as r(role)
  cross join unnest(array['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) as p(priv)
  where n.nspname in ('ingest', 'core') and c.relkind in ('r', 'p')
    and pg_catalog.has_table_privilege(r.role, c.oid, p.priv) $$,
  'No pipeline role may write a table of ingest or core directly.');

set local role invoice_loader;
select throws_ok($$ update ingest.batch set state = 'received' $$, '42501', null,
                 'The loader cannot set a batch''s state.');
select throws_ok($$ insert into ingest.replay_authorization (batch_id, action_id) values (1, 1) $$,
                 '42501', null, 'The loader cannot authorize a replay.');
select lives_ok($$ select * from ingest.batch_transition, ingest.operator_action $$,
                'The loader may read the state machine and the audit trail.');
reset role;

select * from finish();
rollback;
