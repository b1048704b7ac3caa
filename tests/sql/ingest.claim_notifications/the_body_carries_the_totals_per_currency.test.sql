-- ingest.claim_notifications: the body of a batch_published row carries
-- the manifest's totals per currency (control_totals) of a file of EUR
-- and JPY, as the manifest gave them, and null for a manifest with a
-- single control_total.
begin;
select plan(3);

select tests.make_source('acme-erp', p_start_date => tests.d());
select batch_id as batch, state from tests.load_batch('acme-erp', tests.d(),
  tests.seed_lines(20)
    || array[tests.line('JPY-1', p_currency => 'JPY', p_net_amount => '10000',
                        p_tax_amount => '1000', p_gross_amount => '11000')],
  ((tests.manifest('acme-erp', tests.d(), 21, '0')::jsonb - 'control_total')
   || '{"control_totals": {"EUR": "4200.00", "JPY": "11000"}}')::text) \gset
select is(:'state'::text, 'published', 'The file of EUR and JPY publishes against its control_totals.');
select is((select c.payload -> 'control_totals' from ingest.claim_notifications(1, 'x') as c),
          '{"EUR": "4200.00", "JPY": "11000"}'::jsonb,
          'The body carries each currency''s total as the manifest gave it.');

select pg_catalog.pg_advisory_unlock_all();
update ingest.notification set state = 'dispatched', dispatched_at = pg_catalog.now()
 where batch_id = :batch;
select batch_id as single from tests.load_batch('acme-erp', tests.d() + 1, tests.seed_lines(20))
\gset
select is((select jsonb_typeof(c.payload -> 'control_totals')
           from ingest.claim_notifications(1, 'y') as c),
          'null', 'A single control_total: control_totals is null.');

select * from finish();
rollback;
