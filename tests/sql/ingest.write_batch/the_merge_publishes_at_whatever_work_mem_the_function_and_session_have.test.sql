-- ingest.write_batch runs the merge's INSERT of a batch with one record per
-- key at work_mem 16 MB and raises hash_mem_multiplier so that its hash
-- joins keep the budget they had (docs/PERFORMANCE.md, "The merge's
-- transition table").  Whatever work_mem an operator sets on the function
-- (docs/guide/operate.md: higher, or lower than 16 MB) and whatever
-- hash_mem_multiplier the session has (here one whose scaled value would
-- pass PostgreSQL's maximum of 1000, 22023 if it were set unbounded), an
-- amending and a voiding batch write and publish as at the default, and
-- the caller's settings are as they were afterwards.
begin;
select plan(9);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-1'), tests.line('INV-2', p_net_amount => '50.00', p_tax_amount => '10.00',
                                  p_gross_amount => '60.00')]) \gset

-- 1 GB on the function, a multiplier of 100 in the session: 100 x 64
-- would be 6400.
alter function ingest.write_batch(bigint, bigint) set work_mem = '1GB';
set local hash_mem_multiplier = 100;
set local work_mem = '3MB';
select batch_id as second from tests.stage_batch(:'source', tests.d() + 1, array[
  tests.line('INV-1', p_revision => '1', p_net_amount => '200.00', p_tax_amount => '40.00',
             p_gross_amount => '240.00'),
  tests.line('INV-3', p_net_amount => '10.00', p_tax_amount => '2.00', p_gross_amount => '12.00')]) \gset
select is((select v.state from tests.validate(:second) as v), 'validated', 'The second day validates.');
select is((select w.outcome from tests.write(:second) as w), 'written',
          'It is written with work_mem 1GB on the function and hash_mem_multiplier 100 in the session.');
select is((select current_setting('work_mem') || ' ' || current_setting('hash_mem_multiplier')),
          '3MB 100', 'The session''s work_mem and hash_mem_multiplier are as they were.');
select is((select p.outcome from tests.publish(:second) as p), 'published', 'It publishes.');

-- 8 MB on the function: below the merge's 16 MB, which then stays 8 MB.
alter function ingest.write_batch(bigint, bigint) set work_mem = '8MB';
select batch_id as third from tests.stage_batch(:'source', tests.d() + 2, array[
  tests.line('INV-2', p_revision => '1', p_status => 'VOID', p_net_amount => '50.00',
             p_tax_amount => '10.00', p_gross_amount => '60.00'),
  tests.line('INV-4', p_net_amount => '20.00', p_tax_amount => '4.00', p_gross_amount => '24.00')]) \gset
select is((select v.state from tests.validate(:third) as v), 'validated', 'The third day validates.');
select is((select w.outcome from tests.write(:third) as w), 'written',
          'It is written with work_mem 8MB on the function.');
select is((select p.outcome from tests.publish(:third) as p), 'published', 'It publishes.');

select is((select array_agg(i.invoice_number || ' r' || i.revision || ' ' || i.gross_amount
                            order by i.invoice_number)
           from reporting.invoice as i where i.source = :'source'),
          array['INV-1 r1 240.00', 'INV-3 r0 12.00', 'INV-4 r0 24.00'],
          'reporting.invoice shows the amendment and the new invoices, not the voided one.');
select is((select string_agg(b.batch_id || ':' || (b.merge_counts ->> 'inserted') || '/'
                             || (b.merge_counts ->> 'amended') || '/' || (b.merge_counts ->> 'voided'),
                             ' ' order by b.batch_id)
           from ingest.batch as b where b.batch_id in (:second, :third)),
          :second || ':1/1/0 ' || :third || ':1/0/1',
          'Each batch reconciled what it merged: one new and one amended, then one new and one voided.');

select * from finish();
rollback;
