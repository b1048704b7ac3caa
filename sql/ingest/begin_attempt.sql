-- ingest.begin_attempt: the loader's first call for a file.  Registers the
-- batch by (source, sha256) (plus the date for a header-only file, whose
-- bytes say nothing of its day) if these bytes are new (state received, with
-- the manifest's control totals), or finds it if they are not (any name, any
-- run), and opens a new attempt.  Attempts of the batch left unfinished by a
-- process that died are closed as abandoned (safe: we hold the runner lock).
-- A quarantined or reverted batch with an operator's unused replay
-- authorization is sent back to received by this attempt
-- (ingest.consume_replay), taking this load's manifest or --expect-* values
-- as its control totals; without one it is returned as it stands.
-- When the loader found file-level problems ("problems": header or CSV
-- structure), or the control totals are missing or wrong, the batch is
-- quarantined at once and the returned state says so.
-- Argument: one jsonb object (named keys, which cannot be
-- swapped by mistake as positional arguments can) with exactly the keys
--   source text, business_date "YYYY-MM-DD", sha256 text, size_bytes number,
--   file_name text, had_bom bool, columns [text], problems [{rule,
--   record_no, detail}], manifest text|null (the manifest file's text),
--   expect_count number|null, expect_total string|null, run_id uuid text,
--   host text, pid number, file_records number; and optionally
--   format_version number|null (the version of the source's file format
--   the loader read the bytes with; absent or null: the contract's own)
--   and defaults [text] (the columns the format gave a value,
--   column=value).
-- Locks: session advisory lock on (source, business date), held until the
-- loader disconnects: one run per batch at a time.
-- Errors: IV211 the argument lacks a key or has an unknown one; IV301
-- unknown source; IV303 date before the source's start date; IV304 the bytes
-- are registered for another date; IV203 another run holds the batch; IV102
-- a different manifest than the recorded one; IV321 the bytes are
-- registered already and were read with another format version (the
-- loader reads them again with that one: ingest.file_format_of).
create or replace function ingest.begin_attempt(p_args jsonb)
returns table (batch_id bigint, attempt_id bigint, attempt_no integer, state text,
               created boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_keys constant text[] := array['source', 'business_date', 'sha256', 'size_bytes',
    'file_name', 'had_bom', 'columns', 'problems', 'manifest', 'expect_count',
    'expect_total', 'run_id', 'host', 'pid', 'file_records'];
  -- keys a caller without a source file format (psql, the SQL path) leaves out
  v_optional constant text[] := array['format_version', 'defaults'];
  -- the keys of p_args, under the names the positional parameters had
  p_source        text;
  p_business_date date;
  p_sha256        text;
  p_size_bytes    bigint;
  p_file_name     text;
  p_had_bom       boolean;
  p_columns       text[];
  p_problems      jsonb;
  p_manifest      text;
  p_expect_count  bigint;
  p_expect_total  text;
  p_run_id        uuid;
  p_host          text;
  p_pid           integer;
  p_file_records  bigint;
  p_format_version integer;
  p_defaults      text[];
  v_source   ingest.source;
  v_batch    ingest.batch;
  v_manifest record;
  v_created  boolean := false;
  v_replayed boolean := false;
  v_attempt  ingest.attempt;
  v_problems jsonb;
  v_key      record;
  v_bad      text;
begin
  if jsonb_typeof(p_args) is distinct from 'object' then
    raise exception 'ingest.begin_attempt takes one jsonb object'
      using errcode = 'IV211';
  end if;
  select string_agg(k, ', ' order by k) into v_bad
  from (select k from jsonb_object_keys(p_args) as k
        where k <> all (v_keys) and k <> all (v_optional)
        union all
        select k || ' (missing)' from unnest(v_keys) as k where not p_args ? k) as x;
  if v_bad is not null then
    raise exception 'ingest.begin_attempt: unexpected or missing keys: %', v_bad
      using errcode = 'IV211',
            hint    = 'The loader and the database disagree on the call: migrate with this loader''s version.';
  end if;
  -- (a JSON null reads as SQL NULL: ->> gives NULL for it)
  p_source        := p_args ->> 'source';
  p_business_date := (p_args ->> 'business_date')::date;
  p_sha256        := p_args ->> 'sha256';
  p_size_bytes    := (p_args ->> 'size_bytes')::bigint;
  p_file_name     := p_args ->> 'file_name';
  p_had_bom       := (p_args ->> 'had_bom')::boolean;
  p_columns       := array(select jsonb_array_elements_text(p_args -> 'columns'));
  p_problems      := case when jsonb_typeof(p_args -> 'problems') = 'array'
                          then p_args -> 'problems' end;
  p_manifest      := p_args ->> 'manifest';
  p_expect_count  := (p_args ->> 'expect_count')::bigint;
  p_expect_total  := p_args ->> 'expect_total';
  p_run_id        := (p_args ->> 'run_id')::uuid;
  p_host          := p_args ->> 'host';
  p_pid           := (p_args ->> 'pid')::integer;
  p_file_records  := (p_args ->> 'file_records')::bigint;
  p_format_version := (p_args ->> 'format_version')::integer;
  p_defaults      := case when jsonb_typeof(p_args -> 'defaults') = 'array'
                               and jsonb_array_length(p_args -> 'defaults') > 0
                          then array(select jsonb_array_elements_text(p_args -> 'defaults')) end;

  v_source := ingest.get_source(p_source);
  if v_source.start_date is not null and p_business_date < v_source.start_date then
    raise exception 'business date % is before the start date % of source %',
                    p_business_date, v_source.start_date, p_source
      using errcode = 'IV303';
  end if;

  select * into v_key from ingest.runner_lock_key(p_source, p_business_date);
  if not pg_catalog.pg_try_advisory_lock(v_key.key1, v_key.key2) then
    raise exception 'another run is loading source % for business date %', p_source, p_business_date
      using errcode = 'IV203',
            hint    = 'Try again when it has finished; rerunning is safe.';
  end if;

  select * into v_manifest
  from ingest.parse_manifest(p_manifest, p_expect_count, p_expect_total,
                             v_source.require_control_totals, p_source, p_business_date, p_sha256);

  if p_file_records is null or p_file_records < 0 then
    raise exception 'the record count of the file is required' using errcode = 'IV220';
  end if;
  if p_file_records > 0 then
    insert into ingest.batch as b (source, business_date, sha256, size_bytes, file_records,
                                   file_name, had_bom, columns, manifest, record_count,
                                   control_total, format_version, defaults)
    values (p_source, p_business_date, p_sha256, p_size_bytes, p_file_records, p_file_name,
            p_had_bom, p_columns, v_manifest.manifest, v_manifest.record_count,
            v_manifest.control_total, p_format_version, p_defaults)
    on conflict (source, sha256) where file_records > 0 do nothing
    returning * into v_batch;
  else
    insert into ingest.batch as b (source, business_date, sha256, size_bytes, file_records,
                                   file_name, had_bom, columns, manifest, record_count,
                                   control_total, format_version, defaults)
    values (p_source, p_business_date, p_sha256, p_size_bytes, 0, p_file_name,
            p_had_bom, p_columns, v_manifest.manifest, v_manifest.record_count,
            v_manifest.control_total, p_format_version, p_defaults)
    on conflict (source, sha256, business_date) where file_records = 0 do nothing
    returning * into v_batch;
  end if;
  v_created := found;
  if v_created then
    insert into ingest.batch_event (batch_id, from_state, to_state, detail)
    values (v_batch.batch_id, null, 'received',
            jsonb_build_object('file_name', p_file_name, 'size_bytes', p_size_bytes,
                               'had_bom', p_had_bom));
  else
    select * into v_batch from ingest.batch as b
     where b.source = p_source and b.sha256 = p_sha256
       and (b.file_records > 0 or b.business_date = p_business_date)
     order by b.file_records desc
     limit 1
    for update;
    if v_batch.business_date <> p_business_date then
      raise exception 'this file is already batch % of source % for business date %, not %',
                      v_batch.batch_id, p_source, v_batch.business_date, p_business_date
        using errcode = 'IV304',
              detail  = 'The same bytes are one batch forever, under any name.';
    end if;
    -- The same bytes are read the same way: with the format version their
    -- batch recorded, whatever the source's format is now.
    if v_batch.format_version is distinct from p_format_version then
      raise exception 'batch % of source % was read with file format version %, not %',
                      v_batch.batch_id, p_source,
                      coalesce(v_batch.format_version::text, 'none (the contract''s)'),
                      coalesce(p_format_version::text, 'none (the contract''s)')
        using errcode = 'IV321',
              hint    = 'The loader reads registered bytes with their batch''s format (ingest.file_format_of).';
    end if;
    -- (a quarantined or reverted batch takes this load's totals if a replay
    -- authorization is consumed below, and is not loaded otherwise)
    if v_batch.state not in ('quarantined', 'published', 'reverted')
       and (p_manifest is not null or p_expect_count is not null)
       and (v_manifest.record_count is distinct from v_batch.record_count
            or v_manifest.control_total is distinct from v_batch.control_total
            -- totals per currency: as given, code by code
            or (v_manifest.manifest -> 'control_totals')
               is distinct from (v_batch.manifest -> 'control_totals')) then
      raise exception 'the control totals given differ from those recorded for batch %', v_batch.batch_id
        using errcode = 'IV102',
              detail  = format('Recorded: %s records, total %s; given: %s records, total %s.',
                               v_batch.record_count,
                               coalesce(v_batch.control_total::text,
                                        (v_batch.manifest -> 'control_totals')::text),
                               v_manifest.record_count,
                               coalesce(v_manifest.control_total::text,
                                        (v_manifest.manifest -> 'control_totals')::text)),
              hint    = 'Load with the manifest first delivered, or have an operator quarantine and replay the batch.';
    end if;
  end if;

  update ingest.attempt as a
     set finished_at = clock_timestamp(), outcome = 'abandoned', error_class = 'abandoned',
         state_at_end = v_batch.state,
         message = 'the run ended without finishing this attempt (process killed or host lost)'
   where a.batch_id = v_batch.batch_id and a.finished_at is null;

  insert into ingest.attempt as a (batch_id, attempt_no, run_id, host, pid, state_at_start)
  values (v_batch.batch_id,
          (select coalesce(max(x.attempt_no), 0) + 1 from ingest.attempt as x
            where x.batch_id = v_batch.batch_id),
          p_run_id, p_host, p_pid, v_batch.state)
  returning * into v_attempt;

  if v_batch.state in ('quarantined', 'reverted') then
    v_replayed := ingest.consume_replay(v_batch.batch_id, v_attempt.attempt_id,
                                        v_manifest.manifest, v_manifest.record_count,
                                        v_manifest.control_total);
    if v_replayed then
      v_batch.state := 'received';
    end if;
  end if;

  if v_batch.state = 'received' then
    -- A resumed batch keeps the control totals recorded when it was
    -- received; a manifest given again was compared with them above.  A
    -- replayed batch took this load's.
    -- A manifest the loader could not read (manifest.invalid among its
    -- problems) reaches us as no manifest: that is not manifest.missing too.
    v_problems := coalesce(p_problems, '[]'::jsonb)
                  || case when (v_created or v_replayed or p_manifest is not null
                                or p_expect_count is not null)
                               and not coalesce(p_problems, '[]'::jsonb)
                                       @> '[{"rule": "manifest.invalid"}]'
                          then coalesce(v_manifest.problems, '[]'::jsonb)
                          else '[]'::jsonb end;
    if jsonb_array_length(v_problems) > 0 then
      perform ingest.quarantine_batch(v_batch.batch_id, 'received', v_attempt.attempt_id, v_problems);
      v_batch.state := 'quarantined';
    end if;
  end if;

  return query select v_batch.batch_id, v_attempt.attempt_id, v_attempt.attempt_no,
                      v_batch.state, v_created;
end;
$$;
comment on function ingest.begin_attempt(jsonb) is
  E'Register or find the batch of a file and open an attempt (consuming an operator''s replay authorization for a quarantined or reverted batch).\nErrors: IV211 malformed argument; IV301 unknown source; IV303 date before start; IV304 bytes registered for another date; IV203 another run holds the batch; IV102 control totals differ from the recorded ones.';
revoke all on function ingest.begin_attempt(jsonb) from public;
grant execute on function ingest.begin_attempt(jsonb) to invoice_loader;
