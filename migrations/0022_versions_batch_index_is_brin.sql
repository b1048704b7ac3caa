-- 0022: core.invoice_version's batch index is a BRIN index (issue 15,
-- docs/PERFORMANCE.md "The batch index").  A batch's versions are written
-- by one INSERT into fresh pages at the end of the table (0015: they fill
-- pages to 98%, so they do not scatter into old pages' slack), so each page
-- range holds one batch or a few neighbouring ones, and a range's
-- [min, max] of batch_id finds a batch's pages as a B-tree finds its rows.
-- The B-tree took one entry per version, all of a batch's equal: 0.3-0.5 s
-- of a million-version publication, and 31 MB over 6M versions against
-- 176 kB.  What reads versions by batch (the read back of what a merge
-- wrote, revert_batch, keep_referenced_rows) does a bitmap scan of the
-- batch's ranges and rechecks each row.  32 pages a range (about 1,100
-- versions), so that a small batch's read stays a few hundred kilobytes.
--
-- Ranges not yet summarized are read by every such lookup.  VACUUM
-- summarizes them (not autosummarize: it asks autovacuum for one work item
-- per range, a million versions are 900 ranges, and the requests beyond
-- its queue of 256 are each logged and dropped).  So the insert-triggered
-- autovacuum of this table runs every 100,000 new versions instead of
-- every 20% of the table (1.2M over 6M), which bounds what a lookup reads
-- beyond its batch.
set local role invoice_owner;

drop index core.invoice_version_batch;
create index invoice_version_batch on core.invoice_version
  using brin (batch_id) with (pages_per_range = 32);
alter table core.invoice_version
  set (autovacuum_vacuum_insert_threshold = 100000,
       autovacuum_vacuum_insert_scale_factor = 0);
