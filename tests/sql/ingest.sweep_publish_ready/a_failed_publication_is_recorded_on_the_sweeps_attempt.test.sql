-- An error inside publish_batch does not stop the sweep: the publication is
-- rolled back, the batch stays validated, and the sweep's attempt records
-- the outcome 'failed' with the SQLSTATE (here 23503: the batch's currency
-- was deleted from the reference data after validation, so the versions'
-- reference check refuses them).  (A validated batch whose typed rows went
-- missing is not an error any more: publish_batch restages it.)
begin;
select plan(3);

select tests.make_source('acme-erp', p_start_date => tests.d());
select batch_id as batch, state from tests.stage_batch('acme-erp', tests.d(), tests.seed_lines()) \gset
select tests.validate(:batch);
select ingest.finish_attempt(tests.last_attempt(:batch), 'failed', 'internal', null, 'killed');
delete from ingest.currency as c
 where c.code in (select v.currency from staging.invoice_valid as v where v.batch_id = :batch);
select pg_catalog.pg_advisory_unlock_all();

select results_eq($$ select r.outcome from ingest.sweep_publish_ready() as r $$,
                  $$ values ('failed'::text) $$, 'The sweep reports the publication as failed.');
select is((select (a.outcome, a.sqlstate, a.host)::text from ingest.attempt as a
           where a.attempt_id = tests.last_attempt(:batch)),
          '(failed,23503,ingest.sweep)', 'Its attempt records the outcome and the SQLSTATE.');
select is((select (b.state, (select count(*) from core.invoice_version as v where v.batch_id = b.batch_id))::text
           from ingest.batch as b where b.batch_id = :batch),
          '(validated,0)', 'The batch stays validated; nothing of it was published.');

select * from finish();
rollback;
