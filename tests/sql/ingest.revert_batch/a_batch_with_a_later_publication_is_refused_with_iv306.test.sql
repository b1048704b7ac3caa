-- ingest.revert_batch of a publication that is not the latest of its
-- source raises IV306 (configuration: exit 78; the message names the batch
-- to revert first) and changes nothing; once the later one is reverted, the
-- earlier one can be.
begin;
select plan(5);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) \gset
select batch_id as second from tests.load_batch(:'source', tests.d() + 1, tests.second_day_lines()) \gset
create temp table shown on commit drop as select * from reporting.invoice where source = :'source';

select throws_ok(format('select * from tests.revert(%s)', :first), 'IV306', null,
                 'The first day cannot be reverted while the second is published.');
select set_eq(format('select * from reporting.invoice where source = %L', :'source'),
              'select * from shown', 'reporting.invoice is unchanged.');
select is((select array_agg(b.state order by b.batch_id) from ingest.batch as b where b.source = :'source'),
          array['published', 'published'], 'Both batches stay published.');
select is_empty(format('select 1 from ingest.operator_action where batch_id in (%s, %s)', :first, :second),
                'No operator action is recorded.');

select tests.revert(:second);
select lives_ok(format('select * from tests.revert(%s)', :first),
                'After the second day is reverted, the first can be.');

select * from finish();
rollback;
