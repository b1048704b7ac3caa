-- ingest.validate_batch on a staged batch with a row written next to its
-- own (as a loader session could before migrations/0011, and the owner
-- still can by going past the trigger: simulated so here): this was IV204,
-- and every later load failed the same way.  Now the checkpoint is found
-- not to hold: validate returns 'received', every staged row of the batch
-- is gone (the stray one too), and the staged->received event's reason
-- names the counts.  Staging the file again, validating and publishing
-- then publish it once, as an undisturbed load does.
begin;
select plan(7);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), tests.seed_lines(20)) \gset

set local session_replication_role = replica;   -- past the trigger, as the owner
insert into staging.invoice_line (batch_id, record_no, invoice_number)
values (:batch_id, 21, 'STRAY-1');
set local session_replication_role = origin;

select * from tests.validate(:batch_id) \gset wedged_
select is(:'wedged_state'::text, 'received', 'Validating the wedged batch sends it back to received.');
select is((select count(*)::integer from staging.invoice_line as l where l.batch_id = :batch_id), 0,
          'Every staged row of the batch is gone, the stray one too.');
select is((select e.detail ->> 'reason' from ingest.batch_event as e
           where e.batch_id = :batch_id and e.from_state = 'staged' and e.to_state = 'received'),
          'staged records do not match the checkpoint (21 raw rows for 20 staged records, 0 typed rows for none yet accepted); the load stages the file again',
          'The staged->received event says why, with the counts.');

select state as restaged from tests.stage_batch(:'source', tests.d(), tests.seed_lines(20)) \gset
select state as revalidated from tests.validate(:batch_id) \gset
select * from tests.publish(:batch_id) \gset p_
select is(format('%s %s %s', :'restaged', :'revalidated', :'p_outcome'), 'staged validated published',
          'The file stages again, validates and publishes.');
select is((select count(*)::integer || ' ' || sum(r.gross_amount) from reporting.invoice as r
           where r.batch_id = :batch_id), '20 4200.00', 'Twenty invoices, 4,200.00, are published.');
select is((select count(*)::integer from ingest.notification as o
           where o.batch_id = :batch_id and o.kind = 'batch_published'), 1,
          'One batch_published notification.');
select is((select w.batch_id from ingest.watermark as w where w.source = :'source'), :batch_id::bigint,
          'The watermark names the batch.');

select * from finish();
rollback;
