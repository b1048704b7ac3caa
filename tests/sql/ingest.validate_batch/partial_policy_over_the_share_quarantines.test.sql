-- ingest.validate_batch under the partial policy: more rejected records
-- than the source's maximum share quarantines the whole batch with
-- policy.rejected_share (next to the per-record reasons); at the share
-- exactly, it validates.
begin;
select plan(4);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.25) as source \gset
select batch_id, state from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-1'), tests.line('INV-2', p_currency => 'XXY'),
  tests.line('INV-3', p_revision => 'one'), tests.line('INV-4')]) \gset

select is(:'state'::text, 'quarantined', 'Two rejected records of four exceed a share of 0.25.');
select is(tests.rejections(:batch_id),
          array['0 policy.rejected_share', '2 currency.unknown', '3 revision.format'],
          'The file-level reason joins the per-record reasons.');
select is((select count(*)::integer from reporting.invoice as i where i.source = :'source'), 0,
          'Nothing of the batch is visible.');

select batch_id as at_share, state as at_share_state
from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-5'), tests.line('INV-6', p_currency => 'XXY'),
  tests.line('INV-7'), tests.line('INV-8')]) \gset
select is(:'at_share_state'::text, 'published', 'One rejected record of four (the share exactly) publishes.');

select * from finish();
rollback;
