-- ingest.publish_batch: publish a validated batch.  Its versions are
-- written and reconciled by ingest.write_batch, in an earlier transaction
-- (the loader's) or, for a batch not written yet, here first (the sweeper,
-- an operator in psql: one transaction, as before migration 0024).  The
-- publication itself is short whatever the batch's size: delete the
-- batch's row of ingest.pending_publication, which switches what
-- reporting.* shows (write, audit, then publish: ingest.write_batch), advance
-- the watermark, write the batch_published notification, set the state.
-- Consumers see all of it at commit or nothing (MVCC); no DDL.
-- The outcomes of the write pass through: 'waiting' (an earlier date, or
-- another written batch of the source, must publish first), 'restage',
-- 'quarantined'; a published batch returns 'already_published' and writes
-- nothing.  A batch written awaiting approval (a source with
-- require_approval) returns 'awaiting_approval' and changes nothing, unless
-- ingest.approve_batch marked it approved in this transaction.  The batch's versions, the outbox row and the batch keep the
-- time the write recorded (ingest.pending_publication.published_at); the
-- moment the publication became visible is recorded for that time in
-- ingest.history_instant at commit (reporting.invoice_as_of dates it so).
-- The published event's detail carries the merge counts and written_at,
-- when the write ended.
-- Locks: advisory xact lock per source (publications of a source are
-- serial); the batch row; the watermark row (for update).
-- Errors: IV201 batch not validated; IV208 no such batch.
create or replace function ingest.publish_batch(p_batch_id bigint, p_attempt_id bigint)
returns table (outcome text, state text, counts jsonb)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_batch   ingest.batch;
  v_pending ingest.pending_publication;
  v_write   record;
begin
  v_batch := ingest.lock_batch_for_publication(p_batch_id);
  if v_batch.state = 'published' then
    return query select 'already_published'::text, v_batch.state, v_batch.merge_counts;
    return;
  end if;
  if v_batch.state <> 'validated' then
    raise exception 'batch % is %, not validated; it cannot be published', p_batch_id, v_batch.state
      using errcode = 'IV201';
  end if;

  select * into v_pending from ingest.pending_publication as p where p.batch_id = p_batch_id;
  if not found then
    select * into v_write from ingest.write_batch(p_batch_id, p_attempt_id) as w;
    if v_write.outcome <> 'written' then
      return query select v_write.outcome, v_write.state, v_write.counts;
      return;
    end if;
    select * into v_pending from ingest.pending_publication as p where p.batch_id = p_batch_id;
  end if;
  -- Four eyes: a batch written awaiting approval publishes only in the
  -- transaction of ingest.approve_batch, which marks it approved first.
  if v_pending.awaits_approval and v_pending.approved_by_action is null then
    return query select 'awaiting_approval'::text, v_batch.state, v_pending.counts;
    return;
  end if;

  -- The switch.
  delete from ingest.pending_publication as p where p.batch_id = p_batch_id;
  if (select t.advances from ingest.publication_turn(p_batch_id) as t) then
    insert into ingest.source_watermark as w (source, business_date, batch_id, advanced_at)
    values (v_batch.source, v_batch.business_date, p_batch_id, v_pending.published_at)
    on conflict (source) do update
       set business_date = excluded.business_date, batch_id = excluded.batch_id,
           advanced_at = excluded.advanced_at
     where w.business_date < excluded.business_date;
  end if;

  perform ingest.write_notification(p_batch_id, 'batch_published',
    jsonb_build_object('batch_id', p_batch_id, 'source', v_batch.source,
                       'business_date', v_batch.business_date, 'sha256', v_batch.sha256,
                       'counts', v_pending.counts, 'published_at', v_pending.published_at));

  update ingest.batch as b set merge_counts = v_pending.counts, published_at = v_pending.published_at
   where b.batch_id = p_batch_id;
  perform ingest.transition(p_batch_id, 'validated', 'published', p_attempt_id,
                            v_pending.counts || jsonb_build_object('written_at', v_pending.written_at));
  -- When readers see it: the clock at this transaction's commit, for the
  -- time the versions carry (reporting.invoice_as_of).  Last, so that the
  -- deferred trigger that reads the clock runs after the rest.
  insert into ingest.history_instant (source, stamp, batch_id, kind, at)
  values (v_batch.source, v_pending.published_at, p_batch_id, 'published',
          pg_catalog.clock_timestamp());

  return query select 'published'::text, 'published'::text, v_pending.counts;
end;
$$;
comment on function ingest.publish_batch(bigint, bigint) is
  E'Publish a validated batch: write it first if it is not (ingest.write_batch), then switch what reporting.* shows, advance the watermark, write the outbox row, set the state.\nErrors: IV201 not validated; IV208 no such batch.';
revoke all on function ingest.publish_batch(bigint, bigint) from public;
grant execute on function ingest.publish_batch(bigint, bigint) to invoice_loader;
