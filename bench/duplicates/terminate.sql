-- bench/duplicates/terminate.sql: a load stopped by the cap leaves its
-- backend working; end every session of :db but this one.
-- Variables: db.
select count(pg_terminate_backend(pid)) from pg_stat_activity
where datname = :'db' and pid <> pg_backend_pid();
