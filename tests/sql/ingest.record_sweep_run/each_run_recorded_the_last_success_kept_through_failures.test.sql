-- ingest.record_sweep_run, called at the end of every CALL ingest.sweep():
-- one row, the latest run; a failed run keeps the time of the last
-- successful one, so a sweep that fails (or stops running) leaves a last
-- success that stops moving, which status and the metrics show.  The
-- status report carries it, with both times in Unix seconds; the pipeline
-- roles may call it (the sweep is SECURITY INVOKER) but not write the
-- table.
begin;
select plan(7);

delete from ingest.sweep_run;
select is((select ingest.status_report() -> 'sweep'), 'null'::jsonb,
          'Before any sweep, the report''s sweep is null.');

set local role invoice_loader;
select ingest.record_sweep_run(pg_catalog.now() - interval '2 s', null, null);
reset role;
select is((select (r.last_outcome, r.runs, r.failed_runs, r.last_succeeded_at = r.last_finished_at)::text
           from ingest.sweep_overview as r),
          '(succeeded,1,0,t)', 'A run of which every part succeeded: its end is the last success.');
select last_succeeded_at as first_success from ingest.sweep_run \gset

select ingest.record_sweep_run(pg_catalog.now(), 'sweep_publish_ready', 'could not extend file');
select is((select (r.last_outcome, r.last_failed_part, r.last_error, r.runs, r.failed_runs)::text
           from ingest.sweep_overview as r),
          '(failed,sweep_publish_ready,"could not extend file",2,1)',
          'A failed run names its part and error and counts.');
select is((select r.last_succeeded_at from ingest.sweep_run as r), :'first_success'::timestamptz,
          'It keeps the last successful run''s time.');
select is((select (ingest.status_report() -> 'sweep' ->> 'last_succeeded_epoch')::numeric),
          round(extract(epoch from :'first_success'::timestamptz)),
          'The report gives the last success in Unix seconds.');
select is((select ingest.status_report() -> 'sweep' ->> 'last_outcome'), 'failed',
          'And the last run''s outcome.');

set local role invoice_loader;
select throws_ok($$ update ingest.sweep_run set last_outcome = 'succeeded' $$, '42501', null,
                 'The loader role may not write the table itself.');
reset role;

select * from finish();
rollback;
