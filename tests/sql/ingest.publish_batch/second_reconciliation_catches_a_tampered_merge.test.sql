-- ingest.publish_batch: the second reconciliation counts what the merge
-- actually wrote.  A merge that loses a version (here a trigger deletes one
-- as it is written) does not add up to the file: the publication is rolled
-- back and the batch quarantined with reconcile.merge; nothing is visible,
-- the watermark does not move, no publish notification is written.
begin;
select plan(6);

select tests.make_source() as source \gset
create function pg_temp.lose_one() returns trigger language plpgsql as $$
begin
  delete from core.invoice_version as v
   where v.source = new.source and v.invoice_number = new.invoice_number
     and v.revision = new.revision and new.invoice_number = 'INV-2';
  return null;
end $$;
create trigger lose_one after insert on core.invoice_version
  for each row execute function pg_temp.lose_one();

select batch_id, state, outcome from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-1'), tests.line('INV-2'), tests.line('INV-3')]) \gset

select is(format('%s %s', :'state', :'outcome'), 'quarantined quarantined',
          'A merge that lost a version is quarantined, not published.');
select is(tests.rejections(:batch_id), array['0 reconcile.merge'],
          'The reason is the second reconciliation.');
select is((select count(*)::integer from core.invoice_version as v where v.batch_id = :batch_id), 0,
          'No version of the batch survives: the merge was rolled back.');
select is((select count(*)::integer from ingest.watermark as w where w.source = :'source'), 0,
          'The watermark did not move.');
select is((select array_agg(n.kind order by n.kind) from ingest.notification as n
           where n.batch_id = :batch_id),
          array['batch_quarantined'], 'Only the quarantine notification is written.');
select is((select count(*)::integer from staging.invoice_valid as v where v.batch_id = :batch_id), 0,
          'The typed staging rows of the quarantined batch are gone.');

select * from finish();
rollback;
