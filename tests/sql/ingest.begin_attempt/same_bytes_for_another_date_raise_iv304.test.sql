-- ingest.begin_attempt with bytes already registered for business date D,
-- now offered for another date, raises IV304: the same bytes are one batch
-- forever.  The existing batch is untouched.
begin;
select plan(4);

select tests.make_source() as source \gset
select * from tests.stage_batch(:'source', tests.d(), tests.seed_lines(), p_stage => false,
                                p_sha256 => repeat('ab', 32)) \gset

select throws_ok(format($$ select * from tests.stage_batch(%L, tests.d() + 1, tests.seed_lines(),
                                                           p_stage => false, p_sha256 => %L) $$,
                        :'source', repeat('ab', 32)),
                 'IV304', null, 'The same bytes for the next business date are refused.');
select is((select array_agg(b.batch_id) from ingest.batch as b where b.source = :'source'),
          array[:batch_id]::bigint[], 'No second batch is registered.');
select is((select b.business_date from ingest.batch as b where b.batch_id = :batch_id), tests.d(),
          'The batch keeps its business date.');
select is((select count(*)::integer from ingest.attempt as a where a.batch_id = :batch_id), 1,
          'The refused delivery opens no attempt.');

select * from finish();
rollback;
