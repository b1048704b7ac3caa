-- ingest.transition: every (from, to) pair of the six states that is not in
-- the state machine (ingest.batch_transition: 25 of the 36 pairs, self-moves
-- included), and a move to a state that does not exist, raise IV202, even
-- when the batch is in the from state; the batch keeps its state and no
-- event is written.
begin;
select plan(28);

select tests.make_source() as source \gset

create temp table illegal on commit drop as
select f.state as from_state, t.state as to_state,
       tests.make_batch(:'source', tests.d(), f.state) as batch_id
from unnest(array['received', 'staged', 'validated', 'published', 'quarantined', 'reverted'])
       as f(state)
cross join unnest(array['received', 'staged', 'validated', 'published', 'quarantined', 'reverted'])
       as t(state)
where not exists (select from ingest.batch_transition as m
                  where m.from_state = f.state and m.to_state = t.state)
union all
select 'received', 'deleted', tests.make_batch(:'source', tests.d(), 'received');

select throws_ok(format('select ingest.transition(%s, %L, %L, null)',
                        i.batch_id, i.from_state, i.to_state),
                 'IV202', null,
                 format('Moving a %s batch to %s is refused as illegal.', i.from_state, i.to_state))
from illegal as i
order by i.from_state, i.to_state;

select is((select count(*)::integer from illegal as i
           join ingest.batch as b using (batch_id) where b.state = i.from_state),
          26, 'Every batch keeps the state it had.');

select is_empty($$ select 1 from ingest.batch_event as e
                   where e.batch_id in (select i.batch_id from illegal as i) $$,
                'No illegal move writes an event.');

select * from finish();
rollback;
