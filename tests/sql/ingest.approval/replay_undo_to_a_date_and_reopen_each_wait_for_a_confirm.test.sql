-- Four eyes for the other recovery actions of a source with
-- require_approval: a replay, an undo to a date and a period reopen are
-- each recorded as a request that changes nothing, and each takes effect
-- on a second operator's confirm, with the same result as without four
-- eyes (the replay's authorization, every later publication reverted, the
-- period open).  A close needs no confirm.  Turning the option off makes
-- the next action immediate again.
begin;
select plan(11);

create role four_eyes_c login;
create role four_eyes_d login;
grant invoice_operator to four_eyes_c, four_eyes_d;

select tests.make_source() as source \gset
select tests.d() as d \gset
select batch_id as day1 from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) \gset
select batch_id as day2 from tests.load_batch(:'source', tests.d() + 1, tests.second_day_lines()) \gset
select batch_id as bad from tests.load_batch(:'source', tests.d() + 2, tests.seed_lines(),
                                             tests.manifest(:'source', tests.d() + 2, 20, '4300.00')) \gset
select ingest.set_source_approval(:'source', true);

set local session authorization four_eyes_c;
select r.action_id as replay_request from ingest.replay_batch(:bad, 'manifest corrected') as r \gset
select r.action_id as undo_request from ingest.revert_to_date(:'source', :'d', 'wrong since') as r \gset
select (r.action_id, r.locked_now)::text as close_row
from ingest.set_period_lock(:'source', true, :'d', 'closed') as r \gset
select r.action_id as reopen_request from ingest.set_period_lock(:'source', false, null, 'adjust') as r \gset
reset session authorization;

select is_empty(format('select 1 from ingest.replay_authorization where batch_id = %s', :bad),
                'The replay request authorizes nothing yet.');
select is((select b.state from ingest.batch as b where b.batch_id = :day2), 'published',
          'The undo request reverts nothing yet.');
select is((select s.locked_through from ingest.source as s where s.source = :'source'), tests.d(),
          'A close took effect at once; the reopen request left it closed.');
select is((select array_agg(o.requested_action order by o.action_id) from ingest.operator_action as o
           where o.action = 'request' and o.source = :'source'),
          array['replay', 'revert_to_date', 'period_reopen'], 'Three requests are recorded.');
select is((select jsonb_array_length(ingest.status_report() -> 'pending_confirmations')), 3,
          'status lists the three awaiting confirmation.');

set local session authorization four_eyes_d;
select is((select c.requested_action from ingest.confirm_action(:replay_request) as c), 'replay',
          'D confirms the replay.');
select is((select c.requested_action from ingest.confirm_action(:reopen_request) as c), 'period_reopen',
          'D confirms the reopen.');
select is((select c.requested_action from ingest.confirm_action(:undo_request) as c), 'revert_to_date',
          'D confirms the undo (the period open now).');
reset session authorization;

select is(row((select count(*) from ingest.replay_authorization as r where r.batch_id = :bad),
               (select b.state from ingest.batch as b where b.batch_id = :day2),
               (select s.locked_through from ingest.source as s where s.source = :'source'))::text,
          '(1,reverted,)', 'Each took effect: an authorization, the revert, the period open.');
select is((select array_agg(o.action || ' ' || o.db_user || ' ' || o.requested_by order by o.action_id)
           from ingest.operator_action as o where o.confirms_action is not null),
          array['replay four_eyes_d four_eyes_c', 'period_reopen four_eyes_d four_eyes_c',
                'revert four_eyes_d four_eyes_c'],
          'Each audit row names both operators.');

select ingest.set_source_approval(:'source', false);
set local session authorization four_eyes_c;
select is((select r.reverted_versions from ingest.revert_batch(:day1, 'off again') as r), 21,
          'Without the option a revert is immediate again.');
reset session authorization;

select * from finish();
rollback;
