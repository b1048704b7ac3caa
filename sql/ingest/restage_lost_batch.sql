-- ingest.restage_lost_batch: the staging tables are UNLOGGED (migrations/
-- 0008): a crash of the server empties them.  A batch whose checkpoint says
-- staged or validated but whose staged rows are gone goes back to received,
-- so that the load stages the file again, rather than trusting a
-- checkpoint that no longer holds (DESIGN.md decision 3).  What validation
-- derived from the lost rows (rejections, counts) is derived again.
-- Internal (called by validate_batch and publish_batch, which hold the batch
-- row lock): no EXECUTE grants.
-- Errors: IV201/IV202/IV208 as ingest.transition.
create or replace function ingest.restage_lost_batch(
  p_batch_id   bigint,
  p_from       text,
  p_attempt_id bigint)
returns void
language plpgsql
set search_path = ''
as $$
begin
  delete from staging.invoice_valid as v where v.batch_id = p_batch_id;
  delete from staging.key_version as h where h.batch_id = p_batch_id;
  delete from staging.invoice_line as l where l.batch_id = p_batch_id;
  delete from ingest.rejection_row as r where r.batch_id = p_batch_id;
  update ingest.batch as b
     set staged_count = null, accepted_count = null, rejected_count = null,
         distinct_keys = null
   where b.batch_id = p_batch_id;
  perform ingest.transition(p_batch_id, p_from, 'received', p_attempt_id,
    jsonb_build_object('reason', 'staged records lost (the staging tables are unlogged and '
                                 || 'a server crash empties them); the load stages the file again'));
end;
$$;
comment on function ingest.restage_lost_batch(bigint, text, bigint) is
  E'Send a staged or validated batch whose staged rows are gone back to received.\nErrors: IV201, IV202, IV208 as ingest.transition.';
revoke all on function ingest.restage_lost_batch(bigint, text, bigint) from public;
