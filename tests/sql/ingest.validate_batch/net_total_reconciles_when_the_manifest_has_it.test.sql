-- ingest.validate_batch, rule reconcile.net_total: the manifest's optional
-- net_total (docs/reference/input-file.md) is the sum of net_amount over every
-- record of the file.  The seed file (net 3,360.00, tax 840.00, gross
-- 4,200.00): with net_total 3360.00 it is validated; with 3359.99 it is
-- quarantined with reconcile.net_total on the whole file and nothing kept;
-- without net_total it is validated as before.  A file whose net and tax
-- columns are swapped has net 840.00: quarantined as well.
begin;
select plan(7);

select tests.make_source() as source \gset
create temporary table runs (n integer, name text, batch_id bigint, state text) on commit drop;
insert into runs
select c.n, c.name, s.batch_id, v.state
from (values (1, 'net_total equal', '3360.00'),
             (2, 'net_total a cent off', '3359.99'),
             (3, 'no net_total', null),
             (4, 'net and tax swapped', '3360.00')) as c(n, name, net_total)
cross join lateral tests.stage_batch(
  :'source', tests.d() + c.n,
  case when c.n = 4  -- the seed's amounts with net and tax the other way round
       then (select array_agg(tests.line(p_invoice_number => 'INV-' || lpad(i::text, 4, '0'),
                                         p_net_amount => (4 * i)::text || '.00',
                                         p_tax_amount => (16 * i)::text || '.00',
                                         p_gross_amount => (20 * i)::text || '.00') order by i)
             from generate_series(1, 20) as i)
       else tests.seed_lines(20) end,
  p_manifest => (tests.manifest(:'source', tests.d() + c.n, 20, '4200.00')::jsonb
                 || case when c.net_total is null then '{}'::jsonb
                      else jsonb_build_object('net_total', c.net_total) end)::text) as s
cross join lateral tests.validate(s.batch_id) as v;

select is(r.state, 'validated', 'net_total equal to the file''s net sum: validated.')
from runs as r where r.n = 1;
select is(r.state || ' ' || tests.rejections(r.batch_id)::text, 'quarantined {"0 reconcile.net_total"}',
          'net_total a cent off: quarantined with reconcile.net_total on the whole file, and nothing else.')
from runs as r where r.n = 2;
select is(tests.batch_outcome(r.batch_id), '(quarantined,0,0)',
          'The batch a cent off keeps no record for publication.')
from runs as r where r.n = 2;
select ok((select d.detail like 'net_amount sums to 3360.00; the manifest''s net_total says 3359.99'
           from ingest.rejection as d, runs as r where r.n = 2 and d.batch_id = r.batch_id),
          'The detail gives both sums.');
select is(r.state, 'validated', 'Without net_total the batch is validated, as before.')
from runs as r where r.n = 3;
select is(r.state || ' ' || tests.rejections(r.batch_id)::text, 'quarantined {"0 reconcile.net_total"}',
          'net and tax swapped: every record passes, but net_total quarantines the file.')
from runs as r where r.n = 4;
select is(tests.rejections(r.batch_id), '{}'::text[], 'The equal net_total adds no rejection.')
from runs as r where r.n = 1;

select * from finish();
rollback;
