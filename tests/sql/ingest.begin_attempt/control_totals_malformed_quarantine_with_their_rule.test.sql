-- ingest.begin_attempt / parse_manifest: the manifest's totals per
-- currency (control_totals, net_totals, tax_totals) are objects from an
-- ISO 4217 code the loader accepts to a decimal string with that code's
-- minor unit.  Not an object, or an empty one: manifest.invalid; a code
-- not in ingest.currency: manifest.currency_unknown; an amount with the
-- wrong number of decimals (or not a string): manifest.currency_decimals.
-- Each batch is quarantined at once and nothing of it is staged; a well
-- formed control_totals (EUR 4200.00) standing without control_total is
-- accepted and the batch staged.
begin;
select plan(8);

select tests.make_source() as source \gset

create temporary table cases (n integer, name text, manifest text, rule text) on commit drop;
insert into cases values
  (1, 'control_totals an array', '{"record_count": 20, "control_totals": ["EUR", "4200.00"]}',
      'manifest.invalid'),
  (2, 'control_totals empty', '{"record_count": 20, "control_totals": {}}', 'manifest.invalid'),
  (3, 'an unknown code', '{"record_count": 20, "control_totals": {"EURO": "4200.00"}}',
      'manifest.currency_unknown'),
  (4, 'EUR without its two decimals', '{"record_count": 20, "control_totals": {"EUR": "4200"}}',
      'manifest.currency_decimals'),
  (5, 'JPY with decimals',
      '{"record_count": 20, "control_totals": {"EUR": "4200.00"}, "net_totals": {"JPY": "10.00"}}',
      'manifest.currency_decimals'),
  (6, 'a number, not a string', '{"record_count": 20, "tax_totals": {"EUR": 840.00}, '
                                '"control_total": "4200.00"}',
      'manifest.currency_decimals');

create temporary table staged (n integer, batch_id bigint, state text) on commit drop;
insert into staged
select c.n, s.batch_id, s.state
from cases as c
cross join lateral tests.stage_batch(:'source', tests.d() + c.n, tests.seed_lines(20),
                                     p_manifest => c.manifest) as s;

select is(tests.rejections(s.batch_id), array['0 ' || c.rule],
          format('%s: quarantined with %s on the whole file.', c.name, c.rule))
from staged as s join cases as c using (n) order by c.n;
select is_empty($$ select 1 from staging.invoice_line
                   where batch_id in (select batch_id from staged) $$,
                'Nothing of them is staged.');
select is((select s.state from tests.stage_batch(:'source', tests.d() + 9, tests.seed_lines(20),
             p_manifest => '{"record_count": 20, "control_totals": {"EUR": "4200.00"}}') as s),
          'staged', 'A well formed control_totals alone is a manifest: the batch is staged.');

select * from finish();
rollback;
