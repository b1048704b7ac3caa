-- ingest.history_stamp: how many publications and reverts of a source have
-- committed (its batches' published and reverted events, which are only
-- ever added: ingest.transition writes them, nothing deletes them).  The
-- versions of a source change only in those transactions
-- (ingest.publish_batch, ingest.revert_batch) and in the rejection of a
-- written batch (ingest.reject_batch, which takes its versions away: a
-- validated -> quarantined event, counted too; the other such events
-- changed nothing and only cost a new read), so two equal stamps taken at
-- two moments mean the source's history did not change in between.
-- Validation takes one just before it reads history for a batch's keys
-- (ingest.batch.history_stamp); publication compares it with a fresh one
-- under the source's publication lock and reads history again only if
-- they differ.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.history_stamp(p_source text)
returns bigint
language sql
stable
set search_path = ''
as $$
  select count(*)
  from ingest.batch as b
  join ingest.batch_event as e on e.batch_id = b.batch_id
  where b.source = p_source
    and (e.to_state in ('published', 'reverted')
         or (e.from_state = 'validated' and e.to_state = 'quarantined'))
$$;
comment on function ingest.history_stamp(text) is
  E'The number of committed publications and reverts of a source (their events).\nErrors: none.';
revoke all on function ingest.history_stamp(text) from public;
