-- ingest.revert_batch of a batch that is not published (received, staged,
-- validated, quarantined, or already reverted) raises IV305 (exit 78) and
-- records nothing; an unknown batch raises IV208.
begin;
select plan(8);

select tests.make_source() as source \gset
select batch_id as published from tests.load_batch(:'source', tests.d(), tests.seed_lines()) \gset
select tests.revert(:published) as first_revert \gset

select throws_ok(format('select * from tests.revert(%s)', b.batch_id), 'IV305', null,
                 format('A %s batch cannot be reverted.', b.state))
from (select tests.make_batch(:'source', tests.d() + 1, s) as batch_id, s as state
      from unnest(array['received', 'staged', 'validated', 'quarantined']) as s) as b
order by b.state;
select throws_ok(format('select * from tests.revert(%s)', :published), 'IV305', null,
                 'A reverted batch cannot be reverted again.');
select throws_ok('select * from tests.revert(-1)', 'IV208', null,
                 'A batch that does not exist cannot be reverted.');
select is((select count(*)::integer from ingest.operator_action as o
           join ingest.batch as b using (batch_id) where b.source = :'source'), 1,
          'Only the first revert is recorded.');
select is((select count(*)::integer from ingest.notification as n
           join ingest.batch as b using (batch_id)
           where b.source = :'source' and n.kind = 'batch_reverted'), 1,
          'Only the first revert is notified.');

select * from finish();
rollback;
