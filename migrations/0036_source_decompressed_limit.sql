-- 0036: a source may bound the decompressed size of its compressed
-- deliveries.  A gzip or zstd file is decompressed while it is read, and a
-- few hundred kilobytes can expand to terabytes (a "bomb"): the loader
-- stops at a limit and quarantines the batch (file.decompressed_size).
-- The default, 20 times the delivered size or 10 GiB, whichever is smaller,
-- fits text that compresses well; a source whose files compress better sets
-- its own.  NULL: the default.
-- ingest.add_source gains the option, so its old signature goes (sql/
-- creates the new one; on a new database it does not exist yet).
set local role invoice_owner;

alter table ingest.source
  add column max_decompressed_bytes bigint
    check (max_decompressed_bytes between 1 and 1125899906842624);
comment on column ingest.source.max_decompressed_bytes is
  'The largest decompressed size (bytes) of a gzip or zstd input of the source; NULL: 20 times the delivered size or 10 GiB, whichever is smaller. More is quarantined as file.decompressed_size.';

drop function if exists ingest.add_source(text, text, numeric, date, text, boolean, time, integer, bigint);
