-- ingest.write_batch under two concurrent sessions (dblink; the fixture is
-- committed, under a source of its own, and purged at the end): the first
-- writes its batch and holds the source's publication lock; the second,
-- writing another batch of the source, waits for that lock, and once the
-- first commits finds a batch of the source written and reports waiting
-- for it, writing nothing.  Then the written batch publishes, and the
-- other one after it: never two written batches of a source, never two
-- current versions of a key.
begin;
select plan(7);

select dblink.dblink_connect('setup', tests.conninfo());
select * from dblink.dblink('setup', $$
  select d.batch_id, r.batch_id
  from (select tests.make_source('write-race') as source) as s,
       tests.stage_batch(s.source, tests.d(), array[tests.line('INV-1'), tests.line('INV-2')]) as d,
       tests.stage_batch(s.source, tests.d() + 1,
                         array[tests.line('INV-1', p_revision => '1', p_net_amount => '200.00',
                                          p_tax_amount => '40.00', p_gross_amount => '240.00')]) as r $$)
  as t(first bigint, second bigint) \gset
select * from dblink.dblink('setup', format(
  'select v.state from tests.validate(%s) as v union all select v.state from tests.validate(%s) as v',
  :first, :second)) as t(state text);

select dblink.dblink_connect('a', tests.conninfo());
select dblink.dblink_connect('b', tests.conninfo());
select (select t.pid from dblink.dblink('b', 'select pg_backend_pid()') as t(pid integer)) as b_pid \gset

select dblink.dblink_exec('a', 'begin');
select is((select t.outcome from dblink.dblink('a', format('select outcome from tests.write(%s)', :first))
           as t(outcome text)), 'written', 'The first session writes its batch (not committed yet).');

select dblink.dblink_send_query('b', format('select outcome, counts::text from tests.write(%s)', :second));
-- bounded wait until the second session waits for the first
select ok(tests.wait_until_blocked(:b_pid),
            'The second session waits for the first one''s lock on the source.');

select dblink.dblink_exec('a', 'commit');
select is((select t.outcome || ' ' || (t.counts::jsonb ->> 'waiting_for_batch')
           from dblink.dblink_get_result('b') as t(outcome text, counts text)),
          'waiting ' || :first, 'After the first commits, the second waits for the written batch ...');
select * from dblink.dblink_get_result('b') as t(outcome text, counts text);
select is((select count(*)::integer from core.invoice_version as v where v.batch_id = :second), 0,
          '... having written nothing.');
select is((select array_agg(p.batch_id) from ingest.pending_publication as p where p.source = 'write-race'),
          array[:first::bigint], 'One batch of the source is written.');

select is((select t.outcome from dblink.dblink('a', format('select outcome from tests.publish(%s)', :first))
           as t(outcome text)), 'published', 'The written batch publishes ...');
select is((select t.outcome || ' ' || t.n
           from dblink.dblink('b', format($$
             select p.outcome, (select count(*) from core.invoice_version as v
                                where v.source = 'write-race' and v.invoice_number = 'INV-1' and v.is_current)
             from tests.publish(%s) as p $$, :second)) as t(outcome text, n bigint)),
          'published 1', '... then the other, and INV-1 has one current version.');

select dblink.dblink_disconnect('a');
select dblink.dblink_disconnect('b');
select * from dblink.dblink('setup', $$ select tests.purge_source('write-race')::text $$) as t(done text);
select dblink.dblink_disconnect('setup');

select * from finish();
rollback;
