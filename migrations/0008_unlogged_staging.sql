-- 0008: staging for speed (docs/PERFORMANCE.md).
--
-- UNLOGGED: no WAL for the COPY, the typed rows and their deletion (455 MB
-- of the 1.1 GB of WAL a million-record load wrote).  A server crash empties
-- both tables; ingest.validate_batch and ingest.publish_batch then find the
-- batch's rows gone and send it back to received (ingest.restage_lost_batch),
-- so a staged or validated checkpoint never stands on rows that are not
-- there (DESIGN.md decision 3).  The raw rows of a published batch stay
-- until a crash; what a clerk needs of a rejection is in ingest.rejection_row.
--
-- No primary key on (batch_id, record_no): maintaining it cost 1.5 to 3 s
-- of a million-record COPY, more than the rest of the COPY's server work.
-- Record numbers are unique by construction: the loader numbers the records
-- it sends, the COPY and its checkpoint (ingest.mark_staged, which compares
-- the COPY's row count with what was sent) are one transaction, and nothing
-- else writes staging.  The steps find a batch's raw rows through a BRIN
-- index on batch_id, which costs next to nothing during COPY (a B-tree
-- cost 0.35 s of a million-record COPY): a batch arrives as whole pages.
-- ingest.analyze_staging summarizes new page ranges before each step; that
-- also repairs the empty index a crash leaves of an unlogged table, which
-- until then gives the planner negative costs (a rerun after a crash once
-- joined a batch's rows to themselves row by row: 80 s).  The typed rows
-- keep a B-tree on batch_id: their table is written inside validation,
-- after that summarizing, so a BRIN index there could stay in that state
-- through the statements that plan over it.
set local role invoice_owner;

alter table staging.invoice_line drop constraint invoice_line_pkey;
alter table staging.invoice_valid drop constraint invoice_valid_pkey;
create index invoice_line_batch on staging.invoice_line using brin (batch_id);
create index invoice_valid_batch on staging.invoice_valid (batch_id);
alter table staging.invoice_line set unlogged;
alter table staging.invoice_valid set unlogged;

-- ingest.mark_staged takes the COPY's own row count: the old signature goes
-- (sql/ingest/mark_staged.sql creates the new one; on a new database the
-- functions of sql/ do not exist yet, hence IF EXISTS).
drop function if exists ingest.mark_staged(bigint, bigint, bigint);
