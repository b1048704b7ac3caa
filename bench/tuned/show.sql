-- bench/tuned/show.sql: whether the setting :name now comes from ALTER
-- SYSTEM (postgresql.auto.conf) without a pending restart, and its value
-- (to check that the restart applied it). Variables: name.
select coalesce(sourcefile like '%/postgresql.auto.conf' and not pending_restart, false),
       current_setting(name)
from pg_settings where name = :'name';
