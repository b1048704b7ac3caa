-- ingest.replay_batch needs a reason: NULL, empty or blank raises IV307
-- (configuration: exit 78) and leaves no authorization.
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.seed_lines(),
                                      tests.manifest(:'source', tests.d(), 20, '4300.00')) \gset

select throws_ok(format('select * from tests.replay(%s, %L)', :batch_id, r), 'IV307', null,
                 format('The reason %s is refused.', coalesce(quote_literal(r), 'NULL')))
from unnest(array[null, '', '   ']) as r;
select is_empty(format('select 1 from ingest.replay_authorization where batch_id = %s', :batch_id),
                'No authorization is left.');

select * from finish();
rollback;
