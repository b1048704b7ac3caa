-- ingest.replay_batch of a batch that is received, staged, validated or
-- published raises IV305 (configuration: the loader exits 78) and records
-- nothing; a batch that does not exist raises IV208.
begin;
select plan(6);

select tests.make_source() as source \gset
select batch_id as published from tests.load_batch(:'source', tests.d(), tests.seed_lines()) \gset

select throws_ok(format('select * from tests.replay(%s)', b.batch_id), 'IV305', null,
                 format('A %s batch cannot be replayed.', b.state))
from (select tests.make_batch(:'source', tests.d() + 1, s) as batch_id, s as state
      from unnest(array['received', 'staged', 'validated']) as s) as b
order by b.state;
select throws_ok(format('select * from tests.replay(%s)', :published), 'IV305', null,
                 'A published batch cannot be replayed (it is reverted first).');
select throws_ok('select * from tests.replay(-1)', 'IV208', null,
                 'A batch that does not exist cannot be replayed.');
select is_empty(format('select 1 from ingest.operator_action as o join ingest.batch as b using (batch_id)
                        where b.source = %L', :'source'), 'No operator action is recorded.');

select * from finish();
rollback;
