-- bench/db/fresh.sql: drop and create the database :db as a copy of
-- :template (FILE_COPY: a checkpoint, then the files copied as they are).
-- Variables: db, template.
drop database if exists :"db";
create database :"db" template :"template" strategy file_copy;
