-- ingest.validate_batch and publication under the partial policy, a file
-- of EUR and JPY with control_totals: the totals per currency cover every
-- record of the file, rejected ones included.  Four records: EUR 120.00
-- and 120.00 (one rejected for its revision), JPY 1200 and 2400 (one
-- rejected for its revision).  control_totals {EUR 240.00, JPY 3600}
-- (accepted + rejected) publishes the two accepted records, EUR 120.00
-- and JPY 1200 visible; {EUR 120.00, JPY 1200} (the accepted records
-- only) is quarantined with reconcile.control_total for both currencies
-- and nothing of it is visible; its one reconcile.control_total names
-- both currencies.
begin;
select plan(5);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.5) as source \gset
create temporary table runs (n integer, batch_id bigint, state text) on commit drop;
insert into runs
select c.n, l.batch_id, l.state
from (values (1, '{"EUR": "240.00", "JPY": "3600"}'::jsonb),
             (2, '{"EUR": "120.00", "JPY": "1200"}'::jsonb)) as c(n, totals)
cross join lateral tests.load_batch(
  :'source', tests.d() + c.n,
  array[tests.line('EUR-' || c.n || '-1'),
        tests.line('EUR-' || c.n || '-2', p_revision => 'one'),
        tests.line('JPY-' || c.n || '-1', p_currency => 'JPY', p_net_amount => '1000',
                   p_tax_amount => '200', p_gross_amount => '1200'),
        tests.line('JPY-' || c.n || '-2', p_currency => 'JPY', p_net_amount => '2000',
                   p_tax_amount => '400', p_gross_amount => '2400', p_revision => 'one')],
  p_manifest => jsonb_build_object('record_count', 4, 'control_totals', c.totals)::text) as l;

select is(r.state, 'published',
          'Totals over accepted + rejected per currency: the accepted records publish.')
from runs as r where r.n = 1;
select is((select string_agg(i.currency || ' ' || i.gross_amount, ', ' order by i.currency)
           from reporting.invoice as i where i.source = :'source'),
          'EUR 120.00, JPY 1200', 'Each currency''s accepted record is visible, nothing else.');
select is(r.state || ' ' || tests.rejections(r.batch_id)::text,
          'quarantined {"0 reconcile.control_total","2 revision.format","4 revision.format"}',
          'Totals of the accepted records only: quarantined with reconcile.control_total.')
from runs as r where r.n = 2;
select is((select array_to_string(array(select m[1] from regexp_matches(d.detail, 'in ([A-Z]{3}) sum', 'g')
                                         as m), ',')
           from ingest.rejection as d, runs as r
           where r.n = 2 and d.batch_id = r.batch_id and d.record_no = 0),
          'EUR,JPY', 'The one reason names each currency that does not add up.');
select is((select count(*)::integer from reporting.invoice as i
           where i.source = :'source' and i.invoice_number like '%-2-%'),
          0, 'Nothing of the quarantined batch is visible.');

select * from finish();
rollback;
