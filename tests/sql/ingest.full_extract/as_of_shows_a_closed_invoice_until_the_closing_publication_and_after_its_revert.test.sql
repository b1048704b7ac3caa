-- reporting.invoice_as_of stays exact across closures by absence: each
-- step committed in a session of its own (dblink), a snapshot of
-- reporting.invoice after each; as_of at each snapshot's time equals it:
-- before the closing publication the absent invoice is there, after it
-- not, after the revert of that publication it is back.  The fixture is
-- committed under a source of its own and purged at the end.
begin;
select plan(4);

create temp table snap on commit drop as
  select 0 as n, now() as ts, i.* from reporting.invoice as i where false;
select dblink.dblink_connect('tt', tests.conninfo());
select * from dblink.dblink('tt', $$ select tests.make_source('as-of-absent') $$) as t(source text);
select * from dblink.dblink('tt', $$ select tests.full_extract('as-of-absent')::text $$) as t(x text);

create function pg_temp.step(p_n integer, p_sql text) returns void language plpgsql as $$
begin
  perform * from dblink.dblink('tt', p_sql) as t(x text);
  insert into snap
  select p_n, clock_timestamp(), i.* from reporting.invoice as i where i.source = 'as-of-absent';
end;
$$;

select pg_temp.step(1, $$ select state from tests.load_batch('as-of-absent', tests.d(), tests.seed_lines(10)) $$);
select pg_temp.step(2, $$ select state from tests.load_batch('as-of-absent', tests.d() + 1, tests.seed_lines(9)) $$);
select pg_temp.step(3, $$ select tests.revert(max(b.batch_id))::text from ingest.batch as b
                          where b.source = 'as-of-absent' $$);

select is((select count(*)::integer from snap where n = 2), 9,
          'The fixture: the closing publication left nine invoices.');
select set_eq(format($$ select * from reporting.invoice_as_of(%L) where source = 'as-of-absent' $$,
                     (select max(s.ts) from snap as s where s.n = g.n)),
              format($$ select source, invoice_number, revision, document_type, customer_id, invoice_date,
                               due_date, currency, net_amount, tax_amount, gross_amount, description,
                               batch_id, published_at
                        from snap where n = %s $$, g.n),
              format('After step %s (%s) as_of shows what reporting.invoice showed.', g.n,
                     (array['the first extract', 'the extract closing INV-0010', 'its revert'])[g.n]))
from generate_series(1, 3) as g(n)
order by g.n;

select * from dblink.dblink('tt', $$ select tests.purge_source('as-of-absent')::text $$) as t(done text);
select dblink.dblink_disconnect('tt');

select * from finish();
rollback;
