-- ingest.status_report: what `invoice-loader status` prints, as one JSON
-- document; the text and Prometheus forms are rendered from it by the
-- loader (one query, one source of truth).
--   batches     newest first, at most p_limit, filtered by source, batch,
--               state and business date >= p_since; last_error is empty
--               once a batch is published, and for a quarantine without an
--               attempt message it is the first rejection; a published
--               full extract's closed_by_absence (the invoices it closed
--               by absence; absent for other batches);
--   watermarks  of the sources shown;
--   next_actions one line per blocked source: the command that unblocks it
--               (replay of a quarantined batch, the load of the date a
--               validated batch waits for, or of the batch itself when it
--               may publish or is written and not yet published,
--               approve or reject of a batch awaiting approval, a
--               corrected file for a reverted one);
--   sources     per source: the watermark date and its age, the last date
--               of its closed period (locked_through), when the next
--               business date is due (next_deadline_at, Unix seconds), batches by
--               state, the last finished load's duration and records (a
--               rerun that found its batch published is not a load), and
--               pending and in-doubt notifications (the Prometheus metrics),
--               whether it requires approval, its batches awaiting approval
--               and its requests awaiting confirmation (four eyes);
--   pending_confirmations the requests of recovery actions awaiting a
--               second operator's confirm (action id, action, source,
--               batch, date, requester, time, reason);
--   sweep       the latest CALL ingest.sweep() (ingest.sweep_overview:
--               started, finished, outcome, the failed part and its error,
--               the last successful run, runs and failed runs, and the
--               two times as Unix seconds); null when no sweep ever ran;
--   and for a single batch its attempts, checkpoints (events, with the
--   milliseconds since the one before), rejections (at most 1000) and
--   operator actions (replays, reverts, notification resolutions, each with
--   the attempt it superseded and, for a replay, the attempt that used its
--   authorization: used_at, used_by_attempt_no, used_by_run_id).
-- Reads only the operator views, with the caller's rights.
create or replace function ingest.status_report(
  p_source   text default null,
  p_batch_id bigint default null,
  p_limit    integer default 50,
  p_state    text default null,
  p_since    date default null)
returns jsonb
language sql
stable
set search_path = ''
as $$
  with batches as (
    select o.*
    from ingest.batch_overview as o
    where (p_source is null or o.source = p_source)
      and (p_batch_id is null or o.batch_id = p_batch_id)
      and (p_state is null or o.state = p_state)
      and (p_since is null or o.business_date >= p_since)
    order by o.batch_id desc
    limit p_limit),
  shown as (
    select b.*,
           case when b.state = 'published' then null
                when nullif(b.last_error, '') is not null then b.last_error
                when b.state = 'quarantined' then
                  (select r.rule || ': ' || r.detail from ingest.rejection as r
                    where r.batch_id = b.batch_id order by r.record_no, r.rule limit 1)
           end as shown_error
    from batches as b),
  sources as (
    select s.source from ingest.source_overview as s
    where (p_source is null or s.source = p_source)
      and (p_batch_id is null or s.source in (select b.source from batches as b))),
  blocked as (
    -- The earliest batch of each source that is not published and has no
    -- published batch for its date: what stops the watermark.
    select distinct on (o.source) o.source, o.batch_id, o.business_date, o.state,
           w.business_date as watermark
    from ingest.batch_overview as o
    join sources as s on s.source = o.source
    left join ingest.watermark as w on w.source = o.source
    where o.state in ('quarantined', 'validated', 'reverted')
      and (w.business_date is null or o.business_date > w.business_date)
      and not exists (select from ingest.batch_overview as p
                      where p.source = o.source and p.business_date = o.business_date
                        and p.state = 'published')
    order by o.source, o.business_date, o.batch_id desc)
  select jsonb_build_object(
    'batches', coalesce((select jsonb_agg(to_jsonb(b) - 'shown_error'
                                          || jsonb_build_object('last_error', b.shown_error)
                                          -- a full extract's publication: the
                                          -- invoices it closed by absence
                                          || jsonb_strip_nulls(jsonb_build_object(
                                               'closed_by_absence',
                                               b.merge_counts -> 'closed_by_absence'))
                                          order by b.batch_id desc)
                         from shown as b), '[]'::jsonb),
    'watermarks', coalesce((select jsonb_agg(to_jsonb(w) order by w.source)
                            from ingest.watermark as w
                            where w.source in (select s.source from sources as s)),
                           '[]'::jsonb),
    'next_actions', coalesce((
        select jsonb_agg(jsonb_build_object(
                 'source', k.source, 'batch_id', k.batch_id, 'business_date', k.business_date,
                 'state', k.state,
                 'action', case k.state
                   when 'quarantined' then format(
                     'batch %s (%s) is quarantined: fix its cause (status --batch %s), then an operator runs: invoice-loader replay --batch %s --reason TEXT, and the load runs again',
                     k.batch_id, k.business_date, k.batch_id, k.batch_id)
                   when 'validated' then case
                     when exists (select from ingest.pending_publication as p
                                  where p.batch_id = k.batch_id and p.awaits_approval
                                    and p.approved_by_action is null) then format(
                       'batch %s (%s) is written and awaits approval (the source requires it): an operator checks it and runs: invoice-loader approve --batch %s --reason TEXT (it publishes), or: invoice-loader reject --batch %s --reason TEXT (it is quarantined)',
                       k.batch_id, k.business_date, k.batch_id, k.batch_id)
                     when exists (select from ingest.pending_publication as p
                                  where p.batch_id = k.batch_id) then format(
                       'batch %s (%s) is written and not yet published (its run stopped between the two): run its load again (invoice-loader load --source %s --business-date %s ...), or the sweep publishes it',
                       k.batch_id, k.business_date, k.source, k.business_date)
                     when k.business_date = k.watermark + 1 then format(
                       'batch %s (%s) is validated and may publish: run its load again (invoice-loader load --source %s --business-date %s ...), or the sweep publishes it',
                       k.batch_id, k.business_date, k.source, k.business_date)
                     else format(
                     'batch %s (%s) waits for %s: load that date (invoice-loader load --source %s --business-date %s ...), or run: invoice-loader catch-up --source %s',
                     k.batch_id, k.business_date,
                     coalesce((k.watermark + 1)::text, 'the start date'),
                     k.source, coalesce((k.watermark + 1)::text, 'D'), k.source) end
                   else format(
                     'batch %s (%s) was reverted: load a corrected file for %s, or an operator runs: invoice-loader replay --batch %s --reason TEXT',
                     k.batch_id, k.business_date, k.business_date, k.batch_id)
                 end)
               order by k.source)
        from blocked as k), '[]'::jsonb),
    'sources', coalesce((
        select jsonb_agg(jsonb_build_object(
                 'source', s.source,
                 'watermark_date', w.business_date,
                 -- four eyes: whether the source requires approval, its
                 -- batches written and awaiting it, and the requests of
                 -- its recovery actions awaiting a second operator
                 'require_approval', (select o.require_approval from ingest.source_overview as o
                                      where o.source = s.source),
                 'awaiting_approval', (select count(*) from ingest.pending_publication as p
                                       where p.source = s.source and p.awaits_approval
                                         and p.approved_by_action is null),
                 'pending_confirmations', (select count(*) from ingest.operator_action as o
                                           where o.source = s.source and o.action = 'request'
                                             and not exists (select from ingest.confirmation as c
                                                             where c.request_action_id = o.action_id)),
                 -- the last date of the source's closed period (period close)
                 'locked_through', (select o.locked_through from ingest.source_overview as o
                                    where o.source = s.source),
                 -- the file format new files are read with (source add
                 -- --format-file); null: the contract's own
                 'format_version', (select o.format_version from ingest.source_overview as o
                                    where o.source = s.source),
                 'file_format', (select o.file_format from ingest.source_overview as o
                                 where o.source = s.source),
                 'watermark_age_seconds',
                   round(extract(epoch from now() - ((w.business_date + 1)::timestamp at time zone 'UTC'))),
                 -- when the next business date (the watermark's next, or
                 -- the start date) is due: D + 1 at the source's deadline
                 -- (UTC); null without a deadline
                 'next_deadline_at', (
                     select extract(epoch from
                              ((coalesce(w.business_date + 1, o.start_date) + 1)::timestamp
                               + o.deadline) at time zone 'UTC')::bigint
                     from ingest.source_overview as o
                     where o.source = s.source and o.deadline is not null),
                 -- the last publication: what an alert on silence compares
                 -- with the clock
                 'last_success_at', (
                     select extract(epoch from max(o.published_at))::bigint
                     from ingest.batch_overview as o
                     where o.source = s.source and o.state = 'published'),
                 -- what the last publication put before readers, per currency
                 -- (a sum across currencies means nothing)
                 'last_published_by_currency', (
                     select o.merge_counts -> 'accepted_by_currency'
                     from ingest.batch_overview as o
                     where o.source = s.source and o.state = 'published'
                     order by o.published_at desc nulls last, o.batch_id desc limit 1),
                 -- batches as they stand: a quarantined or reverted batch
                 -- whose business date has published since (a corrected
                 -- file) no longer counts; nothing is left to do for it
                 'batches_by_state', coalesce((
                     select jsonb_object_agg(c.state, c.n)
                     from (select o.state, count(*) as n from ingest.batch_overview as o
                           where o.source = s.source
                             and not (o.state in ('quarantined', 'reverted')
                                      and exists (select from ingest.batch_overview as p
                                                  where p.source = o.source
                                                    and p.business_date = o.business_date
                                                    and p.state = 'published'))
                           group by o.state) as c), '{}'::jsonb),
                 'last_load', (
                     select jsonb_build_object(
                              'batch_id', a.batch_id, 'outcome', a.outcome,
                              'duration_ms',
                                round(extract(epoch from a.finished_at - a.started_at) * 1000),
                              'records', o.record_count, 'finished_at', a.finished_at)
                     from ingest.attempt_overview as a
                     join ingest.batch_overview as o on o.batch_id = a.batch_id
                     -- a rerun that found the batch published did no
                     -- work: the last load is the last one that did
                     where o.source = s.source and a.finished_at is not null
                       and a.outcome is distinct from 'already_published'
                     order by a.finished_at desc limit 1),
                 'notifications', coalesce((
                     select jsonb_object_agg(c.state, c.n)
                     from (select n.state, count(*) as n
                           from ingest.notification as n
                           join ingest.batch_overview as o on o.batch_id = n.batch_id
                           where o.source = s.source group by n.state) as c), '{}'::jsonb))
               order by s.source)
        from sources as s left join ingest.watermark as w on w.source = s.source),
      '[]'::jsonb),
    -- requests of recovery actions awaiting a second operator's confirm
    'pending_confirmations', coalesce((
        select jsonb_agg(jsonb_build_object(
                 'action_id', o.action_id, 'requested_action', o.requested_action,
                 'source', o.source, 'batch_id', o.batch_id,
                 'date', coalesce(o.to_date, o.period_through),
                 'requested_by', o.db_user, 'at', o.at, 'reason', o.reason)
               order by o.action_id)
        from ingest.operator_action as o
        where o.action = 'request'
          and o.source in (select s.source from sources as s)
          and (p_batch_id is null or o.batch_id = p_batch_id)
          and not exists (select from ingest.confirmation as c
                          where c.request_action_id = o.action_id)), '[]'::jsonb),
    'sweep', (select to_jsonb(r) || jsonb_build_object(
                       'last_finished_epoch', extract(epoch from r.last_finished_at)::bigint,
                       'last_succeeded_epoch', extract(epoch from r.last_succeeded_at)::bigint)
              from ingest.sweep_overview as r),
    'attempts', case when p_batch_id is not null then coalesce((
        select jsonb_agg(to_jsonb(a) || jsonb_build_object(
                           'ms', round(extract(epoch from a.finished_at - a.started_at) * 1000))
                         order by a.attempt_no)
        from ingest.attempt_overview as a where a.batch_id = p_batch_id), '[]'::jsonb) end,
    'events', case when p_batch_id is not null then coalesce((
        select jsonb_agg(jsonb_build_object('from_state', e.from_state, 'to_state', e.to_state,
                                            'at', e.at, 'db_user', e.db_user,
                                            'ms_since_previous', e.ms_since_previous)
                         order by e.event_id)
        from (select e.*, round(extract(epoch from e.at - lag(e.at) over (order by e.event_id))
                                * 1000) as ms_since_previous
              from ingest.batch_event_overview as e where e.batch_id = p_batch_id) as e),
        '[]'::jsonb) end,
    'rejections', case when p_batch_id is not null then coalesce((
        select jsonb_agg(to_jsonb(r) order by r.record_no, r.rule)
        from (select * from ingest.rejection as r where r.batch_id = p_batch_id
              order by r.record_no, r.rule limit 1000) as r), '[]'::jsonb) end,
    'operator_actions', case when p_batch_id is not null then coalesce((
        select jsonb_agg(to_jsonb(o) || jsonb_build_object(
                           'used_at', r.consumed_at, 'used_by_attempt_no', u.attempt_no,
                           'used_by_run_id', u.run_id)
                         order by o.action_id)
        from ingest.operator_action as o
        left join ingest.replay_authorization as r on r.action_id = o.action_id
        left join ingest.attempt_overview as u on u.attempt_id = r.consumed_by_attempt_id
        where o.batch_id = p_batch_id), '[]'::jsonb) end)
$$;
comment on function ingest.status_report(text, bigint, integer, text, date) is
  'Batches, watermarks, next actions and per-source metrics and, for one batch, attempts, checkpoints, rejections and operator actions, as JSON.';
revoke all on function ingest.status_report(text, bigint, integer, text, date) from public;
grant execute on function ingest.status_report(text, bigint, integer, text, date) to invoice_loader, invoice_operator;
