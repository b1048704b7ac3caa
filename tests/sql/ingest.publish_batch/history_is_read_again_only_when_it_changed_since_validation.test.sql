-- ingest.publish_batch reads the history of the batch's keys again, under
-- the source's publication lock, only when a publication or revert of the
-- source committed since validation read it (ingest.history_stamp, kept in
-- ingest.batch.history_stamp); otherwise validation's read
-- (staging.key_version) is exactly what history holds.  Counted with
-- pg_stat_xact_user_functions (calls of ingest.key_history in this
-- transaction).  1. D+1 amends INV-1, validated and published with nothing
-- in between: one read, in validation, and the amendment is right.
-- 2. D+3 amends INV-1 again and waits for D+2, which publishes meanwhile
-- (and amends INV-2): D+3's publication reads again, and sees D+2's
-- version of INV-2, under which it conflicts.  3. After a revert the stamp
-- moves too.
begin;
select plan(9);
set local track_functions = 'all';

create function pg_temp.reads() returns bigint language sql as $$
  select coalesce((select calls from pg_stat_xact_user_functions
                   where schemaname = 'ingest' and funcname = 'key_history'), 0)
$$;

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.5) as source \gset
select outcome as d0 from tests.load_batch(:'source', tests.d(),
  array[tests.line('INV-1'), tests.line('INV-2')]) \gset
select pg_temp.reads() as r0 \gset

-- 1. Nothing in between.
select batch_id as d1_batch from tests.stage_batch(:'source', tests.d() + 1,
  array[tests.line('INV-1', p_revision => '1', p_net_amount => '200.00',
                   p_tax_amount => '40.00', p_gross_amount => '240.00')]) \gset
select state as d1_valid from tests.validate(:d1_batch) \gset
select pg_temp.reads() - :r0 as after_validation \gset
select outcome as d1_outcome from tests.publish(:d1_batch) \gset
select is(format('%s %s %s', :'d0', :'d1_valid', :'d1_outcome'), 'published validated published',
          'D and D+1 publish.');
select is(pg_temp.reads() - :r0, 1::bigint,
          'History was read once for D+1, in validation, not again in its publication.');
select is((select (merge_counts ->> 'amended') || ' ' || (merge_counts ->> 'inserted')
           from ingest.batch where batch_id = :d1_batch), '1 0',
          'D+1 amends INV-1 from validation''s read.');

-- 2. D+3 validated, D+2 published meanwhile, then D+3 published.
select batch_id as d3_batch, outcome as d3_first
from tests.load_batch(:'source', tests.d() + 3,
  array[tests.line('INV-1', p_revision => '2', p_net_amount => '300.00',
                   p_tax_amount => '60.00', p_gross_amount => '360.00'),
        tests.line('INV-2', p_revision => '1', p_net_amount => '1.00',
                   p_tax_amount => '0.00', p_gross_amount => '1.00')]) \gset
select outcome as d2_outcome from tests.load_batch(:'source', tests.d() + 2,
  array[tests.line('INV-2', p_revision => '1', p_net_amount => '50.00',
                   p_tax_amount => '10.00', p_gross_amount => '60.00')]) \gset
select pg_temp.reads() as r1 \gset
select outcome as d3_outcome from tests.publish(:d3_batch) \gset
select is(format('%s %s %s', :'d3_first', :'d2_outcome', :'d3_outcome'), 'waiting published published',
          'D+3 waits, D+2 publishes, then D+3 publishes.');
select is(pg_temp.reads() - :r1, 1::bigint,
          'D+3''s publication read history again: D+2 was published since its validation.');
select is(tests.rejections(:d3_batch), array['2 revision.conflict'],
          'Its INV-2 revision 1 conflicts with the one D+2 published meanwhile.');
select is((select string_agg(invoice_number || ' r' || revision, ', ' order by invoice_number)
           from reporting.invoice where source = :'source'),
          'INV-1 r2, INV-2 r1', 'INV-1 is at revision 2 (D+3), INV-2 at revision 1 (D+2).');

-- 3. A revert moves the stamp as well.
select ingest.history_stamp(:'source') as before_revert \gset
select * from tests.revert(:d3_batch) \gset
select is(ingest.history_stamp(:'source'), :before_revert::bigint + 1,
          'A revert adds one to the source''s history stamp.');
select is((select history_stamp from ingest.batch where batch_id = :d3_batch) is not null, true,
          'Validation kept the stamp with the batch.');

select * from finish();
rollback;
