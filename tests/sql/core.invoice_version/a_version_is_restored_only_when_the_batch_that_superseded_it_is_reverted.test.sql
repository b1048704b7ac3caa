-- core.invoice_version: making a superseded version current again (what a
-- revert does) is refused with IV210 while the batch that superseded it is
-- published, and allowed once that batch is reverted; a restoration that
-- also changes content is refused even then.
begin;
select plan(3);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset
select batch_id as second from tests.load_batch(:'source', tests.d() + 1,
  array[tests.line('INV-1', p_revision => '1')]) \gset
-- (the second batch's own version out of the way, as a revert moves it)
delete from core.invoice_version where batch_id = :second;

select throws_ok(format($$ update core.invoice_version
                             set is_current = true, superseded_by_batch_id = null, superseded_at = null,
                                 current_since = now()
                           where batch_id = %s $$, :first),
                 'IV210', null, 'While the superseding batch is published, the old version stays superseded.');
update ingest.batch set state = 'reverted' where batch_id = :second;
select throws_ok(format($$ update core.invoice_version
                             set is_current = true, superseded_by_batch_id = null, superseded_at = null,
                                 current_since = now(), customer_id = 'X'
                           where batch_id = %s $$, :first),
                 'IV210', null, 'A restoration cannot change the content.');
select lives_ok(format($$ update core.invoice_version
                            set is_current = true, superseded_by_batch_id = null, superseded_at = null,
                                current_since = now()
                          where batch_id = %s $$, :first),
                'Once the superseding batch is reverted, the version may be restored.');

select * from finish();
rollback;
