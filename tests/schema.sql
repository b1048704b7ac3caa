--
-- PostgreSQL database dump
--



SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: core; Type: SCHEMA; Schema: -; Owner: invoice_owner
--

CREATE SCHEMA core;


ALTER SCHEMA core OWNER TO invoice_owner;

--
-- Name: ingest; Type: SCHEMA; Schema: -; Owner: invoice_owner
--

CREATE SCHEMA ingest;


ALTER SCHEMA ingest OWNER TO invoice_owner;

--
-- Name: loader_meta; Type: SCHEMA; Schema: -; Owner: invoice_owner
--

CREATE SCHEMA loader_meta;


ALTER SCHEMA loader_meta OWNER TO invoice_owner;

--
-- Name: reporting; Type: SCHEMA; Schema: -; Owner: invoice_owner
--

CREATE SCHEMA reporting;


ALTER SCHEMA reporting OWNER TO invoice_owner;

--
-- Name: staging; Type: SCHEMA; Schema: -; Owner: invoice_owner
--

CREATE SCHEMA staging;


ALTER SCHEMA staging OWNER TO invoice_owner;

--
-- Name: guard_invoice_version(); Type: FUNCTION; Schema: core; Owner: invoice_owner
--

CREATE FUNCTION core.guard_invoice_version() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
begin
  if (new.source, new.invoice_number, new.revision, new.status, new.document_type,
      new.customer_id, new.invoice_date, new.due_date, new.currency, new.net_amount,
      new.tax_amount, new.gross_amount, new.description, new.content_hash, new.batch_id,
      new.record_no, new.supersedes_revision, new.published_at)
     is distinct from
     (old.source, old.invoice_number, old.revision, old.status, old.document_type,
      old.customer_id, old.invoice_date, old.due_date, old.currency, old.net_amount,
      old.tax_amount, old.gross_amount, old.description, old.content_hash, old.batch_id,
      old.record_no, old.supersedes_revision, old.published_at)
     or not (old.is_current and not new.is_current) then
    raise exception 'invoice % revision % of source %: a published version is not updated in place',
                    old.invoice_number, old.revision, old.source
      using errcode = 'IV210',
            detail  = 'Only its supersession (is_current true -> false) may be recorded.',
            hint    = 'Publish a higher revision instead.';
  end if;
  return new;
end;
$$;


ALTER FUNCTION core.guard_invoice_version() OWNER TO invoice_owner;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: source; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.source (
    source text NOT NULL,
    policy text DEFAULT 'all-or-nothing'::text NOT NULL,
    max_rejected_share numeric,
    start_date date,
    feed_url text,
    allow_unknown_columns boolean DEFAULT false NOT NULL,
    require_control_totals boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text DEFAULT SESSION_USER NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_by text DEFAULT SESSION_USER NOT NULL,
    CONSTRAINT source_check CHECK (((policy = 'partial'::text) = (max_rejected_share IS NOT NULL))),
    CONSTRAINT source_max_rejected_share_check CHECK (((max_rejected_share >= (0)::numeric) AND (max_rejected_share <= (1)::numeric))),
    CONSTRAINT source_policy_check CHECK ((policy = ANY (ARRAY['all-or-nothing'::text, 'partial'::text]))),
    CONSTRAINT source_source_check CHECK ((source ~ '^[a-z0-9][a-z0-9._-]{0,63}$'::text))
);


ALTER TABLE ingest.source OWNER TO invoice_owner;

--
-- Name: add_source(text, text, numeric, date, text, boolean); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.add_source(p_source text, p_policy text DEFAULT NULL::text, p_max_rejected_share numeric DEFAULT NULL::numeric, p_start_date date DEFAULT NULL::date, p_feed_url text DEFAULT NULL::text, p_allow_unknown_columns boolean DEFAULT NULL::boolean) RETURNS ingest.source
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $_$
declare
  v_row ingest.source;
begin
  if p_source is null or p_source !~ '^[a-z0-9][a-z0-9._-]{0,63}$' then
    raise exception 'invalid source name %', coalesce(p_source, 'NULL')
      using errcode = 'IV302',
            detail  = 'A source name is 1-64 characters of a-z 0-9 . _ - starting with a letter or digit.';
  end if;
  if p_policy is not null and p_policy not in ('all-or-nothing', 'partial') then
    raise exception 'invalid policy % for source %', p_policy, p_source
      using errcode = 'IV302', detail = 'The policy is all-or-nothing or partial.';
  end if;
  if p_max_rejected_share is not null and (p_max_rejected_share < 0 or p_max_rejected_share > 1) then
    raise exception 'invalid max rejected share % for source %', p_max_rejected_share, p_source
      using errcode = 'IV302', detail = 'The share is a number from 0 to 1.';
  end if;

  if p_max_rejected_share is not null
     and coalesce(p_policy, (select s.policy from ingest.source as s where s.source = p_source),
                  'all-or-nothing') <> 'partial' then
    raise exception 'a max rejected share needs the partial policy (source %)', p_source
      using errcode = 'IV302',
            detail  = 'Under all-or-nothing any rejected record quarantines the batch.',
            hint    = 'Add --policy partial.';
  end if;

  insert into ingest.source as s (source, policy, max_rejected_share, start_date, feed_url,
                                  allow_unknown_columns)
  values (p_source, coalesce(p_policy, 'all-or-nothing'),
          case when coalesce(p_policy, 'all-or-nothing') = 'partial'
               then coalesce(p_max_rejected_share, 0) end,
          p_start_date, p_feed_url, coalesce(p_allow_unknown_columns, false))
  on conflict (source) do update
     set policy = coalesce(p_policy, s.policy),
         max_rejected_share = case when coalesce(p_policy, s.policy) = 'partial'
                                   then coalesce(p_max_rejected_share, s.max_rejected_share, 0) end,
         start_date = coalesce(p_start_date, s.start_date),
         feed_url = coalesce(p_feed_url, s.feed_url),
         allow_unknown_columns = coalesce(p_allow_unknown_columns, s.allow_unknown_columns),
         updated_at = now(),
         updated_by = session_user
  returning * into v_row;
  return v_row;
end;
$_$;


ALTER FUNCTION ingest.add_source(p_source text, p_policy text, p_max_rejected_share numeric, p_start_date date, p_feed_url text, p_allow_unknown_columns boolean) OWNER TO invoice_owner;

--
-- Name: begin_attempt(text, date, text, bigint, text, boolean, text[], jsonb, text, bigint, text, uuid, text, integer, bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.begin_attempt(p_source text, p_business_date date, p_sha256 text, p_size_bytes bigint, p_file_name text, p_had_bom boolean, p_columns text[], p_problems jsonb, p_manifest text, p_expect_count bigint, p_expect_total text, p_run_id uuid, p_host text, p_pid integer, p_file_records bigint) RETURNS TABLE(batch_id bigint, attempt_id bigint, attempt_no integer, state text, created boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  v_source   ingest.source;
  v_batch    ingest.batch;
  v_manifest record;
  v_created  boolean := false;
  v_attempt  ingest.attempt;
  v_problems jsonb;
begin
  v_source := ingest.get_source(p_source);
  if v_source.start_date is not null and p_business_date < v_source.start_date then
    raise exception 'business date % is before the start date % of source %',
                    p_business_date, v_source.start_date, p_source
      using errcode = 'IV303';
  end if;

  if not pg_catalog.pg_try_advisory_lock(pg_catalog.hashtext('invoice-loader:' || p_source),
                                         p_business_date - date '2000-01-01') then
    raise exception 'another run is loading source % for business date %', p_source, p_business_date
      using errcode = 'IV203',
            hint    = 'Try again when it has finished; rerunning is safe.';
  end if;

  select * into v_manifest
  from ingest.parse_manifest(p_manifest, p_expect_count, p_expect_total,
                             v_source.require_control_totals, p_source, p_business_date, p_sha256);

  if p_file_records is null or p_file_records < 0 then
    raise exception 'the record count of the file is required' using errcode = 'IV302';
  end if;
  if p_file_records > 0 then
    insert into ingest.batch as b (source, business_date, sha256, size_bytes, file_records,
                                   file_name, had_bom, columns, manifest, record_count,
                                   control_total)
    values (p_source, p_business_date, p_sha256, p_size_bytes, p_file_records, p_file_name,
            p_had_bom, p_columns, v_manifest.manifest, v_manifest.record_count,
            v_manifest.control_total)
    on conflict (source, sha256) where file_records > 0 do nothing
    returning * into v_batch;
  else
    insert into ingest.batch as b (source, business_date, sha256, size_bytes, file_records,
                                   file_name, had_bom, columns, manifest, record_count,
                                   control_total)
    values (p_source, p_business_date, p_sha256, p_size_bytes, 0, p_file_name,
            p_had_bom, p_columns, v_manifest.manifest, v_manifest.record_count,
            v_manifest.control_total)
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
    if v_batch.state not in ('quarantined', 'published', 'reverted')
       and (p_manifest is not null or p_expect_count is not null)
       and (v_manifest.record_count is distinct from v_batch.record_count
            or v_manifest.control_total is distinct from v_batch.control_total) then
      raise exception 'the control totals given differ from those recorded for batch %', v_batch.batch_id
        using errcode = 'IV102',
              detail  = format('Recorded: %s records, total %s; given: %s records, total %s.',
                               v_batch.record_count, v_batch.control_total,
                               v_manifest.record_count, v_manifest.control_total),
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

  if v_batch.state = 'received' then
    -- A resumed batch keeps the control totals recorded when it was
    -- received; a manifest given again was compared with them above.
    v_problems := coalesce(p_problems, '[]'::jsonb)
                  || case when v_created or p_manifest is not null or p_expect_count is not null
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


ALTER FUNCTION ingest.begin_attempt(p_source text, p_business_date date, p_sha256 text, p_size_bytes bigint, p_file_name text, p_had_bom boolean, p_columns text[], p_problems jsonb, p_manifest text, p_expect_count bigint, p_expect_total text, p_run_id uuid, p_host text, p_pid integer, p_file_records bigint) OWNER TO invoice_owner;

--
-- Name: finish_attempt(bigint, text, text, text, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.finish_attempt(p_attempt_id bigint, p_outcome text, p_error_class text, p_sqlstate text, p_message text) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    AS $$
  update ingest.attempt as a
     set finished_at = clock_timestamp(),
         outcome = case when p_outcome = 'already_published'
                         and exists (select from ingest.batch_event as e
                                     where e.batch_id = a.batch_id and e.to_state = 'published'
                                       and e.attempt_id = a.attempt_id)
                        then 'published' else p_outcome end,
         error_class = p_error_class,
         sqlstate = p_sqlstate, message = left(p_message, 2000),
         state_at_end = (select b.state from ingest.batch as b where b.batch_id = a.batch_id)
   where a.attempt_id = p_attempt_id and a.finished_at is null;
$$;


ALTER FUNCTION ingest.finish_attempt(p_attempt_id bigint, p_outcome text, p_error_class text, p_sqlstate text, p_message text) OWNER TO invoice_owner;

--
-- Name: get_source(text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.get_source(p_source text) RETURNS ingest.source
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  v_source ingest.source;
begin
  select * into v_source from ingest.source as s where s.source = p_source;
  if not found then
    raise exception 'unknown source %', p_source
      using errcode = 'IV301',
            hint    = 'An operator registers sources with: invoice-loader source add NAME.';
  end if;
  return v_source;
end;
$$;


ALTER FUNCTION ingest.get_source(p_source text) OWNER TO invoice_owner;

--
-- Name: is_iso_date(text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.is_iso_date(p text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $_$
  select case
    when p is null then null
    when p !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' then false
    when substr(p, 1, 4)::integer < 1 then false
    when substr(p, 6, 2)::integer not between 1 and 12 then false
    else substr(p, 9, 2)::integer between 1 and
         extract(day from make_date(substr(p, 1, 4)::integer, substr(p, 6, 2)::integer, 1)
                          + interval '1 month - 1 day')::integer
  end
$_$;


ALTER FUNCTION ingest.is_iso_date(p text) OWNER TO invoice_owner;

--
-- Name: mark_staged(bigint, bigint, bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.mark_staged(p_batch_id bigint, p_attempt_id bigint, p_sent bigint) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  v_stored bigint;
begin
  perform 1 from ingest.batch as b where b.batch_id = p_batch_id for update;
  select count(*) into v_stored from staging.invoice_line as l where l.batch_id = p_batch_id;
  if v_stored is distinct from p_sent then
    raise exception 'batch %: the server stored % records, the loader sent %',
                    p_batch_id, v_stored, p_sent
      using errcode = 'IV204',
            detail  = 'The staging transaction is rolled back; nothing is checkpointed.';
  end if;
  update ingest.batch as b set staged_count = v_stored::integer where b.batch_id = p_batch_id;
  perform ingest.transition(p_batch_id, 'received', 'staged', p_attempt_id,
                            jsonb_build_object('records', v_stored));
end;
$$;


ALTER FUNCTION ingest.mark_staged(p_batch_id bigint, p_attempt_id bigint, p_sent bigint) OWNER TO invoice_owner;

--
-- Name: parse_manifest(text, bigint, text, boolean, text, date, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.parse_manifest(p_manifest text, p_expect_count bigint, p_expect_total text, p_required boolean, p_source text, p_business_date date, p_sha256 text) RETURNS TABLE(manifest jsonb, record_count integer, control_total numeric, distinct_keys integer, problems jsonb)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS $_$
declare
  v_json     jsonb;
  v_problems jsonb := '[]';
  v_count    integer;
  v_total    numeric;
  v_keys     integer;
  v_text     text;

begin
  if p_manifest is not null then
    begin
      v_json := p_manifest::jsonb;
    exception when invalid_text_representation or invalid_parameter_value then
      return query select null::jsonb, null::integer, null::numeric, null::integer,
        jsonb_build_array(jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
          'detail', 'the manifest is not valid JSON'));
      return;
    end;
    if jsonb_typeof(v_json) is distinct from 'object' then
      return query select null::jsonb, null::integer, null::numeric, null::integer,
        jsonb_build_array(jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
          'detail', 'the manifest is not a JSON object'));
      return;
    end if;

    v_text := v_json ->> 'record_count';
    if jsonb_typeof(v_json -> 'record_count') = 'number' and v_text ~ '^[0-9]{1,9}$' then
      v_count := v_text::integer;
    else
      v_problems := v_problems || jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
        'detail', format('record_count must be a whole number >= 0, got %s',
                         coalesce(left((v_json -> 'record_count')::text, 40), 'nothing')));
    end if;

    v_text := v_json ->> 'control_total';
    if jsonb_typeof(v_json -> 'control_total') in ('string', 'number')
       and v_text ~ '^-?[0-9]{1,18}(\.[0-9]{1,4})?$' then
      v_total := v_text::numeric;
    else
      v_problems := v_problems || jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
        'detail', format('control_total must be a plain decimal such as "4200.00", got %s',
                         coalesce(left((v_json -> 'control_total')::text, 40), 'nothing')));
    end if;

    if v_json ? 'distinct_keys' then
      v_text := v_json ->> 'distinct_keys';
      if jsonb_typeof(v_json -> 'distinct_keys') = 'number' and v_text ~ '^[0-9]{1,9}$' then
        v_keys := v_text::integer;
      else
        v_problems := v_problems || jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
          'detail', 'distinct_keys must be a whole number >= 0');
      end if;
    end if;

    if v_json ? 'source' and (v_json ->> 'source') is distinct from p_source then
      v_problems := v_problems || jsonb_build_object('rule', 'manifest.source_mismatch', 'record_no', 0,
        'detail', format('the manifest is for source %s, not %s',
                         left(coalesce(v_json ->> 'source', 'null'), 64), p_source));
    end if;
    if v_json ? 'business_date'
       and (v_json ->> 'business_date') is distinct from to_char(p_business_date, 'YYYY-MM-DD') then
      v_problems := v_problems || jsonb_build_object('rule', 'manifest.date_mismatch', 'record_no', 0,
        'detail', format('the manifest is for business date %s, not %s',
                         left(coalesce(v_json ->> 'business_date', 'null'), 32),
                         to_char(p_business_date, 'YYYY-MM-DD')));
    end if;
    if v_json ? 'sha256' and lower(v_json ->> 'sha256') is distinct from p_sha256 then
      v_problems := v_problems || jsonb_build_object('rule', 'manifest.sha256_mismatch', 'record_no', 0,
        'detail', format('the manifest describes a file with SHA-256 %s; this file has %s',
                         left(coalesce(v_json ->> 'sha256', 'null'), 64), p_sha256));
    end if;
    return query select v_json, v_count, v_total, v_keys, v_problems;
    return;
  end if;

  if p_expect_count is not null or p_expect_total is not null then
    if p_expect_count is null or p_expect_count < 0 or p_expect_count > 2147483647
       or p_expect_total is null or p_expect_total !~ '^-?[0-9]{1,18}(\.[0-9]{1,4})?$' then
      return query select null::jsonb, null::integer, null::numeric, null::integer,
        jsonb_build_array(jsonb_build_object('rule', 'manifest.invalid', 'record_no', 0,
          'detail', 'expected count and total must both be given, as a whole number and a plain decimal'));
      return;
    end if;
    return query select jsonb_build_object('record_count', p_expect_count,
                                           'control_total', p_expect_total,
                                           'origin', 'command line'),
                        p_expect_count::integer, p_expect_total::numeric, null::integer,
                        '[]'::jsonb;
    return;
  end if;

  return query select null::jsonb, null::integer, null::numeric, null::integer,
    case when p_required
         then jsonb_build_array(jsonb_build_object('rule', 'manifest.missing', 'record_no', 0,
                'detail', 'no manifest and no --expect-count/--expect-total; the source requires control totals'))
         else '[]'::jsonb end;
end;
$_$;


ALTER FUNCTION ingest.parse_manifest(p_manifest text, p_expect_count bigint, p_expect_total text, p_required boolean, p_source text, p_business_date date, p_sha256 text) OWNER TO invoice_owner;

--
-- Name: publish_batch(bigint, bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.publish_batch(p_batch_id bigint, p_attempt_id bigint) RETURNS TABLE(outcome text, state text, counts jsonb)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $_$
declare
  v_batch       ingest.batch;
  v_source      ingest.source;
  v_mark        ingest.source_watermark;
  v_now         timestamptz := now();
  v_valid       integer;
  v_counts      jsonb;
  v_new_mark    boolean;
  v_rejected_gross numeric;
  v_notification bigint;
  v_message     text;
  v_conflicts   integer;
  v_rejected    integer;
begin
  select * into v_batch from ingest.batch as b where b.batch_id = p_batch_id;
  if not found then
    raise exception 'batch % does not exist', p_batch_id using errcode = 'IV208';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('invoice-loader:publish:' || v_batch.source));
  select * into v_batch from ingest.batch as b where b.batch_id = p_batch_id for update;

  if v_batch.state = 'published' then
    return query select 'already_published'::text, v_batch.state, v_batch.merge_counts;
    return;
  end if;
  if v_batch.state <> 'validated' then
    raise exception 'batch % is %, not validated; it cannot be published', p_batch_id, v_batch.state
      using errcode = 'IV201';
  end if;
  select * into v_source from ingest.source as s where s.source = v_batch.source;

  -- Order: every earlier date must be published first.
  select * into v_mark from ingest.source_watermark as w
   where w.source = v_batch.source for update;
  if v_mark.source is null then
    if v_source.start_date is not null and v_batch.business_date > v_source.start_date then
      return query select 'waiting'::text, v_batch.state,
        jsonb_build_object('waiting_for', v_source.start_date);
      return;
    end if;
    v_new_mark := true;
  elsif v_batch.business_date > v_mark.business_date + 1 then
    return query select 'waiting'::text, v_batch.state,
      jsonb_build_object('waiting_for', v_mark.business_date + 1);
    return;
  else
    v_new_mark := v_batch.business_date = v_mark.business_date + 1;
  end if;

  -- Revisions are immutable: a (key, revision) published since this batch
  -- was validated, with other content, rejects the records carrying it,
  -- as validation would have; then the policy decides again.
  v_conflicts := ingest.reject_revision_conflicts(p_batch_id, v_batch.source);
  if v_conflicts > 0 then
    select count(distinct r.record_no)::integer into v_rejected
    from ingest.rejection_row as r where r.batch_id = p_batch_id and r.record_no > 0;
    update ingest.batch as b
       set rejected_count = v_rejected, accepted_count = b.staged_count - v_rejected
     where b.batch_id = p_batch_id
    returning * into v_batch;
    if v_source.policy = 'all-or-nothing'
       or v_rejected::numeric > v_source.max_rejected_share * v_batch.staged_count then
      delete from staging.invoice_valid as v where v.batch_id = p_batch_id;
      perform ingest.quarantine_batch(p_batch_id, 'validated', p_attempt_id,
        case when v_source.policy = 'partial'
             then jsonb_build_array(jsonb_build_object('rule', 'policy.rejected_share',
                    'record_no', 0,
                    'detail', format('%s of %s records rejected; the source allows a share of %s',
                                     v_rejected, v_batch.staged_count, v_source.max_rejected_share)))
             else '[]'::jsonb end);
      return query select 'quarantined'::text, 'quarantined'::text, null::jsonb;
      return;
    end if;
  end if;

  select count(*) into v_valid from staging.invoice_valid as v where v.batch_id = p_batch_id;
  if v_valid <> v_batch.accepted_count then
    raise exception 'batch %: % accepted records in staging, % were validated',
                    p_batch_id, v_valid, v_batch.accepted_count
      using errcode = 'IV204';
  end if;

  begin
    -- The current version of a key this batch wins gives way.
    update core.invoice_version as cv
       set is_current = false, superseded_by_batch_id = p_batch_id, superseded_at = v_now
      from (select v.invoice_number, max(v.revision) as revision
            from staging.invoice_valid as v
            where v.batch_id = p_batch_id and not v.is_duplicate
            group by v.invoice_number) as w
     where cv.source = v_batch.source and cv.invoice_number = w.invoice_number
       and cv.is_current and cv.revision < w.revision;

    -- New versions: the highest new revision of a key wins unless a higher
    -- one is already current; the rest go to history.
    insert into core.invoice_version (source, invoice_number, revision, status, document_type,
                                      customer_id, invoice_date, due_date, currency, net_amount,
                                      tax_amount, gross_amount, description, content_hash,
                                      batch_id, record_no, is_current, supersedes_revision,
                                      superseded_by_batch_id, superseded_at, published_at)
    select v_batch.source, n.invoice_number, n.revision, n.status, n.document_type,
           n.customer_id, n.invoice_date, n.due_date, n.currency, n.net_amount, n.tax_amount,
           n.gross_amount, n.description, n.content_hash, p_batch_id, n.record_no,
           n.wins, case when n.wins then n.prev_revision end,
           -- not winning: superseded by this batch's winner of the key, or
           -- (a late revision) by the batch of the version current at arrival
           case when n.wins then null
                when n.cur_revision is null then p_batch_id
                else n.cur_batch end,
           case when n.wins then null else v_now end,
           v_now
    from (select v.*, cur.revision as cur_revision, cur.batch_id as cur_batch,
                 prev.revision as prev_revision,
                 max(v.revision) over (partition by v.invoice_number) as key_max,
                 v.revision = max(v.revision) over (partition by v.invoice_number)
                   and cur.revision is null as wins
          from staging.invoice_valid as v
          left join core.invoice_version as cur
            on cur.source = v_batch.source and cur.invoice_number = v.invoice_number
           and cur.is_current
          -- the versions the UPDATE above just superseded, found once by
          -- their batch (an aggregate, not a lookup per record: with stale
          -- statistics a per-record lookup became a scan per record)
          left join (
            select pv.invoice_number, max(pv.revision) as revision
            from core.invoice_version as pv
            where pv.superseded_by_batch_id = p_batch_id and pv.source = v_batch.source
            group by pv.invoice_number) as prev on prev.invoice_number = v.invoice_number
          where v.batch_id = p_batch_id and not v.is_duplicate
            and not exists (select from core.invoice_version as e
                            where e.source = v_batch.source and e.invoice_number = v.invoice_number
                              and e.revision = v.revision)) as n;

    -- What the merge did, from what it wrote.
    select jsonb_build_object(
             'inserted', count(*) filter (where cv.is_current and cv.status = 'ISSUED'
                                            and cv.supersedes_revision is null),
             'amended',  count(*) filter (where cv.is_current and cv.status = 'ISSUED'
                                            and cv.supersedes_revision is not null),
             'voided',   count(*) filter (where cv.is_current and cv.status = 'VOID'),
             'late',     count(*) filter (where not cv.is_current),
             'versions_gross', coalesce(sum(cv.gross_amount), 0))
      into v_counts
    from core.invoice_version as cv where cv.batch_id = p_batch_id;

    select v_counts || jsonb_build_object(
             'unchanged', count(*) filter (
                 where not v.is_duplicate and exists (
                   select from core.invoice_version as e
                    where e.source = v_batch.source and e.invoice_number = v.invoice_number
                      and e.revision = v.revision and e.batch_id <> p_batch_id)),
             'duplicates', count(*) filter (where v.is_duplicate),
             'rejected', v_batch.rejected_count,
             'records', v_batch.staged_count,
             'accepted_gross', coalesce(sum(v.gross_amount), 0),
             'unchanged_gross', coalesce(sum(v.gross_amount) filter (
                 where not v.is_duplicate and exists (
                   select from core.invoice_version as e
                    where e.source = v_batch.source and e.invoice_number = v.invoice_number
                      and e.revision = v.revision and e.batch_id <> p_batch_id)), 0),
             'duplicates_gross', coalesce(sum(v.gross_amount) filter (where v.is_duplicate), 0))
      into v_counts
    from staging.invoice_valid as v where v.batch_id = p_batch_id;

    select sum(case when l.gross_amount ~ '^-?[0-9]{1,18}(\.[0-9]+)?$'
                    then l.gross_amount::numeric end)
      into v_rejected_gross
    from staging.invoice_line as l
    where l.batch_id = p_batch_id
      and exists (select from ingest.rejection_row as r
                  where r.batch_id = p_batch_id and r.record_no = l.record_no);
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
    delete from staging.invoice_valid as v where v.batch_id = p_batch_id;
    perform ingest.quarantine_batch(p_batch_id, 'validated', p_attempt_id,
      jsonb_build_array(jsonb_build_object('rule', 'reconcile.merge', 'record_no', 0,
                                           'detail', v_message)));
    return query select 'quarantined'::text, 'quarantined'::text, null::jsonb;
    return;
  end;

  if v_new_mark then
    insert into ingest.source_watermark as w (source, business_date, batch_id, advanced_at)
    values (v_batch.source, v_batch.business_date, p_batch_id, v_now)
    on conflict (source) do update
       set business_date = excluded.business_date, batch_id = excluded.batch_id,
           advanced_at = excluded.advanced_at
     where w.business_date < excluded.business_date;
  end if;

  insert into ingest.outbox (batch_id, kind, dedupe_key, payload)
  values (p_batch_id, 'batch_published', 'batch_published:' || p_batch_id,
          jsonb_build_object('batch_id', p_batch_id, 'source', v_batch.source,
                             'business_date', v_batch.business_date, 'sha256', v_batch.sha256,
                             'counts', v_counts))
  on conflict (batch_id, kind) do nothing
  returning notification_id into v_notification;
  perform pg_catalog.pg_notify('invoice_loader_outbox', coalesce(v_notification, 0)::text);

  update ingest.batch as b set merge_counts = v_counts, published_at = v_now
   where b.batch_id = p_batch_id;
  perform ingest.transition(p_batch_id, 'validated', 'published', p_attempt_id, v_counts);
  delete from staging.invoice_valid as v where v.batch_id = p_batch_id;

  return query select 'published'::text, 'published'::text, v_counts;
end;
$_$;


ALTER FUNCTION ingest.publish_batch(p_batch_id bigint, p_attempt_id bigint) OWNER TO invoice_owner;

--
-- Name: quarantine_batch(bigint, text, bigint, jsonb); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.quarantine_batch(p_batch_id bigint, p_from text, p_attempt_id bigint, p_reasons jsonb) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  v_batch ingest.batch;
  v_rejected integer;
begin
  insert into ingest.rejection_row (batch_id, record_no, invoice_number, rule, detail)
  select p_batch_id, coalesce((r ->> 'record_no')::integer, 0), r ->> 'invoice_number',
         r ->> 'rule', r ->> 'detail'
  from jsonb_array_elements(coalesce(p_reasons, '[]'::jsonb)) as r
  on conflict do nothing;

  select count(distinct rr.record_no) filter (where rr.record_no > 0)::integer
    into v_rejected
  from ingest.rejection_row as rr where rr.batch_id = p_batch_id;

  perform ingest.transition(p_batch_id, p_from, 'quarantined', p_attempt_id,
                            jsonb_build_object('reasons', p_reasons));
  update ingest.batch as b set rejected_count = v_rejected
   where b.batch_id = p_batch_id
  returning * into v_batch;

  insert into ingest.outbox (batch_id, kind, dedupe_key, payload)
  values (p_batch_id, 'batch_quarantined', 'batch_quarantined:' || p_batch_id,
          jsonb_build_object(
            'batch_id', p_batch_id, 'source', v_batch.source,
            'business_date', v_batch.business_date, 'sha256', v_batch.sha256,
            'rejected_records', v_rejected,
            'reasons', (select coalesce(jsonb_agg(jsonb_build_object(
                                 'record_no', x.record_no, 'rule', x.rule, 'detail', x.detail)
                               order by x.record_no, x.rule), '[]'::jsonb)
                        from (select rr.record_no, rr.rule, rr.detail
                              from ingest.rejection_row as rr
                              where rr.batch_id = p_batch_id
                              order by rr.record_no, rr.rule limit 20) as x)))
  on conflict (batch_id, kind) do nothing;
  perform pg_catalog.pg_notify('invoice_loader_outbox', p_batch_id::text);
end;
$$;


ALTER FUNCTION ingest.quarantine_batch(p_batch_id bigint, p_from text, p_attempt_id bigint, p_reasons jsonb) OWNER TO invoice_owner;

--
-- Name: reject_revision_conflicts(bigint, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.reject_revision_conflicts(p_batch_id bigint, p_source text) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  v_count integer;
begin
  with bad as (
    insert into ingest.rejection_row (batch_id, record_no, invoice_number, rule, detail)
    select p_batch_id, v.record_no, v.invoice_number, 'revision.conflict',
           format('invoice %s revision %s was published by batch %s with different content',
                  v.invoice_number, v.revision, cv.batch_id)
    from staging.invoice_valid as v
    join core.invoice_version as cv
      on cv.source = p_source and cv.invoice_number = v.invoice_number
     and cv.revision = v.revision
    where v.batch_id = p_batch_id and cv.content_hash <> v.content_hash
    on conflict do nothing
    returning record_no)
  delete from staging.invoice_valid as v
   using bad where v.batch_id = p_batch_id and v.record_no = bad.record_no;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;


ALTER FUNCTION ingest.reject_revision_conflicts(p_batch_id bigint, p_source text) OWNER TO invoice_owner;

--
-- Name: resume_attempt(bigint, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.resume_attempt(p_attempt_id bigint, p_xid text DEFAULT NULL::text) RETURNS TABLE(state text, xact_status text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $$
declare
  v_attempt ingest.attempt;
  v_batch   ingest.batch;
begin
  select * into v_attempt from ingest.attempt as a where a.attempt_id = p_attempt_id;
  if not found then
    raise exception 'attempt % does not exist', p_attempt_id using errcode = 'IV208';
  end if;
  select * into v_batch from ingest.batch as b where b.batch_id = v_attempt.batch_id;
  if not pg_catalog.pg_try_advisory_lock(pg_catalog.hashtext('invoice-loader:' || v_batch.source),
                                         v_batch.business_date - date '2000-01-01') then
    raise exception 'another session holds batch % of source % for %',
                    v_batch.batch_id, v_batch.source, v_batch.business_date
      using errcode = 'IV203',
            hint    = 'The previous session of this run may not have ended yet; try again shortly.';
  end if;
  if v_attempt.finished_at is not null then
    perform pg_catalog.pg_advisory_unlock(pg_catalog.hashtext('invoice-loader:' || v_batch.source),
                                          v_batch.business_date - date '2000-01-01');
    raise exception 'attempt % of batch % was closed as % while this run was away',
                    v_attempt.attempt_no, v_batch.batch_id, v_attempt.outcome
      using errcode = 'IV209',
            hint    = 'Another run took the batch over; run status to see its outcome.';
  end if;
  update ingest.attempt as a set backend_pid = pg_catalog.pg_backend_pid()
   where a.attempt_id = p_attempt_id;
  return query
    select v_batch.state,
           case when p_xid is null then null
                else pg_catalog.pg_xact_status(p_xid::xid8) end;
end;
$$;


ALTER FUNCTION ingest.resume_attempt(p_attempt_id bigint, p_xid text) OWNER TO invoice_owner;

--
-- Name: status_report(text, bigint, integer); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.status_report(p_source text DEFAULT NULL::text, p_batch_id bigint DEFAULT NULL::bigint, p_limit integer DEFAULT 50) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS $$
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
              order by r.record_no, r.rule limit 1000) as r), '[]'::jsonb) end)
$$;


ALTER FUNCTION ingest.status_report(p_source text, p_batch_id bigint, p_limit integer) OWNER TO invoice_owner;

--
-- Name: transition(bigint, text, text, bigint, jsonb); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.transition(p_batch_id bigint, p_from text, p_to text, p_attempt_id bigint, p_detail jsonb DEFAULT NULL::jsonb) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $$
declare
  v_state text;
begin
  if p_from is null or p_to is null or (p_from, p_to) not in (('received', 'staged'), ('staged', 'validated'),
                            ('validated', 'published'), ('received', 'quarantined'),
                            ('staged', 'quarantined'), ('validated', 'quarantined'),
                            ('published', 'reverted'), ('quarantined', 'received')) then
    raise exception 'illegal transition of batch % from % to %', p_batch_id, p_from, p_to
      using errcode = 'IV202',
            detail  = 'The batch state machine is received -> staged -> validated -> published, or quarantined.';
  end if;

  update ingest.batch as b
     set state = p_to, updated_at = now()
   where b.batch_id = p_batch_id and b.state = p_from;
  if not found then
    select b.state into v_state from ingest.batch as b where b.batch_id = p_batch_id;
    if not found then
      raise exception 'batch % does not exist', p_batch_id using errcode = 'IV208';
    end if;
    raise exception 'batch % is %, not %; cannot move it to %', p_batch_id, v_state, p_from, p_to
      using errcode = 'IV201',
            detail  = 'Another run moved the batch first, or the step was called out of order.',
            hint    = 'Run status for the batch and load it again; a load resumes from its checkpoint.';
  end if;

  insert into ingest.batch_event (batch_id, attempt_id, from_state, to_state, detail)
  values (p_batch_id, p_attempt_id, p_from, p_to, p_detail);
end;
$$;


ALTER FUNCTION ingest.transition(p_batch_id bigint, p_from text, p_to text, p_attempt_id bigint, p_detail jsonb) OWNER TO invoice_owner;

--
-- Name: validate_batch(bigint, bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.validate_batch(p_batch_id bigint, p_attempt_id bigint) RETURNS TABLE(state text, accepted integer, rejected integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS $_$
declare
  v_batch      ingest.batch;
  v_source     ingest.source;
  v_staged     integer;
  v_rejected   integer;
  v_accepted   integer;
  v_keys       integer;
  v_sum        numeric;
  v_unreadable integer;
  v_reasons    jsonb := '[]';
  v_expect_keys text;
begin
  select * into v_batch from ingest.batch as b where b.batch_id = p_batch_id for update;
  if not found then
    raise exception 'batch % does not exist', p_batch_id using errcode = 'IV208';
  end if;
  if v_batch.state = 'received' then
    raise exception 'batch % is received, not staged; it cannot be validated', p_batch_id
      using errcode = 'IV201', hint = 'Load the file again: the load stages it first.';
  end if;
  if v_batch.state <> 'staged' then
    return query select v_batch.state, v_batch.accepted_count, v_batch.rejected_count;
    return;
  end if;
  select * into v_source from ingest.source as s where s.source = v_batch.source;

  select count(*) into v_staged from staging.invoice_line as l where l.batch_id = p_batch_id;
  if v_staged is distinct from v_batch.staged_count then
    raise exception 'batch %: % staged records found, % were checkpointed',
                    p_batch_id, v_staged, v_batch.staged_count
      using errcode = 'IV204';
  end if;

  -- 1. Field rules, one row per failed rule per record.  Per record one
  --    array of the rules it fails (cheap CASEs); the sentence for a clerk
  --    is formatted only for the failures.
  insert into ingest.rejection_row (batch_id, record_no, invoice_number, rule, detail)
  select p_batch_id, x.record_no, left(x.invoice_number, 64), x.rule,
         case x.rule
           when 'invoice_number.format' then
             format('invoice_number %L is not 1-64 characters of A-Z a-z 0-9 . _ / -',
                    left(x.invoice_number, 80))
           when 'revision.format' then
             format('revision %L is not a whole number >= 0', left(x.revision, 40))
           when 'status.value' then
             format('status %L is not ISSUED or VOID', left(x.status, 40))
           when 'document_type.value' then
             format('document_type %L is not INVOICE or CREDIT_NOTE', left(x.document_type, 40))
           when 'invoice_date.format' then
             format('invoice_date %L is not a real date written YYYY-MM-DD', left(x.invoice_date, 40))
           when 'invoice_date.after_business_date' then
             format('invoice_date %s is after the business date %s', x.invoice_date,
                    to_char(v_batch.business_date, 'YYYY-MM-DD'))
           when 'due_date.format' then
             format('due_date %L is not a real date written YYYY-MM-DD', left(x.due_date, 40))
           when 'due_date.before_invoice_date' then
             format('due_date %s is before invoice_date %s', x.due_date, x.invoice_date)
           when 'currency.unknown' then
             format('currency %L is not an ISO 4217 code known to the database', left(x.currency, 40))
           when 'net_amount.format' then
             format('net_amount %L is not a plain decimal (-?digits[.digits])', left(x.net_amount, 40))
           when 'tax_amount.format' then
             format('tax_amount %L is not a plain decimal (-?digits[.digits])', left(x.tax_amount, 40))
           when 'gross_amount.format' then
             format('gross_amount %L is not a plain decimal (-?digits[.digits])', left(x.gross_amount, 40))
           when 'net_amount.precision' then
             format('net_amount %s has more than %s decimals for %s', x.net_amount, x.minor_unit, x.currency)
           when 'tax_amount.precision' then
             format('tax_amount %s has more than %s decimals for %s', x.tax_amount, x.minor_unit, x.currency)
           when 'gross_amount.precision' then
             format('gross_amount %s has more than %s decimals for %s', x.gross_amount, x.minor_unit, x.currency)
           when 'amounts.sum' then
             format('net_amount %s + tax_amount %s is not gross_amount %s',
                    x.net_amount, x.tax_amount, x.gross_amount)
           when 'gross_amount.sign' then
             format('gross_amount %s has the wrong sign for a %s', x.gross_amount, x.document_type)
           else split_part(x.rule, '.', 1) || ' is empty'  -- the <column>.missing rules
         end
  from (
    select l.*, c.minor_unit, rule
    from staging.invoice_line as l
    left join ingest.currency as c on c.code = l.currency
    cross join lateral (
      select l.invoice_number ~ '^[A-Za-z0-9._/-]{1,64}$' as inv_ok,
             l.revision ~ '^[0-9]{1,9}$' as rev_ok,
             ingest.is_iso_date(l.invoice_date) as idate_ok,
             ingest.is_iso_date(nullif(l.due_date, '')) as ddate_ok,
             l.net_amount ~ '^-?[0-9]{1,18}(\.[0-9]+)?$' as net_ok,
             l.tax_amount ~ '^-?[0-9]{1,18}(\.[0-9]+)?$' as tax_ok,
             l.gross_amount ~ '^-?[0-9]{1,18}(\.[0-9]+)?$' as gross_ok,
             l.document_type in ('INVOICE', 'CREDIT_NOTE') as doc_ok) as f
    cross join lateral (select array_remove(array[
      case when coalesce(l.invoice_number, '') = '' then 'invoice_number.missing'
           when not f.inv_ok then 'invoice_number.format' end,
      case when coalesce(l.revision, '') = '' then 'revision.missing'
           when not f.rev_ok then 'revision.format' end,
      case when coalesce(l.status, '') = '' then 'status.missing'
           when l.status not in ('ISSUED', 'VOID') then 'status.value' end,
      case when coalesce(l.document_type, '') = '' then 'document_type.missing'
           when not f.doc_ok then 'document_type.value' end,
      case when coalesce(l.customer_id, '') = '' then 'customer_id.missing' end,
      case when coalesce(l.invoice_date, '') = '' then 'invoice_date.missing'
           when not f.idate_ok then 'invoice_date.format'
           when l.invoice_date::date > v_batch.business_date
             then 'invoice_date.after_business_date' end,
      case when coalesce(l.due_date, '') = '' then null
           when not f.ddate_ok then 'due_date.format'
           when f.idate_ok and l.due_date::date < l.invoice_date::date
             then 'due_date.before_invoice_date' end,
      case when coalesce(l.currency, '') = '' then 'currency.missing'
           when c.code is null then 'currency.unknown' end,
      case when coalesce(l.net_amount, '') = '' then 'net_amount.missing'
           when not f.net_ok then 'net_amount.format'
           when c.code is not null and length(split_part(l.net_amount, '.', 2)) > c.minor_unit
             then 'net_amount.precision' end,
      case when coalesce(l.tax_amount, '') = '' then 'tax_amount.missing'
           when not f.tax_ok then 'tax_amount.format'
           when c.code is not null and length(split_part(l.tax_amount, '.', 2)) > c.minor_unit
             then 'tax_amount.precision' end,
      case when coalesce(l.gross_amount, '') = '' then 'gross_amount.missing'
           when not f.gross_ok then 'gross_amount.format'
           when c.code is not null and length(split_part(l.gross_amount, '.', 2)) > c.minor_unit
             then 'gross_amount.precision' end,
      case when f.net_ok and f.tax_ok and f.gross_ok
                and l.net_amount::numeric + l.tax_amount::numeric <> l.gross_amount::numeric
             then 'amounts.sum' end,
      case when f.gross_ok and f.doc_ok
                and ((l.document_type = 'INVOICE' and l.gross_amount::numeric < 0)
                     or (l.document_type = 'CREDIT_NOTE' and l.gross_amount::numeric > 0))
             then 'gross_amount.sign' end], null) as rules) as r
    cross join lateral unnest(r.rules) as rule
    where l.batch_id = p_batch_id and cardinality(r.rules) > 0) as x;

  -- 2. Typed copies of the records that passed, amounts at the currency's scale.
  insert into staging.invoice_valid (batch_id, record_no, invoice_number, revision, status,
                                     document_type, customer_id, invoice_date, due_date, currency,
                                     net_amount, tax_amount, gross_amount, description,
                                     content_hash, is_duplicate)
  select p_batch_id, t.record_no, t.invoice_number, t.revision, t.status, t.document_type,
         t.customer_id, t.invoice_date, t.due_date, t.currency, t.net, t.tax, t.gross,
         t.description,
         sha256(convert_to(jsonb_build_array(t.status, t.document_type, t.customer_id,
                                             t.invoice_date, t.due_date, t.currency,
                                             t.net, t.tax, t.gross, t.description)::text,
                           'UTF8')),
         false
  from (select l.record_no, l.invoice_number, l.revision::integer as revision, l.status,
               l.document_type, l.customer_id, l.invoice_date::date as invoice_date,
               nullif(l.due_date, '')::date as due_date, l.currency,
               round(l.net_amount::numeric, c.minor_unit) as net,
               round(l.tax_amount::numeric, c.minor_unit) as tax,
               round(l.gross_amount::numeric, c.minor_unit) as gross,
               nullif(l.description, '') as description
        from staging.invoice_line as l
        join ingest.currency as c on c.code = l.currency
        where l.batch_id = p_batch_id
          and not exists (select from ingest.rejection_row as r
                          where r.batch_id = p_batch_id and r.record_no = l.record_no)) as t;

  -- 3. The same (invoice_number, revision) more than once in the file:
  --    identical records count once, different ones are all rejected.
  with grp as (
    select v.invoice_number, v.revision, count(distinct v.content_hash) as variants,
           min(v.record_no) as first_record,
           array_to_string((array_agg(v.record_no order by v.record_no))[1:10], ', ') as records
    from staging.invoice_valid as v
    where v.batch_id = p_batch_id
    group by v.invoice_number, v.revision
    having count(*) > 1),
  conflicting as (
    insert into ingest.rejection_row (batch_id, record_no, invoice_number, rule, detail)
    select p_batch_id, v.record_no, v.invoice_number, 'duplicate.conflict',
           format('invoice %s revision %s appears with different content in records %s',
                  v.invoice_number, v.revision, g.records)
    from staging.invoice_valid as v
    join grp as g using (invoice_number, revision)
    where v.batch_id = p_batch_id and g.variants > 1
    returning record_no)
  update staging.invoice_valid as v
     set is_duplicate = true
    from grp as g
   where v.batch_id = p_batch_id and v.invoice_number = g.invoice_number
     and v.revision = g.revision and g.variants = 1 and v.record_no <> g.first_record;
  delete from staging.invoice_valid as v
   using ingest.rejection_row as r
   where v.batch_id = p_batch_id and r.batch_id = p_batch_id and r.record_no = v.record_no
     and r.rule = 'duplicate.conflict';

  -- 4. Revisions are immutable: a published (key, revision) with other content.
  perform ingest.reject_revision_conflicts(p_batch_id, v_batch.source);

  -- 5. Reconciliation against the manifest.
  select count(distinct l.invoice_number)::integer,
         sum(case when l.gross_amount ~ '^-?[0-9]{1,18}(\.[0-9]+)?$'
                  then l.gross_amount::numeric end),
         count(*) filter (where l.gross_amount is null
                            or l.gross_amount !~ '^-?[0-9]{1,18}(\.[0-9]+)?$')::integer
    into v_keys, v_sum, v_unreadable
  from staging.invoice_line as l where l.batch_id = p_batch_id;

  if v_batch.record_count is not null and v_batch.record_count <> v_staged then
    v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.record_count', 'record_no', 0,
      'detail', format('the file has %s records; the manifest says %s', v_staged, v_batch.record_count));
  end if;
  if v_batch.control_total is not null then
    if v_unreadable > 0 then
      v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.control_total', 'record_no', 0,
        'detail', format('%s records have no readable gross_amount; the control total %s cannot be proven',
                         v_unreadable, v_batch.control_total));
    elsif coalesce(v_sum, 0) <> v_batch.control_total then
      v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.control_total', 'record_no', 0,
        'detail', format('gross_amount sums to %s; the manifest says %s',
                         coalesce(v_sum, 0), v_batch.control_total));
    end if;
  end if;
  v_expect_keys := v_batch.manifest ->> 'distinct_keys';
  if v_expect_keys is not null and v_expect_keys::integer <> v_keys then
    v_reasons := v_reasons || jsonb_build_object('rule', 'reconcile.distinct_keys', 'record_no', 0,
      'detail', format('the file has %s distinct invoice numbers; the manifest says %s',
                       v_keys, v_expect_keys));
  end if;

  -- 6. The policy decides.
  select count(distinct r.record_no)::integer into v_rejected
  from ingest.rejection_row as r where r.batch_id = p_batch_id and r.record_no > 0;
  v_accepted := v_staged - v_rejected;

  if v_rejected > 0 and v_source.policy = 'partial'
     and v_rejected::numeric > v_source.max_rejected_share * v_staged then
    v_reasons := v_reasons || jsonb_build_object('rule', 'policy.rejected_share', 'record_no', 0,
      'detail', format('%s of %s records rejected; the source allows a share of %s',
                       v_rejected, v_staged, v_source.max_rejected_share));
  end if;

  update ingest.batch as b
     set accepted_count = v_accepted, rejected_count = v_rejected, distinct_keys = v_keys
   where b.batch_id = p_batch_id;

  if jsonb_array_length(v_reasons) > 0
     or (v_rejected > 0 and v_source.policy = 'all-or-nothing') then
    delete from staging.invoice_valid as v where v.batch_id = p_batch_id;
    perform ingest.quarantine_batch(p_batch_id, 'staged', p_attempt_id, v_reasons);
    return query select 'quarantined'::text, v_accepted, v_rejected;
    return;
  end if;

  perform ingest.transition(p_batch_id, 'staged', 'validated', p_attempt_id,
                            jsonb_build_object('accepted', v_accepted, 'rejected', v_rejected));
  return query select 'validated'::text, v_accepted, v_rejected;
end;
$_$;


ALTER FUNCTION ingest.validate_batch(p_batch_id bigint, p_attempt_id bigint) OWNER TO invoice_owner;

--
-- Name: invoice_version; Type: TABLE; Schema: core; Owner: invoice_owner
--

CREATE TABLE core.invoice_version (
    source text NOT NULL,
    invoice_number text NOT NULL,
    revision integer NOT NULL,
    status text NOT NULL,
    document_type text NOT NULL,
    customer_id text NOT NULL,
    invoice_date date NOT NULL,
    due_date date,
    currency text NOT NULL,
    net_amount numeric NOT NULL,
    tax_amount numeric NOT NULL,
    gross_amount numeric NOT NULL,
    description text,
    content_hash bytea NOT NULL,
    batch_id bigint NOT NULL,
    record_no integer NOT NULL,
    is_current boolean NOT NULL,
    supersedes_revision integer,
    superseded_by_batch_id bigint,
    superseded_at timestamp with time zone,
    published_at timestamp with time zone NOT NULL,
    CONSTRAINT invoice_version_check CHECK ((due_date >= invoice_date)),
    CONSTRAINT invoice_version_check1 CHECK (((net_amount + tax_amount) = gross_amount)),
    CONSTRAINT invoice_version_check2 CHECK (((document_type <> 'INVOICE'::text) OR (gross_amount >= (0)::numeric))),
    CONSTRAINT invoice_version_check3 CHECK (((document_type <> 'CREDIT_NOTE'::text) OR (gross_amount <= (0)::numeric))),
    CONSTRAINT invoice_version_check4 CHECK ((is_current = (superseded_by_batch_id IS NULL))),
    CONSTRAINT invoice_version_document_type_check CHECK ((document_type = ANY (ARRAY['INVOICE'::text, 'CREDIT_NOTE'::text]))),
    CONSTRAINT invoice_version_revision_check CHECK ((revision >= 0)),
    CONSTRAINT invoice_version_status_check CHECK ((status = ANY (ARRAY['ISSUED'::text, 'VOID'::text])))
);


ALTER TABLE core.invoice_version OWNER TO invoice_owner;

--
-- Name: attempt; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.attempt (
    attempt_id bigint NOT NULL,
    batch_id bigint NOT NULL,
    attempt_no integer NOT NULL,
    run_id uuid NOT NULL,
    host text NOT NULL,
    pid integer NOT NULL,
    db_user text DEFAULT SESSION_USER NOT NULL,
    backend_pid integer DEFAULT pg_backend_pid() NOT NULL,
    state_at_start text NOT NULL,
    state_at_end text,
    started_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    finished_at timestamp with time zone,
    outcome text,
    error_class text,
    sqlstate text,
    message text,
    CONSTRAINT attempt_attempt_no_check CHECK ((attempt_no >= 1)),
    CONSTRAINT attempt_check CHECK (((finished_at IS NULL) = (outcome IS NULL))),
    CONSTRAINT attempt_outcome_check CHECK ((outcome = ANY (ARRAY['published'::text, 'already_published'::text, 'quarantined'::text, 'waiting'::text, 'failed'::text, 'abandoned'::text])))
);


ALTER TABLE ingest.attempt OWNER TO invoice_owner;

--
-- Name: attempt_attempt_id_seq; Type: SEQUENCE; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ingest.attempt ALTER COLUMN attempt_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME ingest.attempt_attempt_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: attempt_overview; Type: VIEW; Schema: ingest; Owner: invoice_owner
--

CREATE VIEW ingest.attempt_overview AS
 SELECT a.attempt_id,
    a.batch_id,
    a.attempt_no,
    a.run_id,
    a.host,
    a.pid,
    a.db_user,
    a.state_at_start,
    a.state_at_end,
    a.started_at,
    a.finished_at,
    a.outcome,
    a.error_class,
    a.sqlstate,
    a.message
   FROM ingest.attempt a;


ALTER TABLE ingest.attempt_overview OWNER TO invoice_owner;

--
-- Name: batch; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.batch (
    batch_id bigint NOT NULL,
    source text NOT NULL,
    business_date date NOT NULL,
    sha256 text NOT NULL,
    size_bytes bigint NOT NULL,
    file_records integer NOT NULL,
    file_name text NOT NULL,
    had_bom boolean DEFAULT false NOT NULL,
    columns text[] NOT NULL,
    state text DEFAULT 'received'::text NOT NULL,
    manifest jsonb,
    record_count integer,
    control_total numeric,
    staged_count integer,
    accepted_count integer,
    rejected_count integer,
    distinct_keys integer,
    merge_counts jsonb,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    published_at timestamp with time zone,
    CONSTRAINT batch_file_records_check CHECK ((file_records >= 0)),
    CONSTRAINT batch_record_count_check CHECK ((record_count >= 0)),
    CONSTRAINT batch_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT batch_size_bytes_check CHECK ((size_bytes >= 0)),
    CONSTRAINT batch_state_check CHECK ((state = ANY (ARRAY['received'::text, 'staged'::text, 'validated'::text, 'published'::text, 'quarantined'::text, 'reverted'::text])))
);


ALTER TABLE ingest.batch OWNER TO invoice_owner;

--
-- Name: batch_batch_id_seq; Type: SEQUENCE; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ingest.batch ALTER COLUMN batch_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME ingest.batch_batch_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: batch_event; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.batch_event (
    event_id bigint NOT NULL,
    batch_id bigint NOT NULL,
    attempt_id bigint,
    from_state text,
    to_state text NOT NULL,
    at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    db_user text DEFAULT SESSION_USER NOT NULL,
    detail jsonb
);


ALTER TABLE ingest.batch_event OWNER TO invoice_owner;

--
-- Name: batch_event_event_id_seq; Type: SEQUENCE; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ingest.batch_event ALTER COLUMN event_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME ingest.batch_event_event_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: batch_event_overview; Type: VIEW; Schema: ingest; Owner: invoice_owner
--

CREATE VIEW ingest.batch_event_overview AS
 SELECT e.event_id,
    e.batch_id,
    e.attempt_id,
    e.from_state,
    e.to_state,
    e.at,
    e.db_user,
    e.detail
   FROM ingest.batch_event e;


ALTER TABLE ingest.batch_event_overview OWNER TO invoice_owner;

--
-- Name: batch_overview; Type: VIEW; Schema: ingest; Owner: invoice_owner
--

CREATE VIEW ingest.batch_overview AS
 SELECT b.batch_id,
    b.source,
    b.business_date,
    b.sha256,
    b.state,
    b.record_count,
    b.control_total,
    (( SELECT count(*) AS count
           FROM ingest.attempt a
          WHERE (a.batch_id = b.batch_id)))::integer AS attempts,
    ( SELECT COALESCE(a.message, ''::text) AS "coalesce"
           FROM ingest.attempt a
          WHERE ((a.batch_id = b.batch_id) AND (a.outcome = ANY (ARRAY['failed'::text, 'quarantined'::text, 'waiting'::text])))
          ORDER BY a.attempt_no DESC
         LIMIT 1) AS last_error,
    b.created_at,
    b.updated_at,
    b.file_name,
    b.size_bytes,
    b.staged_count,
    b.accepted_count,
    b.rejected_count,
    b.merge_counts,
    b.published_at
   FROM ingest.batch b;


ALTER TABLE ingest.batch_overview OWNER TO invoice_owner;

--
-- Name: currency; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.currency (
    code text NOT NULL,
    minor_unit smallint NOT NULL,
    CONSTRAINT currency_code_check CHECK ((code ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT currency_minor_unit_check CHECK (((minor_unit >= 0) AND (minor_unit <= 4)))
);


ALTER TABLE ingest.currency OWNER TO invoice_owner;

--
-- Name: outbox; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.outbox (
    notification_id bigint NOT NULL,
    batch_id bigint,
    kind text NOT NULL,
    dedupe_key text NOT NULL,
    payload jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    dispatched_at timestamp with time zone,
    state text DEFAULT 'pending'::text NOT NULL,
    CONSTRAINT outbox_kind_check CHECK ((kind = ANY (ARRAY['batch_published'::text, 'batch_quarantined'::text, 'batch_reverted'::text, 'deadline_missed'::text]))),
    CONSTRAINT outbox_state_check CHECK ((state = ANY (ARRAY['pending'::text, 'dispatched'::text, 'in_doubt'::text, 'failed'::text])))
);


ALTER TABLE ingest.outbox OWNER TO invoice_owner;

--
-- Name: notification; Type: VIEW; Schema: ingest; Owner: invoice_owner
--

CREATE VIEW ingest.notification AS
 SELECT o.notification_id,
    o.batch_id,
    o.kind,
    o.dedupe_key,
    o.created_at,
    o.dispatched_at,
    o.state,
    o.payload
   FROM ingest.outbox o;


ALTER TABLE ingest.notification OWNER TO invoice_owner;

--
-- Name: outbox_notification_id_seq; Type: SEQUENCE; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ingest.outbox ALTER COLUMN notification_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME ingest.outbox_notification_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: rejection_row; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.rejection_row (
    batch_id bigint NOT NULL,
    record_no integer NOT NULL,
    invoice_number text,
    rule text NOT NULL,
    detail text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT rejection_row_record_no_check CHECK ((record_no >= 0))
);


ALTER TABLE ingest.rejection_row OWNER TO invoice_owner;

--
-- Name: rejection; Type: VIEW; Schema: ingest; Owner: invoice_owner
--

CREATE VIEW ingest.rejection AS
 SELECT r.batch_id,
    r.record_no,
    r.invoice_number,
    r.rule,
    r.detail
   FROM ingest.rejection_row r;


ALTER TABLE ingest.rejection OWNER TO invoice_owner;

--
-- Name: source_watermark; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.source_watermark (
    source text NOT NULL,
    business_date date NOT NULL,
    batch_id bigint NOT NULL,
    advanced_at timestamp with time zone DEFAULT now() NOT NULL
);


ALTER TABLE ingest.source_watermark OWNER TO invoice_owner;

--
-- Name: watermark; Type: VIEW; Schema: ingest; Owner: invoice_owner
--

CREATE VIEW ingest.watermark AS
 SELECT w.source,
    w.business_date,
    w.batch_id,
    w.advanced_at
   FROM ingest.source_watermark w;


ALTER TABLE ingest.watermark OWNER TO invoice_owner;

--
-- Name: schema_migration; Type: TABLE; Schema: loader_meta; Owner: invoice_owner
--

CREATE TABLE loader_meta.schema_migration (
    version integer NOT NULL,
    name text NOT NULL,
    sha256 text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL,
    applied_by text DEFAULT SESSION_USER NOT NULL
);


ALTER TABLE loader_meta.schema_migration OWNER TO invoice_owner;

--
-- Name: invoice; Type: VIEW; Schema: reporting; Owner: invoice_owner
--

CREATE VIEW reporting.invoice AS
 SELECT v.source,
    v.invoice_number,
    v.revision,
    v.document_type,
    v.customer_id,
    v.invoice_date,
    v.due_date,
    v.currency,
    v.net_amount,
    v.tax_amount,
    v.gross_amount,
    v.description,
    v.batch_id,
    v.published_at
   FROM core.invoice_version v
  WHERE (v.is_current AND (v.status = 'ISSUED'::text));


ALTER TABLE reporting.invoice OWNER TO invoice_owner;

--
-- Name: invoice_version; Type: VIEW; Schema: reporting; Owner: invoice_owner
--

CREATE VIEW reporting.invoice_version AS
 SELECT v.source,
    v.invoice_number,
    v.revision,
    v.status,
    v.document_type,
    v.customer_id,
    v.invoice_date,
    v.due_date,
    v.currency,
    v.net_amount,
    v.tax_amount,
    v.gross_amount,
    v.description,
    v.is_current,
    v.batch_id,
    v.published_at,
    v.superseded_by_batch_id,
    v.superseded_at
   FROM core.invoice_version v;


ALTER TABLE reporting.invoice_version OWNER TO invoice_owner;

--
-- Name: invoice_line; Type: TABLE; Schema: staging; Owner: invoice_owner
--

CREATE TABLE staging.invoice_line (
    batch_id bigint NOT NULL,
    record_no integer NOT NULL,
    invoice_number text,
    revision text,
    status text,
    document_type text,
    customer_id text,
    invoice_date text,
    due_date text,
    currency text,
    net_amount text,
    tax_amount text,
    gross_amount text,
    description text,
    extra_1 text,
    extra_2 text,
    extra_3 text,
    extra_4 text,
    extra_5 text,
    extra_6 text,
    extra_7 text,
    extra_8 text,
    extra_9 text,
    extra_10 text,
    extra_11 text,
    extra_12 text,
    extra_13 text,
    extra_14 text,
    extra_15 text,
    extra_16 text,
    CONSTRAINT invoice_line_record_no_check CHECK ((record_no >= 1))
);


ALTER TABLE staging.invoice_line OWNER TO invoice_owner;

--
-- Name: invoice_valid; Type: TABLE; Schema: staging; Owner: invoice_owner
--

CREATE TABLE staging.invoice_valid (
    batch_id bigint NOT NULL,
    record_no integer NOT NULL,
    invoice_number text NOT NULL,
    revision integer NOT NULL,
    status text NOT NULL,
    document_type text NOT NULL,
    customer_id text NOT NULL,
    invoice_date date NOT NULL,
    due_date date,
    currency text NOT NULL,
    net_amount numeric NOT NULL,
    tax_amount numeric NOT NULL,
    gross_amount numeric NOT NULL,
    description text,
    content_hash bytea NOT NULL,
    is_duplicate boolean NOT NULL
);


ALTER TABLE staging.invoice_valid OWNER TO invoice_owner;

--
-- Name: invoice_version invoice_version_pkey; Type: CONSTRAINT; Schema: core; Owner: invoice_owner
--

ALTER TABLE ONLY core.invoice_version
    ADD CONSTRAINT invoice_version_pkey PRIMARY KEY (source, invoice_number, revision);


--
-- Name: attempt attempt_batch_id_attempt_no_key; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.attempt
    ADD CONSTRAINT attempt_batch_id_attempt_no_key UNIQUE (batch_id, attempt_no);


--
-- Name: attempt attempt_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.attempt
    ADD CONSTRAINT attempt_pkey PRIMARY KEY (attempt_id);


--
-- Name: batch_event batch_event_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.batch_event
    ADD CONSTRAINT batch_event_pkey PRIMARY KEY (event_id);


--
-- Name: batch batch_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.batch
    ADD CONSTRAINT batch_pkey PRIMARY KEY (batch_id);


--
-- Name: currency currency_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.currency
    ADD CONSTRAINT currency_pkey PRIMARY KEY (code);


--
-- Name: outbox outbox_batch_id_kind_key; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.outbox
    ADD CONSTRAINT outbox_batch_id_kind_key UNIQUE (batch_id, kind);


--
-- Name: outbox outbox_dedupe_key_key; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.outbox
    ADD CONSTRAINT outbox_dedupe_key_key UNIQUE (dedupe_key);


--
-- Name: outbox outbox_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.outbox
    ADD CONSTRAINT outbox_pkey PRIMARY KEY (notification_id);


--
-- Name: rejection_row rejection_row_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.rejection_row
    ADD CONSTRAINT rejection_row_pkey PRIMARY KEY (batch_id, record_no, rule);


--
-- Name: source source_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.source
    ADD CONSTRAINT source_pkey PRIMARY KEY (source);


--
-- Name: source_watermark source_watermark_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.source_watermark
    ADD CONSTRAINT source_watermark_pkey PRIMARY KEY (source);


--
-- Name: schema_migration schema_migration_pkey; Type: CONSTRAINT; Schema: loader_meta; Owner: invoice_owner
--

ALTER TABLE ONLY loader_meta.schema_migration
    ADD CONSTRAINT schema_migration_pkey PRIMARY KEY (version);


--
-- Name: invoice_line invoice_line_pkey; Type: CONSTRAINT; Schema: staging; Owner: invoice_owner
--

ALTER TABLE ONLY staging.invoice_line
    ADD CONSTRAINT invoice_line_pkey PRIMARY KEY (batch_id, record_no);


--
-- Name: invoice_valid invoice_valid_pkey; Type: CONSTRAINT; Schema: staging; Owner: invoice_owner
--

ALTER TABLE ONLY staging.invoice_valid
    ADD CONSTRAINT invoice_valid_pkey PRIMARY KEY (batch_id, record_no);


--
-- Name: invoice_version_batch; Type: INDEX; Schema: core; Owner: invoice_owner
--

CREATE INDEX invoice_version_batch ON core.invoice_version USING btree (batch_id);


--
-- Name: invoice_version_one_current; Type: INDEX; Schema: core; Owner: invoice_owner
--

CREATE UNIQUE INDEX invoice_version_one_current ON core.invoice_version USING btree (source, invoice_number) WHERE is_current;


--
-- Name: invoice_version_superseded_by; Type: INDEX; Schema: core; Owner: invoice_owner
--

CREATE INDEX invoice_version_superseded_by ON core.invoice_version USING btree (superseded_by_batch_id) WHERE (superseded_by_batch_id IS NOT NULL);


--
-- Name: batch_event_batch; Type: INDEX; Schema: ingest; Owner: invoice_owner
--

CREATE INDEX batch_event_batch ON ingest.batch_event USING btree (batch_id);


--
-- Name: batch_identity; Type: INDEX; Schema: ingest; Owner: invoice_owner
--

CREATE UNIQUE INDEX batch_identity ON ingest.batch USING btree (source, sha256) WHERE (file_records > 0);


--
-- Name: batch_identity_empty_day; Type: INDEX; Schema: ingest; Owner: invoice_owner
--

CREATE UNIQUE INDEX batch_identity_empty_day ON ingest.batch USING btree (source, sha256, business_date) WHERE (file_records = 0);


--
-- Name: batch_source_date; Type: INDEX; Schema: ingest; Owner: invoice_owner
--

CREATE INDEX batch_source_date ON ingest.batch USING btree (source, business_date);


--
-- Name: invoice_version invoice_version_is_history; Type: TRIGGER; Schema: core; Owner: invoice_owner
--

CREATE TRIGGER invoice_version_is_history BEFORE UPDATE ON core.invoice_version FOR EACH ROW EXECUTE FUNCTION core.guard_invoice_version();


--
-- Name: invoice_version invoice_version_batch_id_fkey; Type: FK CONSTRAINT; Schema: core; Owner: invoice_owner
--

ALTER TABLE ONLY core.invoice_version
    ADD CONSTRAINT invoice_version_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: invoice_version invoice_version_currency_fkey; Type: FK CONSTRAINT; Schema: core; Owner: invoice_owner
--

ALTER TABLE ONLY core.invoice_version
    ADD CONSTRAINT invoice_version_currency_fkey FOREIGN KEY (currency) REFERENCES ingest.currency(code);


--
-- Name: invoice_version invoice_version_source_fkey; Type: FK CONSTRAINT; Schema: core; Owner: invoice_owner
--

ALTER TABLE ONLY core.invoice_version
    ADD CONSTRAINT invoice_version_source_fkey FOREIGN KEY (source) REFERENCES ingest.source(source);


--
-- Name: invoice_version invoice_version_superseded_by_batch_id_fkey; Type: FK CONSTRAINT; Schema: core; Owner: invoice_owner
--

ALTER TABLE ONLY core.invoice_version
    ADD CONSTRAINT invoice_version_superseded_by_batch_id_fkey FOREIGN KEY (superseded_by_batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: attempt attempt_batch_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.attempt
    ADD CONSTRAINT attempt_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: batch_event batch_event_attempt_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.batch_event
    ADD CONSTRAINT batch_event_attempt_id_fkey FOREIGN KEY (attempt_id) REFERENCES ingest.attempt(attempt_id);


--
-- Name: batch_event batch_event_batch_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.batch_event
    ADD CONSTRAINT batch_event_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: batch batch_source_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.batch
    ADD CONSTRAINT batch_source_fkey FOREIGN KEY (source) REFERENCES ingest.source(source);


--
-- Name: outbox outbox_batch_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.outbox
    ADD CONSTRAINT outbox_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: rejection_row rejection_row_batch_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.rejection_row
    ADD CONSTRAINT rejection_row_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: source_watermark source_watermark_batch_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.source_watermark
    ADD CONSTRAINT source_watermark_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: source_watermark source_watermark_source_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.source_watermark
    ADD CONSTRAINT source_watermark_source_fkey FOREIGN KEY (source) REFERENCES ingest.source(source);


--
-- Name: SCHEMA ingest; Type: ACL; Schema: -; Owner: invoice_owner
--

GRANT USAGE ON SCHEMA ingest TO invoice_loader;
GRANT USAGE ON SCHEMA ingest TO invoice_operator;


--
-- Name: SCHEMA public; Type: ACL; Schema: -; Owner: pg_database_owner
--

REVOKE USAGE ON SCHEMA public FROM PUBLIC;


--
-- Name: SCHEMA reporting; Type: ACL; Schema: -; Owner: invoice_owner
--

GRANT USAGE ON SCHEMA reporting TO invoice_reader;
GRANT USAGE ON SCHEMA reporting TO invoice_loader;
GRANT USAGE ON SCHEMA reporting TO invoice_operator;


--
-- Name: SCHEMA staging; Type: ACL; Schema: -; Owner: invoice_owner
--

GRANT USAGE ON SCHEMA staging TO invoice_loader;


--
-- Name: FUNCTION guard_invoice_version(); Type: ACL; Schema: core; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION core.guard_invoice_version() FROM PUBLIC;


--
-- Name: FUNCTION add_source(p_source text, p_policy text, p_max_rejected_share numeric, p_start_date date, p_feed_url text, p_allow_unknown_columns boolean); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.add_source(p_source text, p_policy text, p_max_rejected_share numeric, p_start_date date, p_feed_url text, p_allow_unknown_columns boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.add_source(p_source text, p_policy text, p_max_rejected_share numeric, p_start_date date, p_feed_url text, p_allow_unknown_columns boolean) TO invoice_operator;


--
-- Name: FUNCTION begin_attempt(p_source text, p_business_date date, p_sha256 text, p_size_bytes bigint, p_file_name text, p_had_bom boolean, p_columns text[], p_problems jsonb, p_manifest text, p_expect_count bigint, p_expect_total text, p_run_id uuid, p_host text, p_pid integer, p_file_records bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.begin_attempt(p_source text, p_business_date date, p_sha256 text, p_size_bytes bigint, p_file_name text, p_had_bom boolean, p_columns text[], p_problems jsonb, p_manifest text, p_expect_count bigint, p_expect_total text, p_run_id uuid, p_host text, p_pid integer, p_file_records bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.begin_attempt(p_source text, p_business_date date, p_sha256 text, p_size_bytes bigint, p_file_name text, p_had_bom boolean, p_columns text[], p_problems jsonb, p_manifest text, p_expect_count bigint, p_expect_total text, p_run_id uuid, p_host text, p_pid integer, p_file_records bigint) TO invoice_loader;


--
-- Name: FUNCTION finish_attempt(p_attempt_id bigint, p_outcome text, p_error_class text, p_sqlstate text, p_message text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.finish_attempt(p_attempt_id bigint, p_outcome text, p_error_class text, p_sqlstate text, p_message text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.finish_attempt(p_attempt_id bigint, p_outcome text, p_error_class text, p_sqlstate text, p_message text) TO invoice_loader;


--
-- Name: FUNCTION get_source(p_source text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.get_source(p_source text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.get_source(p_source text) TO invoice_loader;
GRANT ALL ON FUNCTION ingest.get_source(p_source text) TO invoice_operator;


--
-- Name: FUNCTION is_iso_date(p text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.is_iso_date(p text) FROM PUBLIC;


--
-- Name: FUNCTION mark_staged(p_batch_id bigint, p_attempt_id bigint, p_sent bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.mark_staged(p_batch_id bigint, p_attempt_id bigint, p_sent bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.mark_staged(p_batch_id bigint, p_attempt_id bigint, p_sent bigint) TO invoice_loader;


--
-- Name: FUNCTION parse_manifest(p_manifest text, p_expect_count bigint, p_expect_total text, p_required boolean, p_source text, p_business_date date, p_sha256 text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.parse_manifest(p_manifest text, p_expect_count bigint, p_expect_total text, p_required boolean, p_source text, p_business_date date, p_sha256 text) FROM PUBLIC;


--
-- Name: FUNCTION publish_batch(p_batch_id bigint, p_attempt_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.publish_batch(p_batch_id bigint, p_attempt_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.publish_batch(p_batch_id bigint, p_attempt_id bigint) TO invoice_loader;


--
-- Name: FUNCTION quarantine_batch(p_batch_id bigint, p_from text, p_attempt_id bigint, p_reasons jsonb); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.quarantine_batch(p_batch_id bigint, p_from text, p_attempt_id bigint, p_reasons jsonb) FROM PUBLIC;


--
-- Name: FUNCTION reject_revision_conflicts(p_batch_id bigint, p_source text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.reject_revision_conflicts(p_batch_id bigint, p_source text) FROM PUBLIC;


--
-- Name: FUNCTION resume_attempt(p_attempt_id bigint, p_xid text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.resume_attempt(p_attempt_id bigint, p_xid text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.resume_attempt(p_attempt_id bigint, p_xid text) TO invoice_loader;


--
-- Name: FUNCTION status_report(p_source text, p_batch_id bigint, p_limit integer); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.status_report(p_source text, p_batch_id bigint, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.status_report(p_source text, p_batch_id bigint, p_limit integer) TO invoice_loader;
GRANT ALL ON FUNCTION ingest.status_report(p_source text, p_batch_id bigint, p_limit integer) TO invoice_operator;


--
-- Name: FUNCTION transition(p_batch_id bigint, p_from text, p_to text, p_attempt_id bigint, p_detail jsonb); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.transition(p_batch_id bigint, p_from text, p_to text, p_attempt_id bigint, p_detail jsonb) FROM PUBLIC;


--
-- Name: FUNCTION validate_batch(p_batch_id bigint, p_attempt_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.validate_batch(p_batch_id bigint, p_attempt_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.validate_batch(p_batch_id bigint, p_attempt_id bigint) TO invoice_loader;


--
-- Name: TABLE attempt_overview; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.attempt_overview TO invoice_loader;
GRANT SELECT ON TABLE ingest.attempt_overview TO invoice_operator;


--
-- Name: TABLE batch_event_overview; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.batch_event_overview TO invoice_loader;
GRANT SELECT ON TABLE ingest.batch_event_overview TO invoice_operator;


--
-- Name: TABLE batch_overview; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.batch_overview TO invoice_loader;
GRANT SELECT ON TABLE ingest.batch_overview TO invoice_operator;


--
-- Name: TABLE currency; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.currency TO invoice_loader;
GRANT SELECT ON TABLE ingest.currency TO invoice_operator;


--
-- Name: TABLE notification; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.notification TO invoice_loader;
GRANT SELECT ON TABLE ingest.notification TO invoice_operator;


--
-- Name: TABLE rejection; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.rejection TO invoice_loader;
GRANT SELECT ON TABLE ingest.rejection TO invoice_operator;


--
-- Name: TABLE watermark; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.watermark TO invoice_loader;
GRANT SELECT ON TABLE ingest.watermark TO invoice_operator;


--
-- Name: TABLE invoice; Type: ACL; Schema: reporting; Owner: invoice_owner
--

GRANT SELECT ON TABLE reporting.invoice TO invoice_reader;
GRANT SELECT ON TABLE reporting.invoice TO invoice_loader;
GRANT SELECT ON TABLE reporting.invoice TO invoice_operator;


--
-- Name: TABLE invoice_version; Type: ACL; Schema: reporting; Owner: invoice_owner
--

GRANT SELECT ON TABLE reporting.invoice_version TO invoice_reader;
GRANT SELECT ON TABLE reporting.invoice_version TO invoice_loader;
GRANT SELECT ON TABLE reporting.invoice_version TO invoice_operator;


--
-- Name: TABLE invoice_line; Type: ACL; Schema: staging; Owner: invoice_owner
--

GRANT INSERT ON TABLE staging.invoice_line TO invoice_loader;


--
-- Name: DEFAULT PRIVILEGES FOR FUNCTIONS; Type: DEFAULT ACL; Schema: -; Owner: invoice_owner
--

ALTER DEFAULT PRIVILEGES FOR ROLE invoice_owner REVOKE ALL ON FUNCTIONS  FROM PUBLIC;


--
-- PostgreSQL database dump complete
--


