-- ingest.begin_attempt: bytes registered with control_totals per currency
-- (and not yet published or quarantined) that come back with other totals
-- per currency raise IV102 and keep the recorded ones, as a changed
-- single control_total does; the same totals again are accepted.
begin;
select plan(4);

select tests.make_source() as source \gset
\set lines 'array[tests.line(''INV-1''), tests.line(''INV-2'', p_currency => ''JPY'', p_net_amount => ''100'', p_tax_amount => ''20'', p_gross_amount => ''120'')]'
select batch_id from tests.stage_batch(:'source', tests.d(), :lines, p_stage => false,
  p_manifest => '{"record_count": 2, "control_totals": {"EUR": "120.00", "JPY": "120"}}') \gset

select throws_ok(format($$ select * from tests.stage_batch(%L, tests.d(), %s, p_stage => false,
                          p_manifest => '{"record_count": 2, "control_totals": {"EUR": "120.00", "JPY": "121"}}') $$,
                        :'source', :'lines'),
                 'IV102', null, 'Another JPY total for the same bytes is refused.');
select throws_ok(format($$ select * from tests.stage_batch(%L, tests.d(), %s, p_stage => false,
                          p_manifest => '{"record_count": 2, "control_totals": {"EUR": "120.00"}}') $$,
                        :'source', :'lines'),
                 'IV102', null, 'Totals that leave out a currency are refused.');
select is((select b.manifest -> 'control_totals' from ingest.batch as b where b.batch_id = :batch_id),
          '{"EUR": "120.00", "JPY": "120"}'::jsonb, 'The recorded totals per currency are kept.');
select lives_ok(format($$ select * from tests.stage_batch(%L, tests.d(), %s, p_stage => false,
                         p_manifest => '{"record_count": 2, "control_totals": {"EUR": "120.00", "JPY": "120"}}') $$,
                       :'source', :'lines'),
                'The same totals again are accepted.');

select * from finish();
rollback;
