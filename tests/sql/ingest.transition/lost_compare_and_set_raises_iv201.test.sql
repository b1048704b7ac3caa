-- ingest.transition is a compare-and-set: when the batch is no longer in
-- p_from (another run moved it first), the move raises IV201 and neither
-- the state nor the event log changes.
begin;
select plan(5);

select tests.make_source() as source \gset
select tests.make_batch(:'source', tests.d(), 'received') as batch_id \gset

select lives_ok(format('select ingest.transition(%s, %L, %L, null)', :batch_id, 'received', 'staged'),
                'The first run moves the batch from received to staged.');

select throws_ok(format('select ingest.transition(%s, %L, %L, null)', :batch_id, 'received', 'staged'),
                 'IV201', null,
                 'A second run making the same move finds the batch already staged.');

select throws_ok(format('select ingest.transition(%s, %L, %L, null)', :batch_id, 'received', 'quarantined'),
                 'IV201', null,
                 'Quarantining from a state the batch has left is refused.');

select is((select b.state from ingest.batch as b where b.batch_id = :batch_id), 'staged',
          'The batch stays where the winning run put it.');

select is((select count(*)::integer from ingest.batch_event as e where e.batch_id = :batch_id), 1,
          'Only the winning move is recorded.');

select * from finish();
rollback;
