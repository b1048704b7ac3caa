-- ingest.status_report: what `invoice-loader status --format json` prints.
-- Batches (newest first, at most p_limit; one when p_batch_id is given),
-- the watermarks of the sources shown, and for a single batch its attempts,
-- checkpoints (events), rejections (at most 1000) and operator actions
-- (replays, reverts, notification resolutions, each with the attempt it
-- superseded).
-- Reads only the operator views, with the caller's rights.
create or replace function ingest.status_report(
  p_source   text default null,
  p_batch_id bigint default null,
  p_limit    integer default 50)
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
    order by o.batch_id desc
    limit p_limit)
  select jsonb_build_object(
    'batches', coalesce((select jsonb_agg(to_jsonb(b) order by b.batch_id desc) from batches as b),
                        '[]'::jsonb),
    'watermarks', coalesce((select jsonb_agg(to_jsonb(w) order by w.source)
                            from ingest.watermark as w
                            where (p_source is null or w.source = p_source)
                              and (p_batch_id is null
                                   or w.source in (select b.source from batches as b))),
                           '[]'::jsonb),
    'attempts', case when p_batch_id is not null then coalesce((
        select jsonb_agg(to_jsonb(a) order by a.attempt_no)
        from ingest.attempt_overview as a where a.batch_id = p_batch_id), '[]'::jsonb) end,
    'events', case when p_batch_id is not null then coalesce((
        select jsonb_agg(jsonb_build_object('from_state', e.from_state, 'to_state', e.to_state,
                                            'at', e.at, 'db_user', e.db_user)
                         order by e.event_id)
        from ingest.batch_event_overview as e where e.batch_id = p_batch_id), '[]'::jsonb) end,
    'rejections', case when p_batch_id is not null then coalesce((
        select jsonb_agg(to_jsonb(r) order by r.record_no, r.rule)
        from (select * from ingest.rejection as r where r.batch_id = p_batch_id
              order by r.record_no, r.rule limit 1000) as r), '[]'::jsonb) end,
    'operator_actions', case when p_batch_id is not null then coalesce((
        select jsonb_agg(to_jsonb(o) order by o.action_id)
        from ingest.operator_action as o where o.batch_id = p_batch_id), '[]'::jsonb) end)
$$;
comment on function ingest.status_report(text, bigint, integer) is
  'Batches, watermarks and, for one batch, attempts, checkpoints, rejections and operator actions, as JSON.';
revoke all on function ingest.status_report(text, bigint, integer) from public;
grant execute on function ingest.status_report(text, bigint, integer) to invoice_loader, invoice_operator;
