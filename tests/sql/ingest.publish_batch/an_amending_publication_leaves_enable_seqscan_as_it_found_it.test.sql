-- ingest.publish_batch turns enable_seqscan off for the supersession
-- statement alone (it finds each superseded version through the
-- one-current index) and gives the caller's value back: after a
-- publication that amends, the setting is what it was before, whether on
-- (the default) or off.
begin;
select plan(4);

select tests.make_source() as source \gset
select state as s1 from tests.load_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset
select state as s2, batch_id as b2 from tests.load_batch(:'source', tests.d() + 1, array[
  tests.line('INV-1', p_revision => '1', p_net_amount => '90.00', p_tax_amount => '18.00',
             p_gross_amount => '108.00')]) \gset
select is(format('%s %s %s', :'s1', :'s2',
                 (select b.merge_counts ->> 'amended' from ingest.batch as b where b.batch_id = :b2)),
          'published published 1', 'The second file amends INV-1 (the supersession ran).');
select is(pg_catalog.current_setting('enable_seqscan'), 'on',
          'enable_seqscan is on again after the publication.');

set local enable_seqscan = off;
select state as s3, batch_id as b3 from tests.load_batch(:'source', tests.d() + 2, array[
  tests.line('INV-1', p_revision => '2', p_net_amount => '80.00', p_tax_amount => '16.00',
             p_gross_amount => '96.00')]) \gset
select is(format('%s %s', :'s3',
                 (select b.merge_counts ->> 'amended' from ingest.batch as b where b.batch_id = :b3)),
          'published 1', 'The third file amends INV-1 again.');
select is(pg_catalog.current_setting('enable_seqscan'), 'off',
          'A caller''s enable_seqscan = off stays off.');

select * from finish();
rollback;
