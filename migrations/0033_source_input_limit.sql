-- 0033: a source may bound the size of its input.  A feed that sends
-- files of a known size (a few MB a night) is better refused at 1 GB than
-- at the loader's default of 10 GiB, which bounds every source alike; the
-- loader's --max-input-bytes, when given on the command line, still wins
-- (an operator's deliberate limit for one run).  NULL: the loader's.
-- ingest.add_source gains the option, so its old signature goes (sql/
-- creates the new one; on a new database it does not exist yet).
set local role invoice_owner;

alter table ingest.source
  add column max_input_bytes bigint check (max_input_bytes between 1 and 1125899906842624);
comment on column ingest.source.max_input_bytes is
  'The largest input (bytes, downloaded or local) a load of the source accepts; NULL: the loader''s --max-input-bytes (default 10 GiB). A --max-input-bytes given to the command wins.';

drop function if exists ingest.add_source(text, text, numeric, date, text, boolean, time, integer);
