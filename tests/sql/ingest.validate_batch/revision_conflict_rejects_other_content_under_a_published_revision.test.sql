-- ingest.validate_batch: revisions are immutable.  A later file carrying a
-- published (invoice_number, revision) with other content has that record
-- rejected with revision.conflict (all-or-nothing: the batch is
-- quarantined); the published version is untouched.
begin;
select plan(4);

select tests.make_source() as source \gset
select state as first_state from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-1'), tests.line('INV-2')]) \gset
select batch_id, state from tests.load_batch(:'source', tests.d() + 1, array[
  tests.line('INV-1', p_net_amount => '90.00', p_tax_amount => '18.00', p_gross_amount => '108.00'),
  tests.line('INV-3')]) \gset

select is(:'first_state'::text, 'published', 'The first file publishes.');
select is(:'state'::text, 'quarantined', 'The file with other content under revision 0 is quarantined.');
select is(tests.rejections(:batch_id), array['1 revision.conflict'],
          'Record 1 is rejected with revision.conflict.');
select is((select i.gross_amount from reporting.invoice as i
           where i.source = :'source' and i.invoice_number = 'INV-1'), 120.00::numeric,
          'The published revision keeps its content.');

select * from finish();
rollback;
