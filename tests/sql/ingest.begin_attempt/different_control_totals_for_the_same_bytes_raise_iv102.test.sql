-- ingest.begin_attempt: when bytes already registered (and not yet
-- published or quarantined) come back with other control totals than the
-- ones recorded, it raises IV102 and keeps the recorded totals; the same
-- totals again are accepted.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), tests.seed_lines(20), p_stage => false) \gset

select throws_ok(format($$ select * from tests.stage_batch(%L, tests.d(), tests.seed_lines(20), p_stage => false,
                                                           p_manifest => tests.manifest(%L, tests.d(), 20, '4300.00')) $$,
                        :'source', :'source'),
                 'IV102', null, 'Another control total for the same bytes is refused.');
select is((select (b.record_count, b.control_total)::text from ingest.batch as b where b.batch_id = :batch_id),
          '(20,4200.00)', 'The recorded control totals are kept.');
select lives_ok(format($$ select * from tests.stage_batch(%L, tests.d(), tests.seed_lines(20), p_stage => false) $$,
                       :'source'),
                'The same control totals again are accepted.');

select * from finish();
rollback;
