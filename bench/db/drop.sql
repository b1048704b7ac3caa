-- bench/db/drop.sql: drop the database :db once a measurement is taken.
-- Variables: db.
drop database :"db";
