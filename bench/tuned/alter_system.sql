-- bench/tuned/alter_system.sql: one of the recommended server settings
-- (docs/guide/operate.md), for the rows measured with them; takes effect at
-- the restart that follows. Variables: name, value.
alter system set :"name" = :'value';
