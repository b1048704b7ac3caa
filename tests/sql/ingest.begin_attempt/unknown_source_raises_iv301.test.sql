-- ingest.begin_attempt for a source nobody registered raises IV301 and
-- registers nothing.
begin;
select plan(2);

select throws_ok($$ select * from tests.stage_batch('no-such-source', tests.d(), tests.seed_lines(),
                                                    p_stage => false) $$,
                 'IV301', null, 'A file for an unknown source is refused.');
select is_empty($$ select 1 from ingest.batch where source = 'no-such-source' $$,
                'No batch is registered for the unknown source.');

select * from finish();
rollback;
