-- ingest.transition: the state machine (ingest.batch_transition) is
-- exactly the eleven legal moves (received->staged->validated->published,
-- received|staged|validated->quarantined, published->reverted,
-- quarantined|reverted->received when a replay is consumed,
-- staged|validated->received when a crash took the staged rows), and each
-- of them sets the batch's state and writes exactly one
-- ingest.batch_event row with the from and to states, the attempt and the
-- detail.
begin;
select plan(23);

select set_eq($$ select from_state, to_state from ingest.batch_transition $$,
              $$ values ('received', 'staged'), ('staged', 'validated'), ('validated', 'published'),
                        ('received', 'quarantined'), ('staged', 'quarantined'),
                        ('validated', 'quarantined'), ('published', 'reverted'),
                        ('quarantined', 'received'), ('reverted', 'received'),
                        ('staged', 'received'), ('validated', 'received') $$,
              'The state machine holds exactly the eleven legal moves.');

select tests.make_source() as source \gset

create temp table legal on commit drop as
select p.from_state, p.to_state,
       tests.make_batch(:'source', tests.d(), p.from_state) as batch_id,
       null::bigint as attempt_id
from ingest.batch_transition as p;
update legal set attempt_id = tests.make_attempt(batch_id);

do $$
begin
  perform ingest.transition(l.batch_id, l.from_state, l.to_state, l.attempt_id,
                            jsonb_build_object('move', l.from_state || '->' || l.to_state))
  from legal as l;
end
$$;

select is((select b.state from ingest.batch as b where b.batch_id = l.batch_id), l.to_state,
          format('A %s batch moved to %s is %s.', l.from_state, l.to_state, l.to_state))
from legal as l
order by l.batch_id;

select is((select array_agg(format('%s>%s attempt %s %s', e.from_state, e.to_state,
                                   e.attempt_id, e.detail ->> 'move'))
           from ingest.batch_event as e where e.batch_id = l.batch_id),
          array[format('%s>%s attempt %s %s->%s', l.from_state, l.to_state, l.attempt_id,
                       l.from_state, l.to_state)],
          format('Moving %s to %s writes exactly one event with both states, the attempt and the detail.',
                 l.from_state, l.to_state))
from legal as l
order by l.batch_id;

select * from finish();
rollback;
