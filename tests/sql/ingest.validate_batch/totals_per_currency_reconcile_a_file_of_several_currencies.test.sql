-- ingest.validate_batch, rules reconcile.control_total_needs_currency and
-- reconcile.control_total per currency: a sum of amounts in different
-- currencies means nothing, so a file of several currencies reconciles
-- against the manifest's control_totals (ISO 4217 code to its sum).  The
-- file: the seed's 20 EUR invoices (4,200.00) and two JPY invoices
-- (11000 + 22000 = 33000).  With control_totals {EUR 4200.00, JPY 33000}
-- it is validated; with only control_total 37200.00 (the meaningless sum)
-- it is quarantined with reconcile.control_total_needs_currency naming
-- both currencies; with JPY a yen off, or without JPY, or with a currency
-- the file lacks, it is quarantined with reconcile.control_total.  Each
-- quarantined batch keeps nothing for publication.
begin;
select plan(8);

select tests.make_source() as source \gset
create temporary table runs (n integer, batch_id bigint, state text) on commit drop;
insert into runs
select c.n, s.batch_id, v.state
from (values (1, '{"control_totals": {"EUR": "4200.00", "JPY": "33000"}}'::jsonb),
             (2, '{"control_total": "37200.00"}'::jsonb),
             (3, '{"control_totals": {"EUR": "4200.00", "JPY": "32999"}}'::jsonb),
             (4, '{"control_totals": {"EUR": "4200.00"}}'::jsonb),
             (5, '{"control_totals": {"EUR": "4200.00", "JPY": "33000", "USD": "1.00"}}'::jsonb))
       as c(n, totals)
cross join lateral tests.stage_batch(
  :'source', tests.d() + c.n,
  tests.seed_lines(20)
    || array[tests.line('JPY-1', p_currency => 'JPY', p_net_amount => '10000',
                        p_tax_amount => '1000', p_gross_amount => '11000'),
             tests.line('JPY-2', p_currency => 'JPY', p_net_amount => '20000',
                        p_tax_amount => '2000', p_gross_amount => '22000')],
  p_manifest => ((tests.manifest(:'source', tests.d() + c.n, 22, '0')::jsonb - 'control_total')
                 || c.totals)::text) as s
cross join lateral tests.validate(s.batch_id) as v;

select is(r.state || ' ' || tests.rejections(r.batch_id)::text, 'validated {}',
          'control_totals with each currency''s sum: validated, no rejection.')
from runs as r where r.n = 1;
select is(r.state || ' ' || tests.rejections(r.batch_id)::text,
          'quarantined {"0 reconcile.control_total_needs_currency"}',
          'A single control_total on a file of EUR and JPY: quarantined with its own rule, even '
          'though it equals the sum of the amounts.')
from runs as r where r.n = 2;
select ok((select bool_and(d.detail like '%EUR, JPY%')
           from ingest.rejection as d, runs as r where r.n = 2 and d.batch_id = r.batch_id),
          'The detail names the currencies found.');
select is(r.state || ' ' || tests.rejections(r.batch_id)::text,
          'quarantined {"0 reconcile.control_total"}',
          'JPY a yen off: quarantined with reconcile.control_total.')
from runs as r where r.n = 3;
select ok((select bool_and(d.detail like '%JPY sum to 33000%32999%')
           from ingest.rejection as d, runs as r where r.n = 3 and d.batch_id = r.batch_id),
          'The detail names the currency and both sums.');
select is(r.state || ' ' || tests.rejections(r.batch_id)::text,
          'quarantined {"0 reconcile.control_total"}',
          'A currency of the file missing from control_totals: quarantined.')
from runs as r where r.n = 4;
select is(r.state || ' ' || tests.rejections(r.batch_id)::text,
          'quarantined {"0 reconcile.control_total"}',
          'A currency in control_totals that the file lacks: quarantined.')
from runs as r where r.n = 5;
select is(array_agg(tests.batch_outcome(r.batch_id)::text order by r.n),
          array['(quarantined,0,0)', '(quarantined,0,0)', '(quarantined,0,0)', '(quarantined,0,0)'],
          'The quarantined batches keep no record for publication.')
from runs as r where r.n > 1;

select * from finish();
rollback;
