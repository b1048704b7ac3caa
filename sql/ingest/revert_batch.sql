-- ingest.revert_batch: an operator undoes a publication
-- (docs/guide/recover.md), in ONE transaction:
--   - the versions the batch introduced leave core.invoice_version, and so
--     reporting.*, for core.invoice_version_reverted (history, marked with
--     the time of the revert and the action);
--   - the versions it superseded are current again (from this moment,
--     current_since); the period in which they were current before goes to
--     core.invoice_version_period, so reporting.invoice_as_of still shows
--     what was visible then;
--   - the watermark returns to the previous published date (another
--     published batch of the same date keeps it), or the row goes when no
--     published date is left;
--   - the batch becomes reverted (ingest.transition) and one
--     batch_reverted notification is written (outbox + pg_notify, as
--     publication does);
--   - the action is recorded in ingest.operator_action with the attempt
--     that published the batch (ingest.attempt_that_left);
--   - the moment it becomes visible is recorded in ingest.history_instant
--     at commit, for the time its rows carry (reporting.invoice_as_of).
-- Only the latest published batch of its source can be reverted: the
-- publications of a source are undone in the reverse order of publication.
-- Cost: O(batch) (the versions found by batch_id and superseded_by_batch_id
-- indexes), never O(history).  The same bytes publish again only after a
-- replay; a corrected file for the date loads normally.
-- Locks: the source's publication advisory lock (the one
-- ingest.publish_batch takes: a revert and a publication of one source
-- serialize), the batch row, the watermark row.
-- Four eyes: for a source with require_approval, once its checks pass the
-- revert is recorded as a request and returned with its action id (no
-- version reverted, the watermark as it is), to be carried out by a
-- second operator's ingest.confirm_action (ingest.request_confirmation).
-- Errors: IV401 session_user is not an operator; IV307 empty reason; IV208
-- no such batch; IV305 the batch is not published; IV306 a later
-- publication of the source must be reverted first (the message names it);
-- IV219 a batch of the source is written and not yet published (it
-- publishes first); IV310 the batch's versions, or those it superseded,
-- are dated in the source's closed period (ingest.source.locked_through).
create or replace function ingest.revert_batch(p_batch_id bigint, p_reason text)
returns table (action_id bigint, batch_id bigint, reverted_versions integer,
               restored_versions integer, watermark date,
               superseded_attempt_no integer, superseded_run_id uuid)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_batch    ingest.batch;
  v_later    bigint;
  v_attempt  ingest.attempt;
  v_action   ingest.operator_action;
  v_ts       timestamptz;
  v_reverted integer;
  v_restored integer;
  v_mark     ingest.source_watermark;
  v_prev     record;
  v_counts   jsonb;
  v_locked   date;
  v_request  bigint;
  v_reopened integer;
begin
  perform ingest.require_operator('revert');
  if p_reason is null or pg_catalog.btrim(p_reason) = '' then
    raise exception 'a revert of batch % needs a reason', p_batch_id
      using errcode = 'IV307',
            hint    = 'Say why in --reason; it is kept in ingest.operator_action.';
  end if;
  v_batch := ingest.lock_batch_for_publication(p_batch_id);
  -- A closed period stays as it is: a revert that would take away or bring
  -- back a version dated in it waits until an operator reopens it.
  select s.locked_through into v_locked from ingest.source as s where s.source = v_batch.source;
  if v_batch.state = 'published' and v_locked is not null
     and (exists (select from core.invoice_version as iv
                  where iv.batch_id = p_batch_id and iv.invoice_date <= v_locked)
          or exists (select from core.invoice_version as iv
                     where iv.superseded_by_batch_id = p_batch_id and iv.invoice_date <= v_locked)) then
    raise exception 'batch % changes invoices dated on or before %, the end of source %''s closed period',
                    p_batch_id, v_locked, v_batch.source
      using errcode = 'IV310',
            hint    = 'An operator reopens the period first: invoice-loader period reopen --source '
                      || v_batch.source || ' --reason TEXT.';
  end if;
  if v_batch.state <> 'published' then
    raise exception 'batch % is %; only a published batch can be reverted', p_batch_id, v_batch.state
      using errcode = 'IV305',
            hint    = 'Run status --batch for the batch.';
  end if;
  select b.batch_id into v_later
  from ingest.batch as b
  where b.source = v_batch.source and b.state = 'published' and b.batch_id <> p_batch_id
    and (b.published_at, b.batch_id) > (v_batch.published_at, v_batch.batch_id)
  order by b.published_at desc, b.batch_id desc
  limit 1;
  if found then
    raise exception 'batch % of source % was published after batch %: revert batch % first',
                    v_later, v_batch.source, p_batch_id, v_later
      using errcode = 'IV306',
            detail  = 'Publications of a source are reverted in the reverse order of publication.',
            hint    = format('invoice-loader revert --batch %s --reason ...', v_later);
  end if;
  -- A batch of the source written and not yet published (ingest.write_batch)
  -- superseded versions on the strength of what is current now: undoing a
  -- publication under it would break both; it publishes first.
  select p.batch_id into v_later from ingest.pending_publication as p
   where p.source = v_batch.source;
  if found then
    raise exception 'batch % of source % is written and not yet published: batch % cannot be reverted before it is',
                    v_later, v_batch.source, p_batch_id
      using errcode = 'IV219',
            detail  = 'Its publication is a short transaction that a load of its file or the sweep runs (ingest.pending_publication).',
            hint    = format('Publish batch %s (invoice-loader load of its file, or ingest.sweep; a batch awaiting approval: invoice-loader approve or reject), then revert the latest publication of %s first.',
                             v_later, v_batch.source);
  end if;

  -- Four eyes (a source with require_approval): recorded as a request
  -- that a second operator confirms (ingest.confirm_action), or, inside
  -- that confirm, carried out now.
  v_request := ingest.request_confirmation('revert', v_batch.source, p_batch_id, null, p_reason);
  if v_request is not null then
    return query select v_request, p_batch_id, 0, 0,
                        (select w.business_date from ingest.source_watermark as w
                          where w.source = v_batch.source),
                        null::integer, null::uuid;
    return;
  end if;

  -- After the lock: later than the commit of every publication it undoes.
  v_ts := pg_catalog.clock_timestamp();
  -- The attempt whose publication this undoes.
  v_attempt := ingest.attempt_that_left(p_batch_id, 'published');
  insert into ingest.operator_action as o (batch_id, action, reason, superseded_attempt_no,
                                           superseded_run_id)
  values (p_batch_id, 'revert', p_reason, v_attempt.attempt_no, v_attempt.run_id)
  returning * into v_action;

  -- First the state: the versions this batch superseded may be restored
  -- only once it is reverted (trigger core.guard_invoice_version).
  perform ingest.transition(p_batch_id, 'published', 'reverted', null,
                            jsonb_build_object('action_id', v_action.action_id,
                                               'reason', p_reason,
                                               'db_user', v_action.db_user));

  -- The batch's versions leave reporting.*, kept as reverted history.
  with gone as (
    delete from core.invoice_version as v where v.batch_id = p_batch_id returning v.*)
  insert into core.invoice_version_reverted
    (source, invoice_number, revision, status, document_type, customer_id, invoice_date,
     due_date, currency, net_amount, tax_amount, gross_amount, description, content_hash,
     content_hash_version, batch_id, record_no, is_current, supersedes_revision, superseded_by_batch_id,
     superseded_at, published_at, current_since, reverted_at, reverted_by_action)
  select g.source, g.invoice_number, g.revision, g.status, g.document_type, g.customer_id,
         g.invoice_date, g.due_date, g.currency, g.net_amount, g.tax_amount, g.gross_amount,
         g.description, g.content_hash, g.content_hash_version, g.batch_id, g.record_no, g.is_current,
         g.supersedes_revision, g.superseded_by_batch_id, g.superseded_at, g.published_at,
         g.current_since, v_ts, v_action.action_id
  from gone as g;
  get diagnostics v_reverted = row_count;

  -- What it superseded is current again; the period it was current before
  -- is kept for reporting.invoice_as_of.
  insert into core.invoice_version_period
    (source, invoice_number, revision, status, document_type, customer_id, invoice_date,
     due_date, currency, net_amount, tax_amount, gross_amount, description, batch_id,
     published_at, current_from, current_until, superseded_by_batch_id, restored_by_action)
  select v.source, v.invoice_number, v.revision, v.status, v.document_type, v.customer_id,
         v.invoice_date, v.due_date, v.currency, v.net_amount, v.tax_amount, v.gross_amount,
         v.description, v.batch_id, v.published_at, coalesce(v.current_since, v.published_at),
         v.superseded_at, p_batch_id, v_action.action_id
  from core.invoice_version as v
  where v.superseded_by_batch_id = p_batch_id;
  update core.invoice_version as v
     set is_current = true, superseded_by_batch_id = null, superseded_at = null,
         current_since = v_ts
   where v.superseded_by_batch_id = p_batch_id;
  get diagnostics v_restored = row_count;
  -- Closures by absence are among them (a closure is a supersession by
  -- the batch): their rows say the revert undid them.
  update core.invoice_closure as c
     set reverted_at = v_ts, reverted_by_action = v_action.action_id
   where c.batch_id = p_batch_id and c.reverted_at is null;
  get diagnostics v_reopened = row_count;

  -- The watermark: the latest date up to which every date is published.
  select * into v_mark from ingest.source_watermark as w
   where w.source = v_batch.source for update;
  if found and v_mark.business_date >= v_batch.business_date then
    select b.business_date, b.batch_id into v_prev
    from ingest.batch as b
    where b.source = v_batch.source and b.state = 'published'
      and b.business_date <= v_batch.business_date
    order by b.business_date desc, b.published_at desc
    limit 1;
    if not found then
      delete from ingest.source_watermark as w where w.source = v_batch.source;
    elsif v_prev.business_date = v_batch.business_date then
      -- another batch of the same date is published: the date stays
      update ingest.source_watermark as w set batch_id = v_prev.batch_id
       where w.source = v_batch.source and w.batch_id = p_batch_id;
    else
      update ingest.source_watermark as w
         set business_date = v_prev.business_date, batch_id = v_prev.batch_id,
             advanced_at = v_ts
       where w.source = v_batch.source;
    end if;
  end if;
  select * into v_mark from ingest.source_watermark as w where w.source = v_batch.source;

  v_counts := jsonb_build_object('reverted_versions', v_reverted,
                                 'restored_versions', v_restored,
                                 'watermark', v_mark.business_date,
                                 'action_id', v_action.action_id,
                                 'reason', p_reason,
                                 'db_user', v_action.db_user)
              -- a full extract's closures undone (restored_versions counts them too)
              || case when v_reopened > 0
                      then jsonb_build_object('reopened_closed_by_absence', v_reopened)
                      else '{}'::jsonb end;
  -- The shape of a batch_published payload; published_at is the undone
  -- publication's.
  perform ingest.write_notification(p_batch_id, 'batch_reverted',
    jsonb_build_object('batch_id', p_batch_id, 'source', v_batch.source,
                       'business_date', v_batch.business_date, 'sha256', v_batch.sha256,
                       'counts', v_counts, 'published_at', v_batch.published_at));

  -- When readers see it: the clock at this transaction's commit, for the
  -- time its rows carry (reporting.invoice_as_of).
  insert into ingest.history_instant (source, stamp, batch_id, kind, at)
  values (v_batch.source, v_ts, p_batch_id, 'reverted', pg_catalog.clock_timestamp());

  return query select v_action.action_id, p_batch_id, v_reverted, v_restored,
                      v_mark.business_date, v_action.superseded_attempt_no,
                      v_action.superseded_run_id;
end;
$$;
comment on function ingest.revert_batch(bigint, text) is
  E'Operator: undo the latest publication of a source in one transaction (versions, watermark, outbox, state).\nErrors: IV401 not an operator; IV307 empty reason; IV208 no such batch; IV305 not published; IV306 a later publication must be reverted first; IV219 a batch of the source is written and not yet published.';
revoke all on function ingest.revert_batch(bigint, text) from public;
grant execute on function ingest.revert_batch(bigint, text) to invoice_operator;
