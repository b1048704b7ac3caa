-- 0022: core.invoice_version's batch index is a BRIN index
-- (docs/PERFORMANCE.md "The batch index, the statistics sample and the key
-- history's record").  A batch's versions are written by one INSERT into
-- fresh pages at the end of the table (0015: they fill pages to 98%, so
-- few of them go into old pages' slack), so each page range holds one
-- batch or a few neighbouring ones, and a range's [min, max] of batch_id
-- finds a batch's pages as a B-tree finds its rows.  The B-tree took one
-- entry per version, all of a batch's equal: 0.3-0.5 s of a
-- million-version publication, and 31 MB over 6M versions (BRIN: under
-- 1 MB).  What reads versions by batch (the read back of what a merge
-- wrote, revert_batch, keep_referenced_rows) does a bitmap scan of the
-- batch's ranges and rechecks each row.  8 pages a range (about 280
-- versions): a batch's rows that went into the slack of old pages (a
-- narrower row fits where a wider one did not) each make a lookup read
-- their whole range; at 32 pages, the 40 such rows of a 10k batch over 5M
-- versions made its read back 1,265 buffers against 350 through a B-tree,
-- at 8 pages 739.
--
-- Ranges not yet summarized are read by every such lookup.  VACUUM
-- summarizes them (not autosummarize: it asks autovacuum for one work item
-- per range, a million versions fill thousands of ranges, and the
-- requests beyond its queue of 256 are each logged and dropped).  So the
-- insert-triggered autovacuum of this table runs every 100,000 new
-- versions instead of every 20% of the table (1.2M over 6M), which bounds
-- what a lookup reads beyond its batch.
set local role invoice_owner;

drop index core.invoice_version_batch;
create index invoice_version_batch on core.invoice_version
  using brin (batch_id) with (pages_per_range = 8);
alter table core.invoice_version
  set (autovacuum_vacuum_insert_threshold = 100000,
       autovacuum_vacuum_insert_scale_factor = 0);
