-- After a revert, a corrected file (new bytes) for the reverted date is a
-- new batch that loads and publishes normally: the reverted versions are
-- not in its way, even where it carries the same (invoice, revision) with
-- other content (no revision.conflict).
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) \gset
select batch_id as wrong from tests.load_batch(:'source', tests.d() + 1, tests.second_day_lines()) \gset
select tests.revert(:wrong, 'amounts of INV-0001 were wrong');

select * from tests.load_batch(:'source', tests.d() + 1, array[
  tests.line('INV-0001', p_revision => '1', p_net_amount => '250.00', p_tax_amount => '50.00',
             p_gross_amount => '300.00')]) \gset fixed_
select isnt(:fixed_batch_id, :wrong, 'The corrected file is a new batch.');
select is(:'fixed_state'::text, 'published', 'It publishes.');
select is(tests.rejections(:fixed_batch_id), '{}'::text[], 'Nothing of it is rejected.');
select is((select (i.revision, i.gross_amount, i.batch_id)::text from reporting.invoice as i
           where i.source = :'source' and i.invoice_number = 'INV-0001'),
          (1, 300.00, :fixed_batch_id::bigint)::text, 'Its revision 1 of INV-0001 is current.');

select * from finish();
rollback;
