-- ingest.publish_batch on a validated batch whose typed rows
-- (staging.invoice_valid) are more than validation accepted (a row
-- written next to them; simulated by the owner): this was IV204, a dead
-- end.  Now outcome 'restage', state received, nothing published, and the
-- validated->received event's reason names the counts; staging,
-- validating and publishing again then publish it once.
begin;
select plan(6);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), tests.seed_lines(20)) \gset
select state as validated from tests.validate(:batch_id) \gset

-- as the owner: any other role's row for a validated batch is refused
-- (IV221, staging.invoice_valid_scope)
set local role invoice_owner;
insert into staging.invoice_valid
select * from staging.invoice_valid as v where v.batch_id = :batch_id and v.record_no = 1;
reset role;

select * from tests.publish(:batch_id) \gset wedged_
select is(format('%s: %s %s', :'validated', :'wedged_outcome', :'wedged_state'),
          'validated: restage received',
          'Publishing the batch with a typed row too many returns restage, received.');
select is((select count(*)::integer from core.invoice_version as cv where cv.batch_id = :batch_id)
          + (select count(*)::integer from ingest.outbox as o where o.batch_id = :batch_id), 0,
          'Nothing is published: no version, no outbox row.');
select is((select e.detail ->> 'reason' from ingest.batch_event as e
           where e.batch_id = :batch_id and e.from_state = 'validated' and e.to_state = 'received'),
          'staged records do not match the checkpoint (20 raw rows for 20 staged records, 21 typed rows for 20 accepted); the load stages the file again',
          'The validated->received event says why, with the counts.');
select is((select count(*)::integer from staging.invoice_valid as v where v.batch_id = :batch_id)
          + (select count(*)::integer from staging.invoice_line as l where l.batch_id = :batch_id), 0,
          'No staged row of the batch is left, raw or typed.');

select state as restaged from tests.stage_batch(:'source', tests.d(), tests.seed_lines(20)) \gset
select state as revalidated from tests.validate(:batch_id) \gset
select * from tests.publish(:batch_id) \gset p_
select is(format('%s %s %s', :'restaged', :'revalidated', :'p_outcome'), 'staged validated published',
          'The file stages again, validates and publishes.');
select is((select count(*)::integer || ' ' || sum(r.gross_amount) || ' ' ||
                  (select count(*) from ingest.notification as o where o.batch_id = :batch_id)
           from reporting.invoice as r where r.batch_id = :batch_id),
          '20 4200.00 1', 'Twenty invoices, 4,200.00, and one notification.');

select * from finish();
rollback;
