-- reporting.invoice_as_of dates a publication and a revert by their
-- commit, not by the earlier transaction that wrote the rows: a second
-- session (dblink, whose transactions commit) publishes day 1, then
--   1. writes day 2 (ingest.write_batch commits: its versions carry that
--      time) and, later, publishes it in a transaction held open while this
--      session reads reporting.invoice; as_of at every moment before the
--      publishing COMMIT shows day 1 alone, as reporting.invoice did;
--   2. reverts day 2 in a transaction held open the same way; as_of before
--      the revert's COMMIT still shows day 2.
-- Each check also proves the rows carry the earlier time (a function that
-- dated them by it would have shown the other state).  The fixture is
-- committed under a source of its own and purged at the end.
begin;
select plan(11);

create temp table seen on commit drop as
  select 0 as n, clock_timestamp() as ts, 0::bigint as invoices, 0::numeric as gross;
delete from seen;
create function pg_temp.look(p_n integer) returns void language sql as $$
  insert into seen
  select p_n, clock_timestamp(), count(*), coalesce(sum(i.gross_amount), 0)
  from reporting.invoice as i where i.source = 'as-of-commit'
$$;
create function pg_temp.as_of(p_ts timestamptz) returns text language sql as $$
  select count(*) || ' ' || coalesce(sum(a.gross_amount), 0)
  from reporting.invoice_as_of(p_ts) as a where a.source = 'as-of-commit'
$$;
create function pg_temp.seen(p_n integer) returns text language sql as $$
  select s.invoices || ' ' || s.gross from seen as s where s.n = p_n
$$;

select dblink.dblink_connect('tt', tests.conninfo());
select * from dblink.dblink('tt', $$ select tests.make_source('as-of-commit') $$) as t(source text);
select * from dblink.dblink('tt', $$ select state from tests.load_batch('as-of-commit', tests.d(),
                                       tests.first_day_lines()) $$) as t(state text);
select pg_temp.look(1);

-- 1. Day 2 written (committed), then published in a transaction held open.
select batch_id as day2 from dblink.dblink('tt', $$
  select s.batch_id from tests.stage_batch('as-of-commit', tests.d() + 1, tests.second_day_lines()) as s
$$) as t(batch_id bigint) \gset
select * from dblink.dblink('tt', format('select state from tests.validate(%s)', :day2)) as t(state text);
select * from dblink.dblink('tt', format('select outcome from tests.write(%s)', :day2)) as t(outcome text);
select pg_temp.look(2);
select dblink.dblink_exec('tt', 'begin');
select * from dblink.dblink('tt', format('select outcome from tests.publish(%s)', :day2)) as t(outcome text);
select pg_sleep(0.05);
select pg_temp.look(3);
select dblink.dblink_exec('tt', 'commit');
select pg_temp.look(4);

select isnt(pg_temp.seen(1), pg_temp.seen(4), 'Day 2 changed what reporting.invoice shows.');
select is(pg_temp.seen(2), pg_temp.seen(1), 'Written, day 2 was not shown.');
select is(pg_temp.seen(3), pg_temp.seen(1), 'Nor while its publication had not committed.');
select ok((select max(v.published_at) from core.invoice_version as v where v.batch_id = :day2)
            < (select s.ts from seen as s where s.n = 2),
          'Its versions carry the write''s time, before those reads.');
select is(pg_temp.as_of((select s.ts from seen as s where s.n = 2)), pg_temp.seen(2),
          'as_of between the write and the publication shows what readers saw: day 1 alone.');
select is(pg_temp.as_of((select s.ts from seen as s where s.n = 3)), pg_temp.seen(3),
          'as_of while the publishing transaction was open: day 1 alone.');
select is(pg_temp.as_of((select s.ts from seen as s where s.n = 4)), pg_temp.seen(4),
          'as_of after the publication''s commit: day 2 too.');

-- 2. Day 2 reverted in a transaction held open.
select dblink.dblink_exec('tt', 'begin');
select * from dblink.dblink('tt', format('select tests.revert(%s)::text', :day2)) as t(action text);
select pg_sleep(0.05);
select pg_temp.look(5);
select dblink.dblink_exec('tt', 'commit');
select pg_temp.look(6);

select ok((select max(r.reverted_at) from core.invoice_version_reverted as r where r.batch_id = :day2)
            < (select s.ts from seen as s where s.n = 5),
          'The reverted rows carry the time the revert took its lock, before the read.');
select is(pg_temp.as_of((select s.ts from seen as s where s.n = 5)), pg_temp.seen(4),
          'as_of while the revert had not committed: day 2 still shown, as readers saw.');
select is(pg_temp.as_of((select s.ts from seen as s where s.n = 6)), pg_temp.seen(1),
          'as_of after the revert''s commit: day 1 again.');
select is((select count(*)::integer from reporting.invoice_as_of_batch(:day2) as a
           where a.source = 'as-of-commit'),
          (select s.invoices::integer from seen as s where s.n = 4),
          'invoice_as_of_batch: what the publication showed once it was visible.');

select * from dblink.dblink('tt', $$ select tests.purge_source('as-of-commit')::text $$) as t(done text);
select dblink.dblink_disconnect('tt');

select * from finish();
rollback;
