-- ingest.sweep_orphan_received: part of ingest.sweep.  A batch left
-- 'received' whose bytes were never staged, and that nobody is loading any
-- more, is closed: quarantined with rule batch.abandoned (file level), the
-- reason in the rejection, the batch_quarantined notification written
-- (ingest.quarantine_batch).  The rule: the batch is received; it has at
-- least one attempt and every attempt ended as 'abandoned' (a run died or
-- was cut off; a run that ended by itself, e.g. exit 75, reruns and is left
-- alone); the last of them ended more than p_after ago (default 24 hours,
-- ingest.sweep's p_orphan_after); and no session holds its runner lock.
-- Such a batch (for instance a file that changed while it was read:
-- registered by its first checksum, never stageable) would otherwise stay
-- received forever.  Like any quarantined batch it can be replayed by an
-- operator; a corrected delivery is new bytes, a new batch.
-- One transaction, at most p_limit batches, one per (source, business
-- date) per call (the runner lock is held until commit).
-- Idempotent; concurrent sweeps skip what another holds.
-- Returns the batches closed.
-- Locks: runner advisory locks (transaction level), the batch rows.
-- Errors: IV308 p_after shorter than an hour.  A batch that moved meanwhile
-- is skipped.
create or replace function ingest.sweep_orphan_received(
  p_after interval default interval '24 hours',
  p_limit integer default 100)
returns table (batch_id bigint)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_b    record;
  v_last timestamptz;
  v_now  timestamptz := pg_catalog.now();
begin
  -- A short wait would close batches whose loader is merely restarting.
  if p_after is null or p_after < interval '1 hour' then
    raise exception 'an orphan received batch is closed after at least one hour, not %',
                    coalesce(p_after::text, 'NULL')
      using errcode = 'IV308';
  end if;
  for v_b in
    select distinct on (b.source, b.business_date)
           b.batch_id, b.source, b.business_date, x.last_end, x.attempts
    from ingest.batch as b
    cross join lateral (select max(a.finished_at) as last_end, count(*) as attempts,
                               bool_and(a.outcome = 'abandoned') as all_abandoned
                        from ingest.attempt as a where a.batch_id = b.batch_id) as x
    where b.state = 'received' and x.attempts > 0 and x.all_abandoned
      and x.last_end < v_now - p_after
    order by b.source, b.business_date, b.batch_id
    limit p_limit
  loop
    continue when not ingest.try_runner_xact_lock(v_b.source, v_b.business_date);
    -- Under the lock: still received, still nothing but abandoned attempts?
    perform from ingest.batch as b
     where b.batch_id = v_b.batch_id and b.state = 'received'
    for update;
    continue when not found;
    select max(a.finished_at) into v_last from ingest.attempt as a
     where a.batch_id = v_b.batch_id
    having bool_and(a.outcome = 'abandoned') and max(a.finished_at) < v_now - p_after;
    continue when v_last is null;
    perform ingest.quarantine_batch(v_b.batch_id, 'received', null,
      pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object(
        'rule', 'batch.abandoned', 'record_no', 0,
        'detail', pg_catalog.format(
          'the file of this batch was never staged: its %s attempt(s) all ended abandoned, '
          'the last at %s, more than %s before the sweep; closed by ingest.sweep',
          v_b.attempts, v_last, p_after))));
    batch_id := v_b.batch_id;
    return next;
  end loop;
end;
$$;
comment on function ingest.sweep_orphan_received(interval, integer) is
  E'Sweep part: quarantine (rule batch.abandoned) received batches whose attempts all ended abandoned long ago.\nErrors: IV308 p_after under an hour.';
revoke all on function ingest.sweep_orphan_received(interval, integer) from public;
grant execute on function ingest.sweep_orphan_received(interval, integer) to invoice_loader, invoice_operator;
