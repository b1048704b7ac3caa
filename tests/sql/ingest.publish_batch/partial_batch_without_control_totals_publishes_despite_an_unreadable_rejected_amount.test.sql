-- ingest.publish_batch under the partial policy for a source that does not
-- require control totals (ingest.source.require_control_totals = false): a
-- rejected record whose gross_amount is not a number ('abc', rule
-- gross_amount.format) must not stop the accepted ones from publishing.
-- publish_batch sums the gross of the rejected lines with a plain cast
-- (l.gross_amount::numeric) for its second reconciliation.
begin;
select plan(3);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.5,
                         p_require_control_totals => false) as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1'),
  tests.line('INV-2', p_gross_amount => 'abc')], p_no_manifest => true) \gset
select state as validated from tests.validate(:batch_id) \gset

select is(:'validated'::text, 'validated', 'One rejected record in two is within the maximum share of 0.5.');
select lives_ok(format('select * from tests.publish(%s)', :batch_id),
                'Publication does not fail on the rejected record''s unreadable amount.');
select is((select b.state from ingest.batch as b where b.batch_id = :batch_id), 'published',
          'The batch is published.');

select * from finish();
rollback;
