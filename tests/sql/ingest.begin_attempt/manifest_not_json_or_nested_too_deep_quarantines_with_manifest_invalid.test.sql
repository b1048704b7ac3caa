-- ingest.begin_attempt / parse_manifest: a manifest text the server cannot
-- read as JSON quarantines its batch with manifest.invalid on record 0,
-- whatever error the cast raised: not JSON (22P02), a \u0000 escape
-- (22P05), an array nested 100,000 deep (54001, the server's stack depth:
-- it used to escape begin_attempt and end the load with exit 70), and a
-- net_total or tax_total that is not a plain decimal.  Each batch is
-- registered, quarantined at once with one batch_quarantined notification,
-- and nothing of it is staged.
begin;
select plan(10);

select tests.make_source() as source \gset

create temporary table cases (n integer, name text, manifest text) on commit drop;
insert into cases values
  (1, 'not JSON', '{"record_count": 20, "control_total": "4200.00"'),
  (2, 'a \u0000 escape', '{"record_count": 20, "control_total": "4200.00", "note": "a\u0000b"}'),
  (3, 'nested 100,000 deep', repeat('[', 100000) || repeat(']', 100000)),
  (4, 'net_total in exponent form',
      '{"record_count": 20, "control_total": "4200.00", "net_total": "3.36e3"}'),
  (5, 'tax_total not a number', '{"record_count": 20, "control_total": "4200.00", "tax_total": true}');

create temporary table staged (n integer, batch_id bigint, state text) on commit drop;
insert into staged
select c.n, s.batch_id, s.state
from cases as c
cross join lateral tests.stage_batch(:'source', tests.d() + c.n, tests.seed_lines(20),
                                     p_manifest => c.manifest) as s;

select is(s.state, 'quarantined', format('%s: begin_attempt reports the batch quarantined.', c.name))
from staged as s join cases as c using (n) where c.n <= 3 order by c.n;
select is(tests.rejections(s.batch_id), array['0 manifest.invalid'],
          format('%s: the only reason is manifest.invalid on the whole file.', c.name))
from staged as s join cases as c using (n) order by c.n;
select is((select count(*)::integer from ingest.notification as o
           where o.batch_id in (select s.batch_id from staged as s) and o.kind = 'batch_quarantined'),
          5, 'Each batch has its batch_quarantined notification.');
select is_empty($$ select 1 from staging.invoice_line
                   where batch_id in (select batch_id from staged) $$,
                'Nothing of them is staged.');

select * from finish();
rollback;
