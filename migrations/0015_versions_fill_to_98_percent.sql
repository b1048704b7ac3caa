-- 0015: core.invoice_version's new pages are filled to 98%
-- (docs/PERFORMANCE.md "Over a history").  With the default 100%,
-- an insert takes any page the free space map says has room for the row,
-- and after VACUUM that is the tail of every old page whose slack fits one
-- more version, or the hole a superseded version's old tuple left: a
-- nightly batch's rows were scattered one or two to a page over the whole
-- history (10,000 versions over 5M dirtied 3,400 old pages, each logged in
-- full after a checkpoint).  Asking for 2% of a page (163 bytes) on top of
-- the row skips such slivers, so a batch's rows land in fresh pages at the
-- end, together.  The price is 2% more pages for full reads.  Existing
-- pages keep their layout; the setting applies to rows written from now on.
set local role invoice_owner;

alter table core.invoice_version set (fillfactor = 98);
