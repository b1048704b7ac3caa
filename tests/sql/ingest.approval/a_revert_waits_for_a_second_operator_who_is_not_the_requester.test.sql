-- Four eyes, the recovery actions: for a source with require_approval a
-- revert by operator A only records a request (ingest.operator_action,
-- action request) and changes nothing.  Confirming it as A is refused
-- (IV402), and so is setting the confirm's transaction setting by hand
-- (it records the request again, nothing more).  Operator B's confirm
-- carries the revert out through ingest.revert_batch: the batch reverted,
-- the watermark back, one batch_reverted notification; the revert's audit
-- row names B (db_user) and A (requested_by) and the request it carries
-- out.  A second confirm is IV317, an unknown action IV316.
begin;
select plan(14);

create role four_eyes_a login;
create role four_eyes_b login;
grant invoice_operator to four_eyes_a, four_eyes_b;

select tests.make_source() as source \gset
select batch_id as day1 from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) \gset
select batch_id as day2 from tests.load_batch(:'source', tests.d() + 1, tests.second_day_lines()) \gset
select ingest.set_source_approval(:'source', true);
create temp table seen as select * from reporting.invoice;
grant select on seen to public;

set local session authorization four_eyes_a;
select r.action_id as request, r.reverted_versions as reverted
from ingest.revert_batch(:day2, 'wrong extract') as r \gset
reset session authorization;
select is(:reverted, 0, 'A''s revert reverts nothing yet.');
select is((select (o.action, o.requested_action, o.batch_id, o.source, o.db_user)::text
           from ingest.operator_action as o where o.action_id = :request),
          (select ('request', 'revert', :day2, :'source', 'four_eyes_a')::text),
          'It is recorded as A''s request to revert the batch.');
select is((select b.state from ingest.batch as b where b.batch_id = :day2), 'published',
          'The batch is still published.');
select set_eq('select * from reporting.invoice', 'select * from seen', 'Readers see what they saw.');

set local session authorization four_eyes_a;
select is((select r.action_id from ingest.revert_batch(:day2, 'wrong extract') as r), :request::bigint,
          'Asking again returns the same request.');
select throws_ok(format('select * from ingest.confirm_action(%s)', :request),
                 'IV402', null, 'A cannot confirm A''s own request.');
select set_config('ingest.confirm_action', :'request', true);
select is((select r.action_id from ingest.revert_batch(:day2, 'by hand') as r), :request::bigint,
          'The setting alone confirms nothing: the request is returned again.');
select set_config('ingest.confirm_action', '', true);
reset session authorization;
select is((select b.state from ingest.batch as b where b.batch_id = :day2), 'published',
          'Still published after A''s attempts.');

set local session authorization four_eyes_b;
select is((select (c.requested_action, c.requested_by, c.confirmed_by)::text
           from ingest.confirm_action(:request) as c),
          '(revert,four_eyes_a,four_eyes_b)', 'B confirms A''s request.');
reset session authorization;
select is((select (b.state, (select w.business_date from ingest.source_watermark as w
                              where w.source = :'source'))::text
           from ingest.batch as b where b.batch_id = :day2),
          (select ('reverted', tests.d())::text), 'The batch is reverted, the watermark back.');
select is((select array_agg(n.kind order by n.notification_id) from ingest.notification as n
           where n.batch_id = :day2), array['batch_published', 'batch_reverted'],
          'One batch_reverted notification, as an unconfirmed revert writes.');
select is((select (o.db_user, o.requested_by, o.confirms_action)::text
           from ingest.operator_action as o where o.batch_id = :day2 and o.action = 'revert'),
          (select ('four_eyes_b', 'four_eyes_a', :request)::text),
          'The revert''s audit row names the confirmer, the requester and the request.');

set local session authorization four_eyes_b;
select throws_ok(format('select * from ingest.confirm_action(%s)', :request),
                 'IV317', null, 'A request is confirmed once.');
select throws_ok('select * from ingest.confirm_action(-1)',
                 'IV316', null, 'An unknown action is refused.');
reset session authorization;

select * from finish();
rollback;
