-- reporting.invoice_as_of(ts) is exactly what reporting.invoice showed at
-- ts: five publications and one revert, each committed in a session of its
-- own (dblink: a publication records its transaction's time), with a
-- snapshot of reporting.invoice after each; as_of at each snapshot's time
-- equals it, and before the first publication it is empty.  The history
-- covers amendment, void, a new invoice, an unchanged resend, a late
-- revision, a revert that restores two versions, a corrected file for the
-- reverted date and a later amendment of a restored version.  The fixture
-- is committed under a source of its own and purged at the end.
begin;
select plan(8);

create temp table snap on commit drop as
  select 0 as n, now() as ts, i.* from reporting.invoice as i where false;
select dblink.dblink_connect('tt', tests.conninfo());
select * from dblink.dblink('tt', $$ select tests.make_source('as-of-trail') $$) as t(source text);
select clock_timestamp() as ts0 \gset

create function pg_temp.step(p_n integer, p_sql text) returns void language plpgsql as $$
begin
  perform * from dblink.dblink('tt', p_sql) as t(x text);
  insert into snap
  select p_n, clock_timestamp(), i.* from reporting.invoice as i where i.source = 'as-of-trail';
  if not found then
    insert into snap (n, ts) values (p_n, clock_timestamp());
  end if;
end;
$$;

select pg_temp.step(1, $$ select state from tests.load_batch('as-of-trail', tests.d(), tests.first_day_lines()) $$);
select pg_temp.step(2, $$ select state from tests.load_batch('as-of-trail', tests.d() + 1, tests.second_day_lines()) $$);
select pg_temp.step(3, $$ select state from tests.load_batch('as-of-trail', tests.d() + 2, array[
    tests.line('INV-0001', p_revision => '2', p_net_amount => '300.00', p_tax_amount => '60.00',
               p_gross_amount => '360.00'),
    tests.line('INV-0005', p_revision => '1', p_status => 'VOID')]) $$);
select pg_temp.step(4, $$ select tests.revert(max(b.batch_id))::text from ingest.batch as b
                          where b.source = 'as-of-trail' $$);
select pg_temp.step(5, $$ select state from tests.load_batch('as-of-trail', tests.d() + 2, array[
    tests.line('INV-0001', p_revision => '2', p_customer_id => 'CUST-FIXED'),
    tests.line('INV-0200')]) $$);
select pg_temp.step(6, $$ select state from tests.load_batch('as-of-trail', tests.d() + 3, array[
    tests.line('INV-0005', p_revision => '1', p_description => 'amended after the revert')]) $$);

select is((select count(*)::integer from ingest.batch as b where b.source = 'as-of-trail' and b.state = 'published'), 4,
          'The trail: four batches published, one reverted.');
select is_empty(format($$ select * from reporting.invoice_as_of(%L) where source = 'as-of-trail' $$, :'ts0'),
                'Before the first publication nothing is shown.');
select set_eq(format($$ select * from reporting.invoice_as_of(%L) where source = 'as-of-trail' $$,
                     (select max(s.ts) from snap as s where s.n = g.n)),
              format($$ select source, invoice_number, revision, document_type, customer_id, invoice_date,
                               due_date, currency, net_amount, tax_amount, gross_amount, description,
                               batch_id, published_at
                        from snap where n = %s and source is not null $$, g.n),
              format('After step %s (%s) as_of shows what reporting.invoice showed.', g.n,
                     (array['publication 1', 'publication 2', 'publication 3', 'revert of 3',
                            'corrected file', 'publication 5'])[g.n]))
from generate_series(1, 6) as g(n)
order by g.n;

select * from dblink.dblink('tt', $$ select tests.purge_source('as-of-trail')::text $$) as t(done text);
select dblink.dblink_disconnect('tt');

select * from finish();
rollback;
