-- bench/db/fresh_locale.sql: drop and create the database :db from
-- template0 with the libc locale :locale (collation and ctype), UTF8, as a
-- cluster made by Debian's pg_createcluster under that system locale would
-- make it (bench/harness/libc_locale.py).
-- Variables: db, locale.
drop database if exists :"db" with (force);
create database :"db" template template0 encoding 'UTF8' locale :'locale';
