-- bench/publish/auto_explain.sql: every later session of :db logs the plans
-- (ANALYZE, BUFFERS, triggers, nested statements) of the statements taking
-- :min_ms or more. Variables: db, min_ms.
alter database :"db" set session_preload_libraries = 'auto_explain';
alter database :"db" set auto_explain.log_min_duration = :min_ms;
alter database :"db" set auto_explain.log_analyze = on;
alter database :"db" set auto_explain.log_buffers = on;
alter database :"db" set auto_explain.log_triggers = on;
alter database :"db" set auto_explain.log_nested_statements = on;
