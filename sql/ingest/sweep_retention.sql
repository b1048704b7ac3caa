-- ingest.sweep_retention: part of ingest.sweep.  Deletes the staging rows
-- (staging.key_version, staging.invoice_valid, staging.invoice_line) of
-- batches that were published, reverted or quarantined more than their
-- source's retention_days ago (the time of that state change,
-- ingest.batch.updated_at), at most p_chunk rows per call, so that no
-- call holds locks for long; ingest.sweep commits after each call and
-- calls again.  ingest.staging_purge records the batch: purged_at is set
-- when its last row is gone (NULL while chunks remain).  A batch that
-- changed state after its purge (replayed and finished again) is purged
-- again.  What consumers and clerks read is not staging: versions,
-- rejections and counts stay.
-- Per call one batch: the oldest whose row no other sweep has locked
-- (FOR NO KEY UPDATE SKIP LOCKED), so concurrent sweeps share the work and
-- never delete from one batch at once.  The row lock also keeps the batch
-- in its final state until the chunk commits: a replay must update the row
-- first, and a load writes staging only for a received batch.
-- Returns the batch, the rows deleted in this call and whether it is done;
-- no row: nothing left to purge.
-- Locks: the batch row (for no key update, until commit).
-- Errors: IV308 p_chunk not positive.
create or replace function ingest.sweep_retention(p_chunk integer default 10000)
returns table (batch_id bigint, rows_deleted integer, done boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_b    record;
  v_left integer;
  v_n    integer;
begin
  if p_chunk is null or p_chunk < 1 then
    raise exception 'the chunk size must be positive, not %', coalesce(p_chunk::text, 'NULL')
      using errcode = 'IV308';
  end if;
  for v_b in
    select b.batch_id, b.source, b.business_date, b.state
    from ingest.batch as b
    join ingest.source as s on s.source = b.source
    where b.state in ('published', 'reverted', 'quarantined')
      and b.updated_at < pg_catalog.now() - pg_catalog.make_interval(days => s.retention_days)
      and not exists (select from ingest.staging_purge as p
                      where p.batch_id = b.batch_id and p.purged_at >= b.updated_at)
    order by b.updated_at, b.batch_id
    limit 1
    for no key update of b skip locked
  loop
    v_left := p_chunk;
    delete from staging.key_version as h
     where h.ctid = any (array(select x.ctid from staging.key_version as x
                               where x.batch_id = v_b.batch_id limit v_left));
    get diagnostics v_n = row_count;
    v_left := v_left - v_n;
    if v_left > 0 then
      delete from staging.invoice_valid as v
       where v.batch_id = v_b.batch_id  -- a ctid is unique within a partition only
         and v.ctid = any (array(select x.ctid from staging.invoice_valid as x
                                 where x.batch_id = v_b.batch_id limit v_left));
      get diagnostics v_n = row_count;
      v_left := v_left - v_n;
    end if;
    if v_left > 0 then
      delete from staging.invoice_line as l
       where l.ctid = any (array(select x.ctid from staging.invoice_line as x
                                 where x.batch_id = v_b.batch_id limit v_left));
      get diagnostics v_n = row_count;
      v_left := v_left - v_n;
    end if;
    -- Fewer rows than a chunk: the batch had no more.
    insert into ingest.staging_purge as p (batch_id, state_at_purge, started_at, purged_at,
                                           rows_deleted)
    values (v_b.batch_id, v_b.state, pg_catalog.now(),
            case when v_left > 0 then pg_catalog.now() end, p_chunk - v_left)
    on conflict on constraint staging_purge_pkey do update
       set state_at_purge = excluded.state_at_purge,
           started_at = case when p.purged_at is null then p.started_at else excluded.started_at end,
           purged_at = excluded.purged_at,
           rows_deleted = case when p.purged_at is null then p.rows_deleted else 0 end
                          + excluded.rows_deleted;
    batch_id := v_b.batch_id; rows_deleted := p_chunk - v_left; done := v_left > 0;
    return next;
    return;
  end loop;
end;
$$;
comment on function ingest.sweep_retention(integer) is
  E'Sweep part: delete one chunk of the staging rows of a batch finished more than its source''s retention_days ago.\nErrors: IV308 chunk not positive.';
revoke all on function ingest.sweep_retention(integer) from public;
grant execute on function ingest.sweep_retention(integer) to invoice_loader, invoice_operator;
