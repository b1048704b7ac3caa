-- ingest.resume_attempt reports the status of the transaction the lost
-- session had in flight.  After a failover to a standby that never received
-- that transaction, its xid is ahead of everything the new primary issued:
-- pg_xact_status would raise 22023 ("in the future") and fail the resume;
-- instead the status reads 'not on this server' and the batch state is
-- returned as for any other xid.  An xid this server did issue still reads
-- its status, and no xid reads as none.
begin;
select plan(3);

select tests.make_source() as source \gset
select * from tests.stage_batch(:'source', tests.d(), tests.seed_lines(), p_stage => false) \gset
select pg_catalog.pg_current_xact_id()::text as here,
       (pg_catalog.pg_current_xact_id()::text::bigint + 1000000)::text as ahead \gset

set local role invoice_loader;
select is((select (r.state, r.xact_status)::text
           from ingest.resume_attempt(:attempt_id, :'ahead') as r),
          '(received,"not on this server")',
          'An xid ahead of this server reads as not on this server, with the batch state.');
select is((select r.xact_status from ingest.resume_attempt(:attempt_id, :'here') as r),
          'in progress', 'An xid this server issued reads its status (this very transaction).');
select is((select r.xact_status from ingest.resume_attempt(:attempt_id, null) as r),
          null, 'No xid, no status.');
reset role;

select * from finish();
rollback;
