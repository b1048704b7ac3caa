-- bench/db/fresh.sql: drop and create the database :db as a copy of
-- :template (FILE_COPY: a checkpoint, then the files copied as they are).
-- FORCE: a load stopped by a cap may leave a session behind.
-- Variables: db, template.
drop database if exists :"db" with (force);
create database :"db" template :"template" strategy file_copy;
