-- ingest.begin_attempt for a business date before the source's start date
-- raises IV303 and registers nothing; the start date itself is accepted.
begin;
select plan(3);

select tests.make_source(p_start_date => tests.d()) as source \gset

select throws_ok(format($$ select * from tests.stage_batch(%L, tests.d() - 1, tests.seed_lines(),
                                                           p_stage => false) $$, :'source'),
                 'IV303', null, 'A file for the day before the start date is refused.');
select is_empty(format('select 1 from ingest.batch where source = %L', :'source'),
                'Nothing is registered for the refused date.');
select lives_ok(format($$ select * from tests.stage_batch(%L, tests.d(), tests.seed_lines(),
                                                          p_stage => false) $$, :'source'),
                'A file for the start date itself is registered.');

select * from finish();
rollback;
