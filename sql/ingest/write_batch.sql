-- ingest.write_batch: the write and the audit of a validated batch's
-- publication, in a transaction of its own before the publishing one
-- (write, audit, then publish: the publishing transaction stays short and
-- cannot fail for anything the merge found): merge its accepted records
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
-- A batch of a source that requires approval (ingest.source.
-- require_approval, as it stands at the write) is listed as awaiting
-- approval, and the outcome is 'awaiting_approval' instead of 'written'
-- (again on every later call until ingest.approve_batch marks it
-- approved); a batch waiting behind it gets waiting_for_batch and
-- awaiting_approval true.
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
  v_rejects     jsonb;
  v_diff        text[];
  v_problem     jsonb;
  v_message     text;
  v_conflicts   integer;
  v_rejected    integer;
  v_single      boolean;
  v_history     boolean;
  v_work_mem    text;
  v_hash_mem    text;
  v_lowered     boolean;
  v_absent      integer;
  v_current     integer;
  v_closed      jsonb;
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
      return query select case when v_pending.awaits_approval
                                    and v_pending.approved_by_action is null
                               then 'awaiting_approval' else 'written' end,
                          v_batch.state, v_pending.counts;
    else
      return query select 'waiting'::text, v_batch.state,
        jsonb_build_object('waiting_for_batch', v_pending.batch_id,
                           'awaiting_approval', v_pending.awaits_approval
                                                and v_pending.approved_by_action is null);
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
  -- A closed period (period close): its records are rejected like the
  -- conflicts, and the policy decides the same way.  Read under the
  -- publication lock, which a close takes too, so a period closed after
  -- validation counts.
  if v_source.locked_through is not null then
    v_conflicts := v_conflicts
                   + ingest.reject_closed_period(p_batch_id, v_source.locked_through);
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

  -- A full extract (ingest.source.extract_kind): the current invoices it does
  -- not list are closed by absence in this write.  First whether it may:
  -- not one dated in a closed period (period.closed), nor more than the
  -- source's share of its current invoices unless a replay allowed it
  -- (extract.absent_share); otherwise the file is quarantined and nothing
  -- of it is written (ingest.absence_problem).  Read under the publication
  -- lock, so it counts what is current now, not at validation.
  if v_source.extract_kind = 'full' then
    select count(*)::integer into v_absent
    from ingest.absent_invoices(p_batch_id, v_batch.source);
    select count(*)::integer into v_current
    from core.invoice_version as cv
    where cv.source = v_batch.source and cv.is_current and cv.status = 'ISSUED';
    v_problem := ingest.absence_problem(p_batch_id, v_source, v_absent, v_current);
    if v_problem is not null then
      perform ingest.clear_typed_staging(p_batch_id);
      perform ingest.quarantine_batch(p_batch_id, 'validated', p_attempt_id,
                                      jsonb_build_array(v_problem));
      return query select 'quarantined'::text, 'quarantined'::text, null::jsonb;
      return;
    end if;
  end if;

  begin
    -- The merge works from staging.key_version: what history held for the
    -- batch's keys when this transaction read it (in
    -- reject_revision_conflicts above, under the source's publication lock),
    -- one index lookup per key instead of several per record.  It has four
    -- forms, one static statement each in a function of its own (with the
    -- planner settings it needs as SET clauses): which one runs depends on
    -- two facts about the batch, and each leaves out of its statement what
    -- the batch does not need.
    -- One record per key: as many distinct invoice numbers as records
    -- (validation counted them: batch.distinct_keys); each record is its
    -- key's highest revision, and key_version holds it beside the key's
    -- versions (batch_revision).
    v_single := v_batch.distinct_keys = v_batch.staged_count;
    -- Keys history holds: a batch none of whose keys it holds
    -- (staging.key_version has nothing of it) supersedes nothing, and the
    -- UPDATE, its plan and its statement trigger are left out (a small
    -- batch's first execution of them in a new session: about 4 ms of the
    -- seed's attempt); its INSERT has no key history to join.
    v_history := exists (select from staging.key_version as h where h.batch_id = p_batch_id);

    -- 1. The current version of a key this batch wins gives way.
    if v_history and v_single then
      perform ingest.merge_supersede_one_per_key(p_batch_id, v_batch.source, v_now);
    elsif v_history then
      perform ingest.merge_supersede(p_batch_id, v_batch.source, v_now);
    end if;

    -- 2. New versions.  The INSERT's statement trigger
    -- (core.check_invoice_version_refs) keeps every row it writes in a
    -- transition table, which fills work_mem of fresh memory before it
    -- spills to a temporary file: at this function's 256 MB, a million
    -- versions cost about 1 s more than at 16 MB (docs/PERFORMANCE.md,
    -- "The merge's transition table").  With one record per key nothing in
    -- the statement sorts, and it runs at 16 MB; its hash joins (the key
    -- history) keep their budget, work_mem times hash_mem_multiplier,
    -- through a larger multiplier, capped at PostgreSQL's maximum of 1000.
    -- The forms for several records per key sort the batch and keep this
    -- function's work_mem.  So does a work_mem an operator lowered below
    -- 16 MB (ALTER FUNCTION ingest.write_batch ... SET work_mem; see
    -- docs/guide/operate.md).
    -- These two settings are the only ones set here rather than by a SET
    -- clause on the form's function: a SET clause gives a fixed value,
    -- whereas these follow the work_mem this function runs at (its own,
    -- or the operator's) and the session's multiplier, which a SET clause
    -- would have replaced before the function could read them.  Both are
    -- put back before the read-back below, which runs at the function's
    -- work_mem.
    v_work_mem := pg_catalog.current_setting('work_mem');
    v_hash_mem := pg_catalog.current_setting('hash_mem_multiplier');
    v_lowered := v_single and pg_catalog.pg_size_bytes(v_work_mem) > 16 * 1024 * 1024;
    if v_lowered then
      perform pg_catalog.set_config('work_mem', '16MB', true);
      perform pg_catalog.set_config('hash_mem_multiplier',
        least(v_hash_mem::float8 * pg_catalog.pg_size_bytes(v_work_mem) / (16 * 1024 * 1024),
              1000)::text, true);
    end if;
    if v_history and v_single then
      perform ingest.merge_insert_one_per_key(p_batch_id, v_batch.source, v_now);
    elsif v_history then
      perform ingest.merge_insert(p_batch_id, v_batch.source, v_now);
    elsif v_single then
      perform ingest.merge_insert_new_keys_one_per_key(p_batch_id, v_batch.source, v_now);
    else
      perform ingest.merge_insert_new_keys(p_batch_id, v_batch.source, v_now);
    end if;
    if v_lowered then
      perform pg_catalog.set_config('work_mem', v_work_mem, true);
      perform pg_catalog.set_config('hash_mem_multiplier', v_hash_mem, true);
    end if;

    -- 3. A full extract closes the current invoices it does not list
    -- (ingest.close_absent_invoices): superseded by this batch, no version
    -- of it in their place.  They are no record of the file: counted apart
    -- (closed_by_absence, closed_by_currency), outside the equations below.
    if v_source.extract_kind = 'full' then
      v_closed := ingest.close_absent_invoices(p_batch_id, v_batch.source, v_now);
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
             'inserted', coalesce(sum(g.inserted), 0), 'amended', coalesce(sum(g.amended), 0),
             'voided', coalesce(sum(g.voided), 0), 'late', coalesce(sum(g.late), 0),
             'versions_gross', coalesce(sum(g.gross), 0),
             'versions_by_currency', coalesce(jsonb_object_agg(g.currency, g.gross), '{}'))
    from (select cv.currency,
                 count(*) filter (where cv.is_current and cv.status = 'ISSUED'
                                    and cv.supersedes_revision is null) as inserted,
                 count(*) filter (where cv.is_current and cv.status = 'ISSUED'
                                    and cv.supersedes_revision is not null) as amended,
                 count(*) filter (where cv.is_current and cv.status = 'VOID') as voided,
                 count(*) filter (where not cv.is_current) as late,
                 sum(cv.gross_amount) as gross
          from core.invoice_version as cv where cv.batch_id = $1
          group by cv.currency) as g
    $readback$
      into v_counts using p_batch_id;

    -- What the typed rows account for (unchanged and duplicate records, as
    -- history held them before the merge): a RETURN QUERY function, whose
    -- scan of the batch's rows runs in parallel (ingest.merge_accounted).
    select v_counts || a || jsonb_build_object('rejected', v_batch.rejected_count,
                                               'records', v_batch.staged_count)
                    || coalesce(v_closed, '{}'::jsonb)
      into v_counts
    from ingest.merge_accounted(p_batch_id) as a;

    -- The rejected records' readable gross amounts, as validation (or the
    -- conflict check above) recorded them with their rejection rows, in
    -- all and per currency.
    v_rejects := ingest.rejected_gross(p_batch_id);
    v_rejected_gross := (v_rejects ->> 'rejected_gross')::numeric;
    v_counts := v_counts || jsonb_build_object('rejected_gross', v_rejected_gross,
                                               'control_total', v_batch.control_total)
                || jsonb_strip_nulls(jsonb_build_object(
                     'control_totals', v_batch.manifest -> 'control_totals'));
    -- What the commit check (ingest.publication_difference) reads again
    -- from the rows: the equations against the manifest, per currency too.
    v_diff := ingest.reconciliation_difference(
      v_counts || jsonb_build_object(
        'versions', (v_counts ->> 'inserted')::integer + (v_counts ->> 'amended')::integer
                    + (v_counts ->> 'voided')::integer + (v_counts ->> 'late')::integer,
        'outside_by_currency',
        ingest.add_by_currency(v_counts -> 'unversioned_by_currency', v_rejects -> 'by_currency')),
      v_batch);

    -- Second reconciliation: every record is accounted for exactly once,
    -- and the amounts the merge wrote add up to the file.
    if (v_counts ->> 'inserted')::integer + (v_counts ->> 'amended')::integer
          + (v_counts ->> 'voided')::integer + (v_counts ->> 'late')::integer
          + (v_counts ->> 'unchanged')::integer + (v_counts ->> 'duplicates')::integer
          + (v_counts ->> 'rejected')::integer <> v_batch.staged_count
       or (v_counts ->> 'versions_gross')::numeric + (v_counts ->> 'unchanged_gross')::numeric
          + (v_counts ->> 'duplicates_gross')::numeric <> (v_counts ->> 'accepted_gross')::numeric
       or (v_batch.control_total is not null
           and (v_counts ->> 'accepted_gross')::numeric + v_rejected_gross <> v_batch.control_total)
       or cardinality(v_diff) > 0 then
      raise exception 'batch %: the merge does not reconcile with the file: %', p_batch_id,
        coalesce(nullif(array_to_string(v_diff, '; '), ''), v_counts::text)
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
  -- A source that requires approval (source add --require-approval): the
  -- batch waits here, written and unseen, until an operator approves it
  -- (ingest.approve_batch) or rejects it (ingest.reject_batch).
  insert into ingest.pending_publication (source, batch_id, attempt_id, published_at, counts,
                                          awaits_approval)
  values (v_batch.source, p_batch_id, p_attempt_id, v_now, v_counts, v_source.require_approval);

  return query select case when v_source.require_approval then 'awaiting_approval'
                           else 'written' end,
                      v_batch.state, v_counts;
end;
$$;
comment on function ingest.write_batch(bigint, bigint) is
  E'Write and reconcile a validated batch''s versions, unseen by consumers until ingest.publish_batch.\nErrors: IV201 not validated; IV208 no such batch.';
revoke all on function ingest.write_batch(bigint, bigint) from public;
grant execute on function ingest.write_batch(bigint, bigint) to invoice_loader;
