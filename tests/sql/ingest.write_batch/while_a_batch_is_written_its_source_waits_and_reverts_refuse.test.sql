-- ingest.write_batch: at most one batch of a source is written and not yet
-- published.  While one is, another batch's write and publication report
-- waiting (waiting_for_batch) and write nothing; a revert of the source's
-- publication raises IV219 and changes nothing; the database itself
-- refuses a second listed batch of the source (primary key).  Once the
-- written batch publishes, the other one publishes.
begin;
select plan(10);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset
select batch_id as second from tests.stage_batch(:'source', tests.d() + 1, array[
  tests.line('INV-1', p_revision => '1', p_net_amount => '200.00', p_tax_amount => '40.00',
             p_gross_amount => '240.00')]) \gset
select batch_id as refile from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-2')], p_sha256 => repeat('b', 64)) \gset
select is((select string_agg(v.state, ',') from (select * from tests.validate(:second)
                                                  union all select * from tests.validate(:refile)) as v),
          'validated,validated', 'Both batches validate.');
select is((select w.outcome from tests.write(:second) as w), 'written', 'The second day is written.');

select is((select w.outcome || ' ' || (w.counts ->> 'waiting_for_batch') from tests.write(:refile) as w),
          'waiting ' || :second, 'A re-file of the first day waits for the written batch ...');
select is((select p.outcome || ' ' || (p.counts ->> 'waiting_for_batch') from tests.publish(:refile) as p),
          'waiting ' || :second, '... through publish_batch too ...');
select is((select count(*)::integer from core.invoice_version as v where v.batch_id = :refile), 0,
          '... and nothing of it is written.');

select throws_ok(format('select tests.revert(%s)', :first), 'IV219', null,
                 'A revert of the source''s publication refuses while a batch is written.');
select is((select b.state from ingest.batch as b where b.batch_id = :first), 'published',
          'The publication stays.');
select throws_ok(format($$insert into ingest.pending_publication (source, batch_id, published_at, counts)
                          values (%L, %s, now(), '{}')$$, :'source', :refile),
                 '23505', null, 'The database refuses a second written batch of the source.');

select is((select p.outcome from tests.publish(:second) as p), 'published', 'The written batch publishes ...');
select is((select p.outcome from tests.publish(:refile) as p), 'published', '... then the re-file does.');

select * from finish();
rollback;
