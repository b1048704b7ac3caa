-- ingest.write_batch: the write and the audit of a validated batch's
-- publication, in a transaction of its own before the publishing one
-- (issue 15 item 4, "write, audit, publish"): merge its accepted records
-- into core.invoice_version (business key (source, invoice_number); a
-- higher revision wins, a lower one goes to history, an identical resend is
-- unchanged, VOID at the winning revision hides the invoice), superseding
-- what they replace, reconcile what the merge did against the file, and
-- list the batch in ingest.pending_publication.  Until
-- ingest.publish_batch deletes that row, reporting.* and
-- reporting.invoice_as_of skip the batch's versions and show what it
-- superseded as current (migration 0024): consumers see nothing of it, and
-- its publication is a short transaction.  publish_batch calls this itself
-- for a batch not written yet, so publication in one transaction (the
-- sweeper, an operator in psql) works as before.
-- Order: a business date is written only when it may publish (every
-- earlier date of the source published: watermark + 1, or the start date),
-- and only when no other batch of the source is written and unpublished
-- (one row per source): otherwise the outcome is 'waiting', with
-- waiting_for (a date) or waiting_for_batch (the written batch), and
-- nothing is written.  While a batch is written, nothing else changes the
-- source's versions (ingest.revert_batch refuses, IV219), so its
-- publication cannot be refused.
-- Staged rows lost in a server crash (unlogged staging), or typed rows
-- that do not match the accepted count: the batch goes back to received,
-- outcome 'restage', and the load stages the file again.
-- Idempotent: a written batch returns 'written' with its counts, a
-- published one 'already_published', and neither writes anything.  A
-- revision conflict that appeared since validation rejects the records
-- carrying it (revision.conflict) and the source's policy decides again:
-- all-or-nothing, or a partial share exceeded, quarantines.  A failed
-- second reconciliation rolls the merge back and quarantines the batch
-- (outcome 'quarantined', rule reconcile.merge).  The batch's typed rows
-- are cleared once it is written.
-- Locks: advisory xact lock per source (publications of a source are
-- serial); the batch row; the watermark row (for update, ingest.publication_turn).
-- Internal (publish_batch and the loader's publication step): EXECUTE for
-- invoice_loader.
-- Errors: IV201 batch not validated; IV208 no such batch.
create or replace function ingest.write_batch(p_batch_id bigint, p_attempt_id bigint)
returns table (outcome text, state text, counts jsonb)
language plpgsql
security definer
set search_path = ''
-- sorts and hashes over a whole batch stay in memory (a million records
-- need about 200 MB; the default 4 MB spilled them to disk)
set work_mem = '256MB'
as $$
declare
  v_batch       ingest.batch;
  v_source      ingest.source;
  v_pending     ingest.pending_publication;
  v_turn        record;
  v_now         timestamptz := now();
  v_valid       integer;
  v_counts      jsonb;
  v_rejected_gross numeric;
  v_problem     jsonb;
  v_message     text;
  v_conflicts   integer;
  v_rejected    integer;
  v_single      boolean;
  v_history     boolean;
  v_seqscan     text;
  v_work_mem    text;
  v_hash_mem    text;
  v_lowered     boolean;
begin
  v_batch := ingest.lock_batch_for_publication(p_batch_id);
  -- The publication's time: after the lock, so the publications and
  -- reverts of a source are in time order (reporting.invoice_as_of).
  v_now := pg_catalog.clock_timestamp();

  if v_batch.state = 'published' then
    return query select 'already_published'::text, v_batch.state, v_batch.merge_counts;
    return;
  end if;
  if v_batch.state <> 'validated' then
    raise exception 'batch % is %, not validated; it cannot be published', p_batch_id, v_batch.state
      using errcode = 'IV201';
  end if;
  select * into v_source from ingest.source as s where s.source = v_batch.source;

  -- Written already, or another batch of the source is: at most one at a
  -- time, and this one waits for the other's publication.
  select * into v_pending from ingest.pending_publication as p where p.source = v_batch.source;
  if found then
    if v_pending.batch_id = p_batch_id then
      return query select 'written'::text, v_batch.state, v_pending.counts;
    else
      return query select 'waiting'::text, v_batch.state,
        jsonb_build_object('waiting_for_batch', v_pending.batch_id);
    end if;
    return;
  end if;

  -- Order: every earlier date must be published first.
  select * into v_turn from ingest.publication_turn(p_batch_id);
  if v_turn.waiting_for is not null then
    return query select 'waiting'::text, v_batch.state,
      jsonb_build_object('waiting_for', v_turn.waiting_for);
    return;
  end if;

  -- The staging tables are unlogged: after a server crash the rows this
  -- checkpoint stands on are gone, and the batch is staged again.
  -- (Only the typed rows: the raw ones are not needed any more, and the
  -- loader's path never writes them.)
  if v_batch.accepted_count > 0
     and not exists (select from staging.invoice_valid as v where v.batch_id = p_batch_id) then
    perform ingest.restage_lost_batch(p_batch_id, 'validated', p_attempt_id);
    return query select 'restage'::text, 'received'::text, null::jsonb;
    return;
  end if;

  -- Revisions are immutable: a (key, revision) published since this batch
  -- was validated, with other content, rejects the records carrying it,
  -- as validation would have; then the policy decides again.  History is
  -- read again only if it changed since validation read it (a publication
  -- or revert of the source committed since: ingest.history_stamp);
  -- otherwise staging.key_version still holds exactly what it holds, and
  -- there is nothing new to conflict with.
  if v_batch.history_stamp is not null
     and v_batch.history_stamp = ingest.history_stamp(v_batch.source) then
    v_conflicts := 0;
  else
    v_conflicts := ingest.reject_revision_conflicts(p_batch_id, v_batch.source,
                                                    v_batch.distinct_keys = v_batch.staged_count);
  end if;
  if v_conflicts > 0 then
    v_rejected := ingest.rejected_records(p_batch_id);
    update ingest.batch as b
       set rejected_count = v_rejected, accepted_count = b.staged_count - v_rejected
     where b.batch_id = p_batch_id
    returning * into v_batch;
    v_problem := ingest.rejected_share_problem(v_source, v_rejected, v_batch.staged_count);
    if v_source.policy = 'all-or-nothing' or v_problem is not null then
      perform ingest.clear_typed_staging(p_batch_id);
      perform ingest.quarantine_batch(p_batch_id, 'validated', p_attempt_id,
                                      case when v_problem is null then '[]'::jsonb
                                           else jsonb_build_array(v_problem) end);
      return query select 'quarantined'::text, 'quarantined'::text, null::jsonb;
      return;
    end if;
  end if;

  -- Typed rows other than validation left (rows written next to them):
  -- the checkpoint does not hold either; stage again (this was IV204).
  -- EXECUTE ... INTO, here and for the read-back below, not SELECT INTO:
  -- PL/pgSQL runs a SELECT INTO with a row limit, and PostgreSQL launches
  -- no parallel workers for a limited run (the plans of a 10M batch said
  -- "Workers Planned: 2, Workers Launched: 0"); EXECUTE runs its statement
  -- to the end (docs/PERFORMANCE.md, "Parallel plans that ran serially").
  execute 'select count(*) from staging.invoice_valid as v where v.batch_id = $1'
    into v_valid using p_batch_id;
  if v_valid <> v_batch.accepted_count then
    perform ingest.restage_lost_batch(p_batch_id, 'validated', p_attempt_id);
    return query select 'restage'::text, 'received'::text, null::jsonb;
    return;
  end if;

  begin
    -- The merge works from staging.key_version: what history held for the
    -- batch's keys when this transaction read it (in
    -- reject_revision_conflicts above, under the source's publication lock),
    -- one index lookup per key instead of several per record.
    -- The current version of a key this batch wins gives way: the batch
    -- has a higher revision of it.  Each such version is found through the
    -- one-current index, one lookup per superseded key, as before
    -- staging.key_version had statistics (ingest.analyze_staging): with
    -- them the planner, costing pages as if read from disk, would rather
    -- scan and hash all of the history's current versions (3.2 s against
    -- 0.25 s over 5M versions for 90,000 keys); hence the setting, for
    -- this statement only.  Which records of the batch have a higher
    -- revision of the key (%s): with one record per key, key_version holds
    -- each key's record beside its versions (batch_revision; cleared for
    -- a record rejected since, ingest.reject_revision_conflicts), and the
    -- typed rows are not read here at all; otherwise a semi-join with them
    -- (a hash of every typed row: 0.25 s of a million).  The condition is
    -- put into the statement's text, as the merge's forms below are, so
    -- that the EXISTS is planned as the semi-join it is.
    v_single := v_batch.distinct_keys = v_batch.staged_count;
    -- A batch none of whose keys history holds (staging.key_version has
    -- nothing of it) supersedes nothing: the UPDATE, its plan and its
    -- statement trigger are left out (a small batch's first execution of
    -- them in a new session: about 4 ms of the seed's attempt).
    v_history := exists (select from staging.key_version as h where h.batch_id = p_batch_id);
    if v_history then
      v_seqscan := pg_catalog.current_setting('enable_seqscan');
      perform pg_catalog.set_config('enable_seqscan', 'off', true);
      execute pg_catalog.format($supersede$
      update core.invoice_version as cv
         set is_current = false, superseded_by_batch_id = $1, superseded_at = $3
        from staging.key_version as h
       where h.batch_id = $1 and h.is_current and %s
         and cv.source = $2 and cv.invoice_number = h.invoice_number
         and cv.revision = h.revision and cv.is_current
      $supersede$,
        case when v_single then 'h.batch_revision > h.revision'
             else 'exists (select from staging.invoice_valid as v
                           where v.batch_id = $1 and not v.is_duplicate
                             and v.invoice_number = h.invoice_number
                             and v.revision > h.revision)' end)
      using p_batch_id, v_batch.source, v_now;
      perform pg_catalog.set_config('enable_seqscan', v_seqscan, true);
    end if;

    -- New versions: the highest new revision of a key wins unless a higher
    -- one is already current; the rest go to history.  A file with as many
    -- distinct invoice numbers as records (validation counted them:
    -- batch.distinct_keys) has one record per key, its own highest
    -- revision: the per-key maximum and the window over the batch (a hash
    -- aggregate, a join and a sort of every record: 2.5 s of a million)
    -- are left out of the statement (%2$s, and the join in %1$s).  A batch
    -- none of whose keys history holds (staging.key_version has nothing of
    -- it) has no current version to stay or give way and no revision
    -- published already: the joins with the key history are left out
    -- (%1$s; 0.4 s of a million, an anti-join probing the empty history
    -- once per record).  The statement's text is the only difference
    -- between the forms.
    -- The INSERT's statement trigger (core.check_invoice_version_refs)
    -- keeps every row it writes in a transition table, which fills
    -- work_mem of fresh memory before it spills to a temporary file: at
    -- this function's 256 MB, a million versions cost about 1 s more than
    -- at 16 MB (docs/PERFORMANCE.md, "The merge's transition table").
    -- With one record per key nothing in the statement sorts; its hash
    -- joins (the key history) keep their budget, work_mem times
    -- hash_mem_multiplier, through a larger multiplier.  The other form's
    -- window sort keeps the function's work_mem, and so does a work_mem
    -- an operator lowered below 16 MB (docs/OPERATIONS.md).
    v_work_mem := pg_catalog.current_setting('work_mem');
    v_hash_mem := pg_catalog.current_setting('hash_mem_multiplier');
    v_lowered := v_single and pg_catalog.pg_size_bytes(v_work_mem) > 16 * 1024 * 1024;
    if v_lowered then
      perform pg_catalog.set_config('work_mem', '16MB', true);
      perform pg_catalog.set_config('hash_mem_multiplier',
        least(v_hash_mem::float8 * pg_catalog.pg_size_bytes(v_work_mem) / (16 * 1024 * 1024),
              1000)::text, true);
    end if;
    execute pg_catalog.format($merge$
    insert into core.invoice_version (source, invoice_number, revision, status, document_type,
                                      customer_id, invoice_date, due_date, currency, net_amount,
                                      tax_amount, gross_amount, description, content_hash,
                                      content_hash_version, batch_id, record_no, is_current,
                                      supersedes_revision, superseded_by_batch_id, superseded_at,
                                      published_at)
    select $1, n.invoice_number, n.revision, n.status, n.document_type,
           n.customer_id, n.invoice_date, n.due_date, n.currency, n.net_amount, n.tax_amount,
           n.gross_amount, n.description, n.content_hash, 2, $2, n.record_no,
           n.wins, case when n.wins then n.prev_revision end,
           -- not winning: superseded by this batch's winner of the key, or
           -- (a late revision) by the batch of the version current at arrival
           case when n.wins then null
                when n.cur_revision is null then $2
                else n.cur_batch end,
           case when n.wins then null else $3 end,
           $3
    from (select x.*, %2$s as wins
          from (%1$s) as x) as n
    $merge$,
      case when not v_history then
        'select v.*, null::integer as cur_revision, null::bigint as cur_batch,
                null::integer as prev_revision
         from staging.invoice_valid as v
         where v.batch_id = $2 and not v.is_duplicate'
      else pg_catalog.format($rows$
        select v.*,
               -- the key's current version stays current (a higher
               -- or equal revision) or gave way just above
               case when kc.revision >= t.top then kc.revision end as cur_revision,
               case when kc.revision >= t.top then kc.version_batch_id end as cur_batch,
               case when kc.revision < t.top then kc.revision end as prev_revision
        from staging.invoice_valid as v
        %s
        left join staging.key_version as kc
          on kc.batch_id = $2 and kc.invoice_number = v.invoice_number
         and kc.is_current
        where v.batch_id = $2 and not v.is_duplicate
          and not exists (select from staging.key_version as e
                          where e.batch_id = $2
                            and e.invoice_number = v.invoice_number
                            and e.revision = v.revision)
        $rows$,
        case when v_single then 'cross join lateral (select v.revision as top) as t'
             else 'join (select tv.invoice_number, max(tv.revision) as top
                        from staging.invoice_valid as tv
                        where tv.batch_id = $2 and not tv.is_duplicate
                        group by tv.invoice_number) as t on t.invoice_number = v.invoice_number' end)
      end,
      case when v_single then 'x.cur_revision is null'
           else 'x.revision = max(x.revision) over (partition by x.invoice_number)
                   and x.cur_revision is null' end)
    using v_batch.source, p_batch_id, v_now;
    if v_lowered then
      perform pg_catalog.set_config('work_mem', v_work_mem, true);
      perform pg_catalog.set_config('hash_mem_multiplier', v_hash_mem, true);
    end if;

    -- What the merge did, from what it wrote (read back: the second
    -- reconciliation counts what is there, not what the INSERT meant to
    -- write).  The planner costs it on the statistics from before the
    -- insert, which put the new batch at a few thousand rows: for a
    -- million it picks a bitmap scan in one process; over a bigger table
    -- a parallel scan, whose workers EXECUTE lets start (see the count of
    -- typed rows above; docs/PERFORMANCE.md).
    execute $readback$
    select jsonb_build_object(
             'inserted', count(*) filter (where cv.is_current and cv.status = 'ISSUED'
                                            and cv.supersedes_revision is null),
             'amended',  count(*) filter (where cv.is_current and cv.status = 'ISSUED'
                                            and cv.supersedes_revision is not null),
             'voided',   count(*) filter (where cv.is_current and cv.status = 'VOID'),
             'late',     count(*) filter (where not cv.is_current),
             'versions_gross', coalesce(sum(cv.gross_amount), 0))
    from core.invoice_version as cv where cv.batch_id = $1
    $readback$
      into v_counts using p_batch_id;

    -- What the typed rows account for (unchanged and duplicate records, as
    -- history held them before the merge): a RETURN QUERY function, whose
    -- scan of the batch's rows runs in parallel (ingest.merge_accounted).
    select v_counts || a || jsonb_build_object('rejected', v_batch.rejected_count,
                                               'records', v_batch.staged_count)
      into v_counts
    from ingest.merge_accounted(p_batch_id) as a;

    -- The rejected records' readable gross amounts, as validation (or the
    -- conflict check above) recorded them with their rejection rows.
    select sum(r.gross_amount) into v_rejected_gross
    from (select distinct on (x.record_no) x.gross_amount
          from ingest.rejection_row as x
          where x.batch_id = p_batch_id and x.record_no > 0
          order by x.record_no) as r;
    v_rejected_gross := coalesce(v_rejected_gross, 0);
    v_counts := v_counts || jsonb_build_object('rejected_gross', v_rejected_gross,
                                               'control_total', v_batch.control_total);

    -- Second reconciliation: every record is accounted for exactly once,
    -- and the amounts the merge wrote add up to the file.
    if (v_counts ->> 'inserted')::integer + (v_counts ->> 'amended')::integer
          + (v_counts ->> 'voided')::integer + (v_counts ->> 'late')::integer
          + (v_counts ->> 'unchanged')::integer + (v_counts ->> 'duplicates')::integer
          + (v_counts ->> 'rejected')::integer <> v_batch.staged_count
       or (v_counts ->> 'versions_gross')::numeric + (v_counts ->> 'unchanged_gross')::numeric
          + (v_counts ->> 'duplicates_gross')::numeric <> (v_counts ->> 'accepted_gross')::numeric
       or (v_batch.control_total is not null
           and (v_counts ->> 'accepted_gross')::numeric + v_rejected_gross <> v_batch.control_total) then
      raise exception 'batch %: the merge does not reconcile with the file: %', p_batch_id, v_counts
        using errcode = 'IV206';
    end if;
  exception when sqlstate 'IV206' then
    get stacked diagnostics v_message = message_text;
    perform ingest.clear_typed_staging(p_batch_id);
    perform ingest.quarantine_batch(p_batch_id, 'validated', p_attempt_id,
      jsonb_build_array(jsonb_build_object('rule', 'reconcile.merge', 'record_no', 0,
                                           'detail', v_message)));
    return query select 'quarantined'::text, 'quarantined'::text, null::jsonb;
    return;
  end;

  perform ingest.clear_typed_staging(p_batch_id);
  -- Listed: consumers skip the versions until the publication.  Last, so
  -- that written_at (its default, the clock) is the end of the write.
  insert into ingest.pending_publication (source, batch_id, attempt_id, published_at, counts)
  values (v_batch.source, p_batch_id, p_attempt_id, v_now, v_counts);

  return query select 'written'::text, v_batch.state, v_counts;
end;
$$;
comment on function ingest.write_batch(bigint, bigint) is
  E'Write and reconcile a validated batch''s versions, unseen by consumers until ingest.publish_batch.\nErrors: IV201 not validated; IV208 no such batch.';
revoke all on function ingest.write_batch(bigint, bigint) from public;
grant execute on function ingest.write_batch(bigint, bigint) to invoice_loader;
