-- In a database without pg_cron (the loader's own database, normally),
-- the pg_cron part of the sweep does nothing and succeeds, for the loader's
-- role too: pg_cron is never required.  Keeping less than a day is refused.
begin;
select plan(3);

select ok(not exists (select from pg_catalog.pg_extension where extname = 'pg_cron'),
          'This database has no pg_cron.');
set local role invoice_loader;
select is(ingest.sweep_cron_history(), 0::bigint, 'The part deletes nothing and succeeds.');
select throws_ok($$ select ingest.sweep_cron_history(0) $$, 'IV308', null,
                 'Keeping less than a day of history is refused.');
reset role;

select * from finish();
rollback;
