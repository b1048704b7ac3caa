-- bench/db/checkpoint.sql: before every timed command, so that no step pays
-- for the dirty buffers of the one before.
checkpoint;
