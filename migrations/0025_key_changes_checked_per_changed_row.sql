-- 0025: the check that a source, currency or batch named by a version keeps
-- its key (core.keep_referenced_rows) runs for an UPDATE only when the key
-- changed.  The triggers of 0011 fired after every UPDATE of the three
-- tables, with both transition tables: six calls of the function and its
-- queries per load (a batch's state, counts and timestamps), for updates
-- that never touch a key.  A statement trigger cannot be limited to a
-- column when it has transition tables, so the key's check is now a row
-- trigger, UPDATE OF the key column and WHEN its value changed: the
-- executor skips it for every other update without calling anything.  The
-- function runs at the end of the statement, as AFTER row triggers do,
-- and sees its result: keys swapped in one statement pass as before.
-- DELETE and TRUNCATE keep their statement triggers.
set local role invoice_owner;

drop trigger source_keep_referenced_key on ingest.source;
create trigger source_keep_referenced_key
  after update of source on ingest.source
  for each row when (old.source is distinct from new.source)
  execute function core.keep_referenced_rows();

drop trigger currency_keep_referenced_key on ingest.currency;
create trigger currency_keep_referenced_key
  after update of code on ingest.currency
  for each row when (old.code is distinct from new.code)
  execute function core.keep_referenced_rows();

drop trigger batch_keep_referenced_key on ingest.batch;
create trigger batch_keep_referenced_key
  after update of batch_id on ingest.batch
  for each row when (old.batch_id is distinct from new.batch_id)
  execute function core.keep_referenced_rows();
