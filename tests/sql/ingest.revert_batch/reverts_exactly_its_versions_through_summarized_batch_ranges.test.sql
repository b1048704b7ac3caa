-- core.invoice_version's batch index is BRIN (migration 0022): a lookup
-- of a batch's versions reads the page ranges whose [min, max] of batch_id
-- holds it.  Here the first day's versions are summarized into their range
-- before the second day's land in the same pages (the insert widens the
-- summary), and the third day's are written after both; with sequential scans
-- off, the lookups go through the index (counted), and the revert of the
-- latest publication removes exactly its versions and restores the ones
-- it superseded, while the earlier days' versions stay.
begin;
select plan(6);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) \gset
-- every range holding the first day's versions is summarized after this
-- (by this call, or earlier by a VACUUM when they landed in an old range)
select pg_catalog.brin_summarize_new_values('core.invoice_version_batch') \gset
select batch_id as second from tests.load_batch(:'source', tests.d() + 1, tests.second_day_lines()) \gset
create temp table before_third on commit drop as
  select * from reporting.invoice where source = :'source';
select count(*) as first_versions from core.invoice_version where batch_id = :first \gset
select count(*) as second_versions from core.invoice_version where batch_id = :second \gset
select batch_id as third, state from tests.load_batch(:'source', tests.d() + 2,
  array[tests.line('INV-0001', p_revision => '2', p_net_amount => '300.00',
                   p_tax_amount => '60.00', p_gross_amount => '360.00'),
        tests.line('INV-0300')]) \gset
select is(:'state'::text, 'published', 'The third day publishes.');

set local enable_seqscan = off;
select pg_stat_get_xact_numscans('core.invoice_version_batch'::regclass) as idx_before \gset
select is((select count(*) from core.invoice_version where batch_id = :first), :first_versions::bigint,
          'The first day''s versions are all found through its summarized range.');
select * from ingest.revert_batch(:third, 'the wrong file') \gset r_
select cmp_ok(pg_stat_get_xact_numscans('core.invoice_version_batch'::regclass) - :idx_before,
              '>', 0::bigint, 'The lookups by batch went through the batch index.');
select is_empty(format('select 1 from core.invoice_version where batch_id = %s', :third),
                'None of the reverted batch''s versions is left.');
select is((select count(*) from core.invoice_version where batch_id = :second), :second_versions::bigint,
          'The second day keeps every version it had.');
select set_eq(format('select * from reporting.invoice where source = %L', :'source'),
              'select * from before_third',
              'reporting.invoice is exactly what it was before the reverted publication.');

select * from finish();
rollback;
