-- ingest.validate_batch / ingest.staged_totals: the distinct invoice numbers
-- of a file (batch.distinct_keys, reconciled with the manifest's optional
-- distinct_keys) count each number once and a missing number as one more,
-- whether the numbers are all distinct (counted through their hashes) or
-- some repeat (counted exactly, by the text).
begin;
select plan(6);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.9) as source \gset

-- all distinct, two records without a number (rejected: invoice_number.missing)
select batch_id as a from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1'), tests.line('INV-2'), tests.line(null), tests.line(null),
  tests.line('INV-3')]) \gset
select state as a_state from tests.validate(:a) \gset
select is(:'a_state' || ' ' || (select distinct_keys from ingest.batch where batch_id = :a),
          'validated 4', 'Three distinct numbers and the missing one: 4 distinct keys.');

-- INV-1 at two revisions, and one record without a number
select batch_id as b from tests.stage_batch(:'source', tests.d() + 1, array[
  tests.line('INV-1'), tests.line('INV-1', p_revision => '1', p_net_amount => '200.00',
                                  p_tax_amount => '40.00', p_gross_amount => '240.00'),
  tests.line('INV-2'), tests.line(null)]) \gset
select state as b_state from tests.validate(:b) \gset
select is(:'b_state' || ' ' || (select distinct_keys from ingest.batch where batch_id = :b),
          'validated 3', 'A number at two revisions counts once: INV-1, INV-2 and the missing one.');

-- the manifest's distinct_keys: right, and one short
select batch_id as c from tests.stage_batch(:'source', tests.d() + 2, array[
  tests.line('INV-1'), tests.line('INV-1', p_revision => '1'), tests.line('INV-2')],
  p_manifest => (tests.manifest(:'source', tests.d() + 2, 3, '360.00')::jsonb
                 || '{"distinct_keys": 2}')::text) \gset
select state as c_state from tests.validate(:c) \gset
select is(:'c_state'::text, 'validated', 'distinct_keys 2 in the manifest, 2 in the file: validated.');

select batch_id as d from tests.stage_batch(:'source', tests.d() + 3, array[
  tests.line('INV-1'), tests.line('INV-1', p_revision => '1'), tests.line('INV-2')],
  p_manifest => (tests.manifest(:'source', tests.d() + 3, 3, '360.00')::jsonb
                 || '{"distinct_keys": 3}')::text) \gset
select state as d_state from tests.validate(:d) \gset
select is(:'d_state'::text, 'quarantined', 'distinct_keys 3 in the manifest, 2 in the file: quarantined.');
select is(tests.rejections(:d), array['0 reconcile.distinct_keys'],
          'The only reason is reconcile.distinct_keys on the whole file.');

-- all distinct, none missing
select batch_id as e from tests.stage_batch(:'source', tests.d() + 4, array[
  tests.line('INV-1'), tests.line('INV-2'), tests.line('INV-3')]) \gset
select tests.validate(:e);
select is((select distinct_keys from ingest.batch where batch_id = :e), 3,
          'Three distinct numbers, none missing: 3.');

select * from finish();
rollback;
