-- ingest.validate_batch on a batch that is still received (nothing staged
-- yet) raises IV201 and writes nothing; on an unknown batch it raises IV208.
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id, attempt_id from tests.stage_batch(:'source', tests.d(), tests.seed_lines(3), p_stage => false) \gset

select throws_ok(format('select * from ingest.validate_batch(%s, %s)', :batch_id, :attempt_id),
                 'IV201', null, 'A received batch cannot be validated.');
select is((select b.state from ingest.batch as b where b.batch_id = :batch_id), 'received',
          'The batch stays received.');
select is(tests.rejections(:batch_id), '{}'::text[], 'No rejection is written.');
select throws_ok(format('select * from ingest.validate_batch(%s, null)', :batch_id + 1000),
                 'IV208', null, 'An unknown batch cannot be validated.');

select * from finish();
rollback;
