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
-- Name: check_invoice_version_refs(); Type: FUNCTION; Schema: core; Owner: invoice_owner
--

CREATE FUNCTION core.check_invoice_version_refs() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION core.check_invoice_version_refs() OWNER TO invoice_owner;

--
-- Name: guard_invoice_version(); Type: FUNCTION; Schema: core; Owner: invoice_owner
--

CREATE FUNCTION core.guard_invoice_version() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION core.guard_invoice_version() OWNER TO invoice_owner;

--
-- Name: keep_referenced_rows(); Type: FUNCTION; Schema: core; Owner: invoice_owner
--

CREATE FUNCTION core.keep_referenced_rows() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION core.keep_referenced_rows() OWNER TO invoice_owner;

--
-- Name: abandon_batch(bigint, bigint, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.abandon_batch(p_batch_id bigint, p_attempt_id bigint, p_reason text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.abandon_batch(p_batch_id bigint, p_attempt_id bigint, p_reason text) OWNER TO invoice_owner;

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
    deadline time without time zone,
    retention_days integer DEFAULT 30 NOT NULL,
    max_input_bytes bigint,
    max_decompressed_bytes bigint,
    locked_through date,
    format_version integer,
    extract_kind text DEFAULT 'delta'::text NOT NULL,
    max_absent_share numeric DEFAULT 0.10 NOT NULL,
    require_approval boolean DEFAULT false NOT NULL,
    CONSTRAINT source_check CHECK (((policy = 'partial'::text) = (max_rejected_share IS NOT NULL))),
    CONSTRAINT source_extract_kind_check CHECK ((extract_kind = ANY (ARRAY['delta'::text, 'full'::text]))),
    CONSTRAINT source_max_absent_share_check CHECK (((max_absent_share >= (0)::numeric) AND (max_absent_share <= (1)::numeric))),
    CONSTRAINT source_max_decompressed_bytes_check CHECK (((max_decompressed_bytes >= 1) AND (max_decompressed_bytes <= '1125899906842624'::bigint))),
    CONSTRAINT source_max_input_bytes_check CHECK (((max_input_bytes >= 1) AND (max_input_bytes <= '1125899906842624'::bigint))),
    CONSTRAINT source_max_rejected_share_check CHECK (((max_rejected_share >= (0)::numeric) AND (max_rejected_share <= (1)::numeric))),
    CONSTRAINT source_policy_check CHECK ((policy = ANY (ARRAY['all-or-nothing'::text, 'partial'::text]))),
    CONSTRAINT source_retention_days_check CHECK ((retention_days > 0)),
    CONSTRAINT source_source_check CHECK ((source ~ '^[a-z0-9][a-z0-9._-]{0,63}$'::text))
);


ALTER TABLE ingest.source OWNER TO invoice_owner;

--
-- Name: absence_problem(bigint, ingest.source, integer, integer); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.absence_problem(p_batch_id bigint, p_source ingest.source, p_absent integer, p_current integer) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.absence_problem(p_batch_id bigint, p_source ingest.source, p_absent integer, p_current integer) OWNER TO invoice_owner;

--
-- Name: absent_invoices(bigint, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.absent_invoices(p_batch_id bigint, p_source text) RETURNS TABLE(invoice_number text, revision integer, invoice_date date, currency text, gross_amount numeric)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.absent_invoices(p_batch_id bigint, p_source text) OWNER TO invoice_owner;

--
-- Name: add_by_currency(jsonb, jsonb); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.add_by_currency(p_a jsonb, p_b jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.add_by_currency(p_a jsonb, p_b jsonb) OWNER TO invoice_owner;

--
-- Name: add_source(text, text, numeric, date, text, boolean, time without time zone, integer, bigint, bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.add_source(p_source text, p_policy text DEFAULT NULL::text, p_max_rejected_share numeric DEFAULT NULL::numeric, p_start_date date DEFAULT NULL::date, p_feed_url text DEFAULT NULL::text, p_allow_unknown_columns boolean DEFAULT NULL::boolean, p_deadline time without time zone DEFAULT NULL::time without time zone, p_retention_days integer DEFAULT NULL::integer, p_max_input_bytes bigint DEFAULT NULL::bigint, p_max_decompressed_bytes bigint DEFAULT NULL::bigint) RETURNS ingest.source
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.add_source(p_source text, p_policy text, p_max_rejected_share numeric, p_start_date date, p_feed_url text, p_allow_unknown_columns boolean, p_deadline time without time zone, p_retention_days integer, p_max_input_bytes bigint, p_max_decompressed_bytes bigint) OWNER TO invoice_owner;

--
-- Name: analyze_staging(text, bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.analyze_staging(p_step text, p_batch_id bigint) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET default_statistics_target TO '10'
    AS <body in sql/>
;


ALTER FUNCTION ingest.analyze_staging(p_step text, p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: approve_batch(bigint, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.approve_batch(p_batch_id bigint, p_reason text) RETURNS TABLE(action_id bigint, batch_id bigint, state text, watermark date, counts jsonb)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.approve_batch(p_batch_id bigint, p_reason text) OWNER TO invoice_owner;

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
    CONSTRAINT attempt_outcome_check CHECK ((outcome = ANY (ARRAY['published'::text, 'already_published'::text, 'quarantined'::text, 'waiting'::text, 'failed'::text, 'abandoned'::text, 'interrupted'::text, 'busy'::text])))
);


ALTER TABLE ingest.attempt OWNER TO invoice_owner;

--
-- Name: attempt_that_left(bigint, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.attempt_that_left(p_batch_id bigint, p_to_state text) RETURNS ingest.attempt
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.attempt_that_left(p_batch_id bigint, p_to_state text) OWNER TO invoice_owner;

--
-- Name: begin_attempt(jsonb); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.begin_attempt(p_args jsonb) RETURNS TABLE(batch_id bigint, attempt_id bigint, attempt_no integer, state text, created boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.begin_attempt(p_args jsonb) OWNER TO invoice_owner;

--
-- Name: check_publication(); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.check_publication() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.check_publication() OWNER TO invoice_owner;

--
-- Name: check_staging_scope(); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.check_staging_scope() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.check_staging_scope() OWNER TO invoice_owner;

--
-- Name: check_typed_staging_scope(); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.check_typed_staging_scope() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.check_typed_staging_scope() OWNER TO invoice_owner;

--
-- Name: claim_notifications(integer, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.claim_notifications(p_limit integer, p_claimer text) RETURNS TABLE(notification_id bigint, kind text, dedupe_key text, tries integer, payload jsonb)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.claim_notifications(p_limit integer, p_claimer text) OWNER TO invoice_owner;

--
-- Name: clear_typed_staging(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.clear_typed_staging(p_batch_id bigint) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.clear_typed_staging(p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: close_absent_invoices(bigint, text, timestamp with time zone); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.close_absent_invoices(p_batch_id bigint, p_source text, p_now timestamp with time zone) RETURNS jsonb
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.close_absent_invoices(p_batch_id bigint, p_source text, p_now timestamp with time zone) OWNER TO invoice_owner;

--
-- Name: confirm_action(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.confirm_action(p_action_id bigint) RETURNS TABLE(action_id bigint, requested_action text, requested_by text, confirmed_by text, result jsonb)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.confirm_action(p_action_id bigint) OWNER TO invoice_owner;

--
-- Name: consume_replay(bigint, bigint, jsonb, integer, numeric); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.consume_replay(p_batch_id bigint, p_attempt_id bigint, p_manifest jsonb, p_record_count integer, p_control_total numeric) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.consume_replay(p_batch_id bigint, p_attempt_id bigint, p_manifest jsonb, p_record_count integer, p_control_total numeric) OWNER TO invoice_owner;

--
-- Name: content_hash(text, text, text, date, date, text, numeric, numeric, numeric, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.content_hash(p_status text, p_document_type text, p_customer_id text, p_invoice_date date, p_due_date date, p_currency text, p_net_amount numeric, p_tax_amount numeric, p_gross_amount numeric, p_description text) RETURNS bytea
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.content_hash(p_status text, p_document_type text, p_customer_id text, p_invoice_date date, p_due_date date, p_currency text, p_net_amount numeric, p_tax_amount numeric, p_gross_amount numeric, p_description text) OWNER TO invoice_owner;

--
-- Name: drop_rejected_records(bigint, integer[]); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.drop_rejected_records(p_batch_id bigint, p_record_nos integer[]) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.drop_rejected_records(p_batch_id bigint, p_record_nos integer[]) OWNER TO invoice_owner;

--
-- Name: drop_typed_staging(regclass); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.drop_typed_staging(p_partition regclass) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.drop_typed_staging(p_partition regclass) OWNER TO invoice_owner;

--
-- Name: failing_records(bigint, date); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.failing_records(p_batch_id bigint, p_business_date date) RETURNS TABLE(record_no integer, rules text[])
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.failing_records(p_batch_id bigint, p_business_date date) OWNER TO invoice_owner;

--
-- Name: file_format_of(text, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.file_format_of(p_source text, p_sha256 text DEFAULT NULL::text) RETURNS TABLE(format_version integer, format jsonb, batch_id bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.file_format_of(p_source text, p_sha256 text) OWNER TO invoice_owner;

--
-- Name: finish_attempt(bigint, text, text, text, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.finish_attempt(p_attempt_id bigint, p_outcome text, p_error_class text, p_sqlstate text, p_message text) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.finish_attempt(p_attempt_id bigint, p_outcome text, p_error_class text, p_sqlstate text, p_message text) OWNER TO invoice_owner;

--
-- Name: get_source(text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.get_source(p_source text) RETURNS ingest.source
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.get_source(p_source text) OWNER TO invoice_owner;

--
-- Name: guard_operator_action(); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.guard_operator_action() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.guard_operator_action() OWNER TO invoice_owner;

--
-- Name: history_instant_at_commit(); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.history_instant_at_commit() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.history_instant_at_commit() OWNER TO invoice_owner;

--
-- Name: history_stamp(text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.history_stamp(p_source text) RETURNS bigint
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.history_stamp(p_source text) OWNER TO invoice_owner;

--
-- Name: holds_runner_lock(text, date); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.holds_runner_lock(p_source text, p_business_date date) RETURNS boolean
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.holds_runner_lock(p_source text, p_business_date date) OWNER TO invoice_owner;

--
-- Name: is_iso_date(text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.is_iso_date(p text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS <body in sql/>
;


ALTER FUNCTION ingest.is_iso_date(p text) OWNER TO invoice_owner;

--
-- Name: is_plain_decimal(text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.is_plain_decimal(p text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS <body in sql/>
;


ALTER FUNCTION ingest.is_plain_decimal(p text) OWNER TO invoice_owner;

--
-- Name: key_history(bigint, text, text, text, boolean); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.key_history(p_batch_id bigint, p_source text, p_min text, p_max text, p_distinct boolean) RETURNS TABLE(invoice_number text, revision integer, is_current boolean, content_hash bytea, version_batch_id bigint, batch_record_no integer, batch_revision integer, batch_content_hash bytea, batch_gross_amount numeric)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.key_history(p_batch_id bigint, p_source text, p_min text, p_max text, p_distinct boolean) OWNER TO invoice_owner;

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
    replays integer DEFAULT 0 NOT NULL,
    history_stamp bigint,
    format_version integer,
    defaults text[],
    CONSTRAINT batch_file_records_check CHECK ((file_records >= 0)),
    CONSTRAINT batch_record_count_check CHECK ((record_count >= 0)),
    CONSTRAINT batch_replays_check CHECK ((replays >= 0)),
    CONSTRAINT batch_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT batch_size_bytes_check CHECK ((size_bytes >= 0)),
    CONSTRAINT batch_state_check CHECK ((state = ANY (ARRAY['received'::text, 'staged'::text, 'validated'::text, 'published'::text, 'quarantined'::text, 'reverted'::text])))
);


ALTER TABLE ingest.batch OWNER TO invoice_owner;

--
-- Name: lock_batch_for_publication(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.lock_batch_for_publication(p_batch_id bigint) RETURNS ingest.batch
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.lock_batch_for_publication(p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: mark_notification(bigint, text, integer, text, text, text, interval); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.mark_notification(p_notification_id bigint, p_outcome text, p_status integer DEFAULT NULL::integer, p_detail text DEFAULT NULL::text, p_sink text DEFAULT NULL::text, p_response text DEFAULT NULL::text, p_retry_after interval DEFAULT NULL::interval) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.mark_notification(p_notification_id bigint, p_outcome text, p_status integer, p_detail text, p_sink text, p_response text, p_retry_after interval) OWNER TO invoice_owner;

--
-- Name: mark_staged(bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.mark_staged(p_batch_id bigint, p_attempt_id bigint, p_sent bigint, p_copied bigint DEFAULT NULL::bigint) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.mark_staged(p_batch_id bigint, p_attempt_id bigint, p_sent bigint, p_copied bigint) OWNER TO invoice_owner;

--
-- Name: merge_accounted(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.merge_accounted(p_batch_id bigint) RETURNS SETOF jsonb
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.merge_accounted(p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: merge_insert(bigint, text, timestamp with time zone); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.merge_insert(p_batch_id bigint, p_source text, p_now timestamp with time zone) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO ''
    SET plan_cache_mode TO 'force_custom_plan'
    AS <body in sql/>
;


ALTER FUNCTION ingest.merge_insert(p_batch_id bigint, p_source text, p_now timestamp with time zone) OWNER TO invoice_owner;

--
-- Name: merge_insert_new_keys(bigint, text, timestamp with time zone); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.merge_insert_new_keys(p_batch_id bigint, p_source text, p_now timestamp with time zone) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO ''
    SET plan_cache_mode TO 'force_custom_plan'
    AS <body in sql/>
;


ALTER FUNCTION ingest.merge_insert_new_keys(p_batch_id bigint, p_source text, p_now timestamp with time zone) OWNER TO invoice_owner;

--
-- Name: merge_insert_new_keys_one_per_key(bigint, text, timestamp with time zone); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.merge_insert_new_keys_one_per_key(p_batch_id bigint, p_source text, p_now timestamp with time zone) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO ''
    SET plan_cache_mode TO 'force_custom_plan'
    AS <body in sql/>
;


ALTER FUNCTION ingest.merge_insert_new_keys_one_per_key(p_batch_id bigint, p_source text, p_now timestamp with time zone) OWNER TO invoice_owner;

--
-- Name: merge_insert_one_per_key(bigint, text, timestamp with time zone); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.merge_insert_one_per_key(p_batch_id bigint, p_source text, p_now timestamp with time zone) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO ''
    SET plan_cache_mode TO 'force_custom_plan'
    AS <body in sql/>
;


ALTER FUNCTION ingest.merge_insert_one_per_key(p_batch_id bigint, p_source text, p_now timestamp with time zone) OWNER TO invoice_owner;

--
-- Name: merge_supersede(bigint, text, timestamp with time zone); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.merge_supersede(p_batch_id bigint, p_source text, p_now timestamp with time zone) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO ''
    SET enable_seqscan TO 'off'
    SET plan_cache_mode TO 'force_custom_plan'
    AS <body in sql/>
;


ALTER FUNCTION ingest.merge_supersede(p_batch_id bigint, p_source text, p_now timestamp with time zone) OWNER TO invoice_owner;

--
-- Name: merge_supersede_one_per_key(bigint, text, timestamp with time zone); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.merge_supersede_one_per_key(p_batch_id bigint, p_source text, p_now timestamp with time zone) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO ''
    SET enable_seqscan TO 'off'
    SET plan_cache_mode TO 'force_custom_plan'
    AS <body in sql/>
;


ALTER FUNCTION ingest.merge_supersede_one_per_key(p_batch_id bigint, p_source text, p_now timestamp with time zone) OWNER TO invoice_owner;

--
-- Name: notification_body(bigint, text, jsonb); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.notification_body(p_batch_id bigint, p_kind text, p_payload jsonb) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.notification_body(p_batch_id bigint, p_kind text, p_payload jsonb) OWNER TO invoice_owner;

--
-- Name: notification_lock_key(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.notification_lock_key(p_notification_id bigint, OUT key1 integer, OUT key2 integer) RETURNS record
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.notification_lock_key(p_notification_id bigint, OUT key1 integer, OUT key2 integer) OWNER TO invoice_owner;

--
-- Name: number_outbox_round(); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.number_outbox_round() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.number_outbox_round() OWNER TO invoice_owner;

--
-- Name: parse_manifest(text, bigint, text, boolean, text, date, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.parse_manifest(p_manifest text, p_expect_count bigint, p_expect_total text, p_required boolean, p_source text, p_business_date date, p_sha256 text) RETURNS TABLE(manifest jsonb, record_count integer, control_total numeric, distinct_keys integer, problems jsonb)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.parse_manifest(p_manifest text, p_expect_count bigint, p_expect_total text, p_required boolean, p_source text, p_business_date date, p_sha256 text) OWNER TO invoice_owner;

--
-- Name: printable(text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.printable(p_text text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.printable(p_text text) OWNER TO invoice_owner;

--
-- Name: publication_difference(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.publication_difference(p_batch_id bigint) RETURNS text[]
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.publication_difference(p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: publication_lock_key(text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.publication_lock_key(p_source text) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.publication_lock_key(p_source text) OWNER TO invoice_owner;

--
-- Name: publication_turn(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.publication_turn(p_batch_id bigint, OUT waiting_for date, OUT advances boolean) RETURNS record
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.publication_turn(p_batch_id bigint, OUT waiting_for date, OUT advances boolean) OWNER TO invoice_owner;

--
-- Name: publish_batch(bigint, bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.publish_batch(p_batch_id bigint, p_attempt_id bigint) RETURNS TABLE(outcome text, state text, counts jsonb)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.publish_batch(p_batch_id bigint, p_attempt_id bigint) OWNER TO invoice_owner;

--
-- Name: quarantine_batch(bigint, text, bigint, jsonb); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.quarantine_batch(p_batch_id bigint, p_from text, p_attempt_id bigint, p_reasons jsonb) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.quarantine_batch(p_batch_id bigint, p_from text, p_attempt_id bigint, p_reasons jsonb) OWNER TO invoice_owner;

--
-- Name: reconcile_currencies(jsonb, jsonb, boolean); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.reconcile_currencies(p_totals jsonb, p_manifest jsonb, p_multi boolean) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.reconcile_currencies(p_totals jsonb, p_manifest jsonb, p_multi boolean) OWNER TO invoice_owner;

--
-- Name: reconciliation_difference(jsonb, ingest.batch); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.reconciliation_difference(p_found jsonb, p_batch ingest.batch) RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.reconciliation_difference(p_found jsonb, p_batch ingest.batch) OWNER TO invoice_owner;

--
-- Name: record_busy_attempt(jsonb); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.record_busy_attempt(p_args jsonb) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.record_busy_attempt(p_args jsonb) OWNER TO invoice_owner;

--
-- Name: record_sweep_run(timestamp with time zone, text, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.record_sweep_run(p_started_at timestamp with time zone, p_failed_part text, p_error text) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.record_sweep_run(p_started_at timestamp with time zone, p_failed_part text, p_error text) OWNER TO invoice_owner;

--
-- Name: refuse_unscoped_staging(bigint[]); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.refuse_unscoped_staging(p_batch_ids bigint[]) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.refuse_unscoped_staging(p_batch_ids bigint[]) OWNER TO invoice_owner;

--
-- Name: reject_batch(bigint, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.reject_batch(p_batch_id bigint, p_reason text) RETURNS TABLE(action_id bigint, batch_id bigint, state text, withdrawn_versions integer, restored_versions integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.reject_batch(p_batch_id bigint, p_reason text) OWNER TO invoice_owner;

--
-- Name: reject_closed_period(bigint, date); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.reject_closed_period(p_batch_id bigint, p_locked_through date) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.reject_closed_period(p_batch_id bigint, p_locked_through date) OWNER TO invoice_owner;

--
-- Name: reject_revision_conflicts(bigint, text, boolean, text, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.reject_revision_conflicts(p_batch_id bigint, p_source text, p_distinct boolean, p_min text DEFAULT NULL::text, p_max text DEFAULT NULL::text) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.reject_revision_conflicts(p_batch_id bigint, p_source text, p_distinct boolean, p_min text, p_max text) OWNER TO invoice_owner;

--
-- Name: rejected_gross(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.rejected_gross(p_batch_id bigint) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.rejected_gross(p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: rejected_records(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.rejected_records(p_batch_id bigint) RETURNS integer
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.rejected_records(p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: rejected_share_problem(ingest.source, integer, integer); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.rejected_share_problem(p_source ingest.source, p_rejected integer, p_records integer) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.rejected_share_problem(p_source ingest.source, p_rejected integer, p_records integer) OWNER TO invoice_owner;

--
-- Name: rejection_export(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.rejection_export(p_batch_id bigint) RETURNS TABLE(record_no integer, invoice_number text, rule text, detail text, fields text[])
    LANGUAGE sql STABLE
    AS <body in sql/>
;


ALTER FUNCTION ingest.rejection_export(p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: replay_batch(bigint, text, boolean); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.replay_batch(p_batch_id bigint, p_reason text, p_allow_absent_share boolean DEFAULT false) RETURNS TABLE(action_id bigint, batch_id bigint, superseded_attempt_no integer, superseded_run_id uuid, created boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.replay_batch(p_batch_id bigint, p_reason text, p_allow_absent_share boolean) OWNER TO invoice_owner;

--
-- Name: request_confirmation(text, text, bigint, date, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.request_confirmation(p_action text, p_source text, p_batch_id bigint, p_date date, p_reason text) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.request_confirmation(p_action text, p_source text, p_batch_id bigint, p_date date, p_reason text) OWNER TO invoice_owner;

--
-- Name: pending_publication; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.pending_publication (
    source text NOT NULL,
    batch_id bigint NOT NULL,
    attempt_id bigint,
    published_at timestamp with time zone NOT NULL,
    written_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    counts jsonb NOT NULL,
    awaits_approval boolean DEFAULT false NOT NULL,
    approved_by_action bigint
);


ALTER TABLE ingest.pending_publication OWNER TO invoice_owner;

--
-- Name: require_awaiting_approval(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.require_awaiting_approval(p_batch_id bigint) RETURNS ingest.pending_publication
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.require_awaiting_approval(p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: require_operator(text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.require_operator(p_what text) RETURNS void
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.require_operator(p_what text) OWNER TO invoice_owner;

--
-- Name: resolve_notification(bigint, text, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.resolve_notification(p_notification_id bigint, p_as text, p_reason text) RETURNS TABLE(state text, action_id bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.resolve_notification(p_notification_id bigint, p_as text, p_reason text) OWNER TO invoice_owner;

--
-- Name: restage_lost_batch(bigint, text, bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.restage_lost_batch(p_batch_id bigint, p_from text, p_attempt_id bigint) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.restage_lost_batch(p_batch_id bigint, p_from text, p_attempt_id bigint) OWNER TO invoice_owner;

--
-- Name: resume_attempt(bigint, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.resume_attempt(p_attempt_id bigint, p_xid text DEFAULT NULL::text) RETURNS TABLE(state text, xact_status text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.resume_attempt(p_attempt_id bigint, p_xid text) OWNER TO invoice_owner;

--
-- Name: revert_batch(bigint, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.revert_batch(p_batch_id bigint, p_reason text) RETURNS TABLE(action_id bigint, batch_id bigint, reverted_versions integer, restored_versions integer, watermark date, superseded_attempt_no integer, superseded_run_id uuid)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.revert_batch(p_batch_id bigint, p_reason text) OWNER TO invoice_owner;

--
-- Name: revert_to_date(text, date, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.revert_to_date(p_source text, p_date date, p_reason text) RETURNS TABLE(action_id bigint, batch_id bigint, business_date date, reverted_versions integer, restored_versions integer, watermark date)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.revert_to_date(p_source text, p_date date, p_reason text) OWNER TO invoice_owner;

--
-- Name: revision_conflicts(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.revision_conflicts(p_batch_id bigint) RETURNS TABLE(record_no integer, invoice_number text, revision integer, version_batch_id bigint, gross_amount numeric)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.revision_conflicts(p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: runner_lock_key(text, date); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.runner_lock_key(p_source text, p_business_date date, OUT key1 integer, OUT key2 integer) RETURNS record
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.runner_lock_key(p_source text, p_business_date date, OUT key1 integer, OUT key2 integer) OWNER TO invoice_owner;

--
-- Name: set_period_lock(text, boolean, date, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.set_period_lock(p_source text, p_close boolean, p_through date, p_reason text) RETURNS TABLE(action_id bigint, locked_before date, locked_now date)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.set_period_lock(p_source text, p_close boolean, p_through date, p_reason text) OWNER TO invoice_owner;

--
-- Name: set_source_approval(text, boolean); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.set_source_approval(p_source text, p_require boolean) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.set_source_approval(p_source text, p_require boolean) OWNER TO invoice_owner;

--
-- Name: set_source_extract(text, text, numeric); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.set_source_extract(p_source text, p_extract text DEFAULT NULL::text, p_max_absent_share numeric DEFAULT NULL::numeric) RETURNS TABLE(source text, extract_kind text, max_absent_share numeric)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.set_source_extract(p_source text, p_extract text, p_max_absent_share numeric) OWNER TO invoice_owner;

--
-- Name: set_source_format(text, jsonb); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.set_source_format(p_source text, p_format jsonb) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.set_source_format(p_source text, p_format jsonb) OWNER TO invoice_owner;

--
-- Name: staged_currency_totals(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.staged_currency_totals(p_batch_id bigint) RETURNS TABLE(currency text, records integer, gross_sum numeric, gross_unreadable integer, net_sum numeric, net_unreadable integer, tax_sum numeric, tax_unreadable integer)
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.staged_currency_totals(p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: staged_totals(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.staged_totals(p_batch_id bigint) RETURNS TABLE(distinct_keys integer, gross_sum numeric, unreadable integer, net_sum numeric, net_unreadable integer, tax_sum numeric, tax_unreadable integer, raw_rows integer, typed_rows integer, failing_rows integer, min_key text, max_key text, min_currency text, max_currency text)
    LANGUAGE plpgsql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.staged_totals(p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: status_report(text, bigint, integer, text, date); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.status_report(p_source text DEFAULT NULL::text, p_batch_id bigint DEFAULT NULL::bigint, p_limit integer DEFAULT 50, p_state text DEFAULT NULL::text, p_since date DEFAULT NULL::date) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.status_report(p_source text, p_batch_id bigint, p_limit integer, p_state text, p_since date) OWNER TO invoice_owner;

--
-- Name: sweep(interval, integer, integer); Type: PROCEDURE; Schema: ingest; Owner: invoice_owner
--

CREATE PROCEDURE ingest.sweep(IN p_orphan_after interval DEFAULT '24:00:00'::interval, IN p_chunk integer DEFAULT 10000, IN p_cron_keep_days integer DEFAULT 7)
    LANGUAGE plpgsql
    AS <body in sql/>
;


ALTER PROCEDURE ingest.sweep(IN p_orphan_after interval, IN p_chunk integer, IN p_cron_keep_days integer) OWNER TO invoice_owner;

--
-- Name: sweep_abandoned_attempts(); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.sweep_abandoned_attempts() RETURNS TABLE(batch_id bigint, attempts integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.sweep_abandoned_attempts() OWNER TO invoice_owner;

--
-- Name: sweep_cron_history(integer); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.sweep_cron_history(p_keep_days integer DEFAULT 7) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.sweep_cron_history(p_keep_days integer) OWNER TO invoice_owner;

--
-- Name: sweep_deadlines(integer); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.sweep_deadlines(p_limit integer DEFAULT 100) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.sweep_deadlines(p_limit integer) OWNER TO invoice_owner;

--
-- Name: sweep_orphan_received(interval, integer); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.sweep_orphan_received(p_after interval DEFAULT '24:00:00'::interval, p_limit integer DEFAULT 100) RETURNS TABLE(batch_id bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.sweep_orphan_received(p_after interval, p_limit integer) OWNER TO invoice_owner;

--
-- Name: sweep_publish_ready(uuid, bigint[]); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.sweep_publish_ready(p_run_id uuid DEFAULT gen_random_uuid(), p_skip bigint[] DEFAULT '{}'::bigint[]) RETURNS TABLE(batch_id bigint, outcome text, attempt_id bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.sweep_publish_ready(p_run_id uuid, p_skip bigint[]) OWNER TO invoice_owner;

--
-- Name: sweep_retention(integer); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.sweep_retention(p_chunk integer DEFAULT 10000) RETURNS TABLE(batch_id bigint, rows_deleted integer, done boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.sweep_retention(p_chunk integer) OWNER TO invoice_owner;

--
-- Name: sweep_typed_staging(); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.sweep_typed_staging() RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.sweep_typed_staging() OWNER TO invoice_owner;

--
-- Name: take_awaiting_approval(text, bigint, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.take_awaiting_approval(p_action text, p_batch_id bigint, p_reason text, OUT batch ingest.batch, OUT pending ingest.pending_publication) RETURNS record
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.take_awaiting_approval(p_action text, p_batch_id bigint, p_reason text, OUT batch ingest.batch, OUT pending ingest.pending_publication) OWNER TO invoice_owner;

--
-- Name: transition(bigint, text, text, bigint, jsonb); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.transition(p_batch_id bigint, p_from text, p_to text, p_attempt_id bigint, p_detail jsonb DEFAULT NULL::jsonb) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.transition(p_batch_id bigint, p_from text, p_to text, p_attempt_id bigint, p_detail jsonb) OWNER TO invoice_owner;

--
-- Name: try_runner_xact_lock(text, date); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.try_runner_xact_lock(p_source text, p_business_date date) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.try_runner_xact_lock(p_source text, p_business_date date) OWNER TO invoice_owner;

--
-- Name: invoice_valid; Type: TABLE; Schema: staging; Owner: invoice_owner
--

CREATE TABLE staging.invoice_valid (
    batch_id bigint NOT NULL,
    record_no integer NOT NULL,
    invoice_number text COLLATE pg_catalog."C",
    revision integer,
    status text,
    document_type text,
    customer_id text,
    invoice_date date,
    due_date date,
    currency text,
    net_amount numeric,
    tax_amount numeric,
    gross_amount numeric,
    description text,
    content_hash bytea,
    is_duplicate boolean DEFAULT false NOT NULL,
    rules integer DEFAULT 0 NOT NULL,
    raw_fields text[],
    format_note text,
    extra jsonb,
    CONSTRAINT invoice_valid_complete CHECK (((rules <> 0) OR ((invoice_number IS NOT NULL) AND (revision IS NOT NULL) AND (status IS NOT NULL) AND (document_type IS NOT NULL) AND (customer_id IS NOT NULL) AND (invoice_date IS NOT NULL) AND (currency IS NOT NULL) AND (net_amount IS NOT NULL) AND (tax_amount IS NOT NULL) AND (gross_amount IS NOT NULL) AND (content_hash IS NOT NULL))))
)
PARTITION BY LIST (batch_id);


ALTER TABLE staging.invoice_valid OWNER TO invoice_owner;

--
-- Name: typed_fields(staging.invoice_valid); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.typed_fields(p_row staging.invoice_valid) RETURNS text[]
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.typed_fields(p_row staging.invoice_valid) OWNER TO invoice_owner;

--
-- Name: typed_staging(bigint, boolean); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.typed_staging(p_batch_id bigint, p_attach boolean DEFAULT true) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET lock_timeout TO '200ms'
    AS <body in sql/>
;


ALTER FUNCTION ingest.typed_staging(p_batch_id bigint, p_attach boolean) OWNER TO invoice_owner;

--
-- Name: typed_staging_partition(bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.typed_staging_partition(p_batch_id bigint) RETURNS regclass
    LANGUAGE sql STABLE
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.typed_staging_partition(p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: validate_batch(bigint, bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.validate_batch(p_batch_id bigint, p_attempt_id bigint) RETURNS TABLE(state text, accepted integer, rejected integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET work_mem TO '256MB'
    AS <body in sql/>
;


ALTER FUNCTION ingest.validate_batch(p_batch_id bigint, p_attempt_id bigint) OWNER TO invoice_owner;

--
-- Name: write_batch(bigint, bigint); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.write_batch(p_batch_id bigint, p_attempt_id bigint) RETURNS TABLE(outcome text, state text, counts jsonb)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET work_mem TO '256MB'
    AS <body in sql/>
;


ALTER FUNCTION ingest.write_batch(p_batch_id bigint, p_attempt_id bigint) OWNER TO invoice_owner;

--
-- Name: write_notification(bigint, text, jsonb, text); Type: FUNCTION; Schema: ingest; Owner: invoice_owner
--

CREATE FUNCTION ingest.write_notification(p_batch_id bigint, p_kind text, p_payload jsonb, p_dedupe_key text DEFAULT NULL::text) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION ingest.write_notification(p_batch_id bigint, p_kind text, p_payload jsonb, p_dedupe_key text) OWNER TO invoice_owner;

--
-- Name: invoice_as_of(timestamp with time zone); Type: FUNCTION; Schema: reporting; Owner: invoice_owner
--

CREATE FUNCTION reporting.invoice_as_of(p_ts timestamp with time zone) RETURNS TABLE(source text, invoice_number text, revision integer, document_type text, customer_id text, invoice_date date, due_date date, currency text, net_amount numeric, tax_amount numeric, gross_amount numeric, description text, batch_id bigint, published_at timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    SET plan_cache_mode TO 'force_custom_plan'
    AS <body in sql/>
;


ALTER FUNCTION reporting.invoice_as_of(p_ts timestamp with time zone) OWNER TO invoice_owner;

--
-- Name: invoice_as_of_batch(bigint); Type: FUNCTION; Schema: reporting; Owner: invoice_owner
--

CREATE FUNCTION reporting.invoice_as_of_batch(p_batch_id bigint) RETURNS TABLE(source text, invoice_number text, revision integer, document_type text, customer_id text, invoice_date date, due_date date, currency text, net_amount numeric, tax_amount numeric, gross_amount numeric, description text, batch_id bigint, published_at timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO ''
    AS <body in sql/>
;


ALTER FUNCTION reporting.invoice_as_of_batch(p_batch_id bigint) OWNER TO invoice_owner;

--
-- Name: invoice_closure; Type: TABLE; Schema: core; Owner: invoice_owner
--

CREATE TABLE core.invoice_closure (
    closure_id bigint NOT NULL,
    source text NOT NULL,
    invoice_number text NOT NULL COLLATE pg_catalog."C",
    revision integer NOT NULL,
    batch_id bigint NOT NULL,
    closed_at timestamp with time zone NOT NULL,
    reverted_at timestamp with time zone,
    reverted_by_action bigint,
    CONSTRAINT invoice_closure_check CHECK (((reverted_at IS NULL) = (reverted_by_action IS NULL)))
);


ALTER TABLE core.invoice_closure OWNER TO invoice_owner;

--
-- Name: invoice_closure_closure_id_seq; Type: SEQUENCE; Schema: core; Owner: invoice_owner
--

ALTER TABLE core.invoice_closure ALTER COLUMN closure_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME core.invoice_closure_closure_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: invoice_version; Type: TABLE; Schema: core; Owner: invoice_owner
--

CREATE TABLE core.invoice_version (
    source text NOT NULL,
    invoice_number text NOT NULL COLLATE pg_catalog."C",
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
    current_since timestamp with time zone,
    content_hash_version smallint DEFAULT 1 NOT NULL,
    extra jsonb,
    CONSTRAINT invoice_version_check CHECK ((due_date >= invoice_date)),
    CONSTRAINT invoice_version_check1 CHECK (((net_amount + tax_amount) = gross_amount)),
    CONSTRAINT invoice_version_check2 CHECK (((document_type <> 'INVOICE'::text) OR (gross_amount >= (0)::numeric))),
    CONSTRAINT invoice_version_check3 CHECK (((document_type <> 'CREDIT_NOTE'::text) OR (gross_amount <= (0)::numeric))),
    CONSTRAINT invoice_version_check4 CHECK ((is_current = (superseded_by_batch_id IS NULL))),
    CONSTRAINT invoice_version_content_hash_version_check CHECK ((content_hash_version = ANY (ARRAY[1, 2]))),
    CONSTRAINT invoice_version_document_type_check CHECK ((document_type = ANY (ARRAY['INVOICE'::text, 'CREDIT_NOTE'::text]))),
    CONSTRAINT invoice_version_revision_check CHECK ((revision >= 0)),
    CONSTRAINT invoice_version_status_check CHECK ((status = ANY (ARRAY['ISSUED'::text, 'VOID'::text])))
)
WITH (fillfactor='98', autovacuum_vacuum_insert_threshold='100000', autovacuum_vacuum_insert_scale_factor='0');


ALTER TABLE core.invoice_version OWNER TO invoice_owner;

--
-- Name: invoice_version_period; Type: TABLE; Schema: core; Owner: invoice_owner
--

CREATE TABLE core.invoice_version_period (
    source text NOT NULL,
    invoice_number text NOT NULL COLLATE pg_catalog."C",
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
    batch_id bigint NOT NULL,
    published_at timestamp with time zone NOT NULL,
    current_from timestamp with time zone NOT NULL,
    current_until timestamp with time zone NOT NULL,
    superseded_by_batch_id bigint NOT NULL,
    restored_by_action bigint NOT NULL
);


ALTER TABLE core.invoice_version_period OWNER TO invoice_owner;

--
-- Name: invoice_version_reverted; Type: TABLE; Schema: core; Owner: invoice_owner
--

CREATE TABLE core.invoice_version_reverted (
    source text NOT NULL,
    invoice_number text NOT NULL COLLATE pg_catalog."C",
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
    current_since timestamp with time zone,
    reverted_at timestamp with time zone NOT NULL,
    reverted_by_action bigint NOT NULL,
    content_hash_version smallint DEFAULT 1 NOT NULL,
    CONSTRAINT invoice_version_reverted_content_hash_version_check CHECK ((content_hash_version = ANY (ARRAY[1, 2])))
);


ALTER TABLE core.invoice_version_reverted OWNER TO invoice_owner;

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
    b.published_at,
    (b.manifest -> 'control_totals'::text) AS control_totals,
    b.format_version,
    b.defaults
   FROM ingest.batch b;


ALTER TABLE ingest.batch_overview OWNER TO invoice_owner;

--
-- Name: batch_transition; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.batch_transition (
    from_state text NOT NULL,
    to_state text NOT NULL,
    meaning text NOT NULL,
    CONSTRAINT batch_transition_from_state_check CHECK ((from_state = ANY (ARRAY['received'::text, 'staged'::text, 'validated'::text, 'published'::text, 'quarantined'::text, 'reverted'::text]))),
    CONSTRAINT batch_transition_to_state_check CHECK ((to_state = ANY (ARRAY['received'::text, 'staged'::text, 'validated'::text, 'published'::text, 'quarantined'::text, 'reverted'::text])))
);


ALTER TABLE ingest.batch_transition OWNER TO invoice_owner;

--
-- Name: confirmation; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.confirmation (
    request_action_id bigint NOT NULL,
    db_user text DEFAULT SESSION_USER NOT NULL,
    at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    xact bigint DEFAULT txid_current() NOT NULL
);


ALTER TABLE ingest.confirmation OWNER TO invoice_owner;

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
-- Name: field_rule; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.field_rule (
    rule text NOT NULL,
    "bit" smallint NOT NULL,
    sentence text NOT NULL,
    CONSTRAINT field_rule_bit_check CHECK ((("bit" >= 0) AND ("bit" <= 30)))
);


ALTER TABLE ingest.field_rule OWNER TO invoice_owner;

--
-- Name: history_instant; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.history_instant (
    source text NOT NULL,
    stamp timestamp with time zone NOT NULL,
    batch_id bigint NOT NULL,
    kind text NOT NULL,
    at timestamp with time zone NOT NULL,
    CONSTRAINT history_instant_kind_check CHECK ((kind = ANY (ARRAY['published'::text, 'reverted'::text])))
);


ALTER TABLE ingest.history_instant OWNER TO invoice_owner;

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
    round integer DEFAULT 0 NOT NULL,
    tries integer DEFAULT 0 NOT NULL,
    claimed_by text,
    claimed_at timestamp with time zone,
    claimed_pid integer,
    not_before timestamp with time zone,
    sink text,
    last_status integer,
    last_error text,
    response_head text,
    in_doubt_at timestamp with time zone,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    body jsonb,
    CONSTRAINT outbox_check CHECK (((state <> 'dispatched'::text) OR (dispatched_at IS NOT NULL))),
    CONSTRAINT outbox_check1 CHECK (((state <> 'in_doubt'::text) OR (in_doubt_at IS NOT NULL))),
    CONSTRAINT outbox_kind_check CHECK ((kind = ANY (ARRAY['batch_published'::text, 'batch_quarantined'::text, 'batch_reverted'::text, 'deadline_missed'::text]))),
    CONSTRAINT outbox_round_check CHECK ((round >= 0)),
    CONSTRAINT outbox_state_check CHECK ((state = ANY (ARRAY['pending'::text, 'dispatched'::text, 'in_doubt'::text, 'failed'::text]))),
    CONSTRAINT outbox_tries_check CHECK ((tries >= 0))
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
    o.payload,
    o.tries,
    o.sink,
    o.last_status,
    o.last_error,
    o.response_head,
    o.claimed_by,
    o.claimed_at,
    o.in_doubt_at,
    o.not_before,
    o.updated_at,
    o.body
   FROM ingest.outbox o;


ALTER TABLE ingest.notification OWNER TO invoice_owner;

--
-- Name: operator_action; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.operator_action (
    action_id bigint NOT NULL,
    batch_id bigint,
    action text NOT NULL,
    reason text NOT NULL,
    db_user text DEFAULT SESSION_USER NOT NULL,
    at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    superseded_attempt_no integer,
    superseded_run_id uuid,
    notification_id bigint,
    source text,
    period_through date,
    allow_absent_share boolean DEFAULT false NOT NULL,
    requested_action text,
    to_date date,
    confirms_action bigint,
    requested_by text,
    CONSTRAINT operator_action_action_check CHECK ((action = ANY (ARRAY['replay'::text, 'revert'::text, 'notification_resolve'::text, 'period_close'::text, 'period_reopen'::text, 'approve'::text, 'reject'::text, 'request'::text]))),
    CONSTRAINT operator_action_check CHECK (((action = ANY (ARRAY['notification_resolve'::text, 'period_close'::text, 'period_reopen'::text, 'request'::text])) OR (batch_id IS NOT NULL))),
    CONSTRAINT operator_action_check1 CHECK (((action <> 'notification_resolve'::text) OR (notification_id IS NOT NULL))),
    CONSTRAINT operator_action_period_check CHECK (((action <> ALL (ARRAY['period_close'::text, 'period_reopen'::text])) OR (source IS NOT NULL))),
    CONSTRAINT operator_action_reason_check CHECK ((btrim(reason) <> ''::text)),
    CONSTRAINT operator_action_request_check CHECK ((((action = 'request'::text) = (requested_action IS NOT NULL)) AND ((action <> 'request'::text) OR (source IS NOT NULL)))),
    CONSTRAINT operator_action_requested_action_check CHECK ((requested_action = ANY (ARRAY['replay'::text, 'revert'::text, 'revert_to_date'::text, 'period_reopen'::text])))
);


ALTER TABLE ingest.operator_action OWNER TO invoice_owner;

--
-- Name: operator_action_action_id_seq; Type: SEQUENCE; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ingest.operator_action ALTER COLUMN action_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME ingest.operator_action_action_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


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
    gross_amount numeric,
    currency text,
    fields text[],
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
    r.detail,
    r.fields
   FROM ingest.rejection_row r;


ALTER TABLE ingest.rejection OWNER TO invoice_owner;

--
-- Name: rejection_superseded; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.rejection_superseded (
    batch_id bigint NOT NULL,
    attempt_no integer,
    action_id bigint NOT NULL,
    record_no integer NOT NULL,
    invoice_number text,
    rule text NOT NULL,
    detail text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    archived_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);


ALTER TABLE ingest.rejection_superseded OWNER TO invoice_owner;

--
-- Name: replay_authorization; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.replay_authorization (
    authorization_id bigint NOT NULL,
    batch_id bigint NOT NULL,
    action_id bigint NOT NULL,
    created_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    consumed_at timestamp with time zone,
    consumed_by_attempt_id bigint,
    CONSTRAINT replay_authorization_check CHECK (((consumed_at IS NULL) = (consumed_by_attempt_id IS NULL)))
);


ALTER TABLE ingest.replay_authorization OWNER TO invoice_owner;

--
-- Name: replay_authorization_authorization_id_seq; Type: SEQUENCE; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ingest.replay_authorization ALTER COLUMN authorization_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME ingest.replay_authorization_authorization_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: source_format; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.source_format (
    source text NOT NULL,
    version integer NOT NULL,
    format jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text DEFAULT SESSION_USER NOT NULL,
    CONSTRAINT source_format_format_check CHECK ((jsonb_typeof(format) = 'object'::text)),
    CONSTRAINT source_format_version_check CHECK ((version >= 1))
);


ALTER TABLE ingest.source_format OWNER TO invoice_owner;

--
-- Name: source_overview; Type: VIEW; Schema: ingest; Owner: invoice_owner
--

CREATE VIEW ingest.source_overview AS
 SELECT s.source,
    s.policy,
    s.max_rejected_share,
    s.start_date,
    s.allow_unknown_columns,
    s.require_control_totals,
    s.created_at,
    s.updated_at,
    s.deadline,
    s.locked_through,
    s.format_version,
    ( SELECT f.format
           FROM ingest.source_format f
          WHERE ((f.source = s.source) AND (f.version = s.format_version))) AS file_format,
    s.extract_kind,
    s.max_absent_share,
    s.require_approval
   FROM ingest.source s;


ALTER TABLE ingest.source_overview OWNER TO invoice_owner;

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
-- Name: staging_purge; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.staging_purge (
    batch_id bigint NOT NULL,
    state_at_purge text NOT NULL,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    purged_at timestamp with time zone,
    rows_deleted bigint DEFAULT 0 NOT NULL,
    CONSTRAINT staging_purge_rows_deleted_check CHECK ((rows_deleted >= 0))
);


ALTER TABLE ingest.staging_purge OWNER TO invoice_owner;

--
-- Name: sweep_run; Type: TABLE; Schema: ingest; Owner: invoice_owner
--

CREATE TABLE ingest.sweep_run (
    singleton boolean DEFAULT true NOT NULL,
    last_started_at timestamp with time zone NOT NULL,
    last_finished_at timestamp with time zone NOT NULL,
    last_outcome text NOT NULL,
    last_failed_part text,
    last_error text,
    last_succeeded_at timestamp with time zone,
    runs bigint DEFAULT 0 NOT NULL,
    failed_runs bigint DEFAULT 0 NOT NULL,
    CONSTRAINT sweep_run_last_outcome_check CHECK ((last_outcome = ANY (ARRAY['succeeded'::text, 'failed'::text]))),
    CONSTRAINT sweep_run_singleton_check CHECK (singleton)
);


ALTER TABLE ingest.sweep_run OWNER TO invoice_owner;

--
-- Name: sweep_overview; Type: VIEW; Schema: ingest; Owner: invoice_owner
--

CREATE VIEW ingest.sweep_overview AS
 SELECT r.last_started_at,
    r.last_finished_at,
    r.last_outcome,
    r.last_failed_part,
    r.last_error,
    r.last_succeeded_at,
    r.runs,
    r.failed_runs
   FROM ingest.sweep_run r;


ALTER TABLE ingest.sweep_overview OWNER TO invoice_owner;

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
  WHERE ((v.status = 'ISSUED'::text) AND (v.batch_id <> ALL (ARRAY( SELECT p.batch_id
           FROM ingest.pending_publication p))) AND (v.is_current OR (v.superseded_by_batch_id = ANY (ARRAY( SELECT p.batch_id
           FROM ingest.pending_publication p)))));


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
    (v.is_current OR COALESCE((v.superseded_by_batch_id = ANY (ARRAY( SELECT p.batch_id
           FROM ingest.pending_publication p))), false)) AS is_current,
    v.batch_id,
    v.published_at,
        CASE
            WHEN (v.superseded_by_batch_id = ANY (ARRAY( SELECT p.batch_id
               FROM ingest.pending_publication p))) THEN NULL::bigint
            ELSE v.superseded_by_batch_id
        END AS superseded_by_batch_id,
        CASE
            WHEN (v.superseded_by_batch_id = ANY (ARRAY( SELECT p.batch_id
               FROM ingest.pending_publication p))) THEN NULL::timestamp with time zone
            ELSE v.superseded_at
        END AS superseded_at,
    COALESCE(((v.superseded_by_batch_id <> ALL (ARRAY( SELECT p.batch_id
           FROM ingest.pending_publication p))) AND (EXISTS ( SELECT
           FROM core.invoice_closure c
          WHERE ((c.source = v.source) AND (c.invoice_number = v.invoice_number) AND (c.revision = v.revision) AND (c.batch_id = v.superseded_by_batch_id))))), false) AS closed_by_absence,
    v.extra
   FROM core.invoice_version v
  WHERE (v.batch_id <> ALL (ARRAY( SELECT p.batch_id
           FROM ingest.pending_publication p)));


ALTER TABLE reporting.invoice_version OWNER TO invoice_owner;

--
-- Name: invoice_line; Type: TABLE; Schema: staging; Owner: invoice_owner
--

CREATE UNLOGGED TABLE staging.invoice_line (
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
)
WITH (autovacuum_vacuum_insert_threshold='-1');


ALTER TABLE staging.invoice_line OWNER TO invoice_owner;

--
-- Name: invoice_valid_shared; Type: TABLE; Schema: staging; Owner: invoice_owner
--

CREATE UNLOGGED TABLE staging.invoice_valid_shared (
    batch_id bigint NOT NULL,
    record_no integer NOT NULL,
    invoice_number text COLLATE pg_catalog."C",
    revision integer,
    status text,
    document_type text,
    customer_id text,
    invoice_date date,
    due_date date,
    currency text,
    net_amount numeric,
    tax_amount numeric,
    gross_amount numeric,
    description text,
    content_hash bytea,
    is_duplicate boolean DEFAULT false NOT NULL,
    rules integer DEFAULT 0 NOT NULL,
    raw_fields text[],
    format_note text,
    extra jsonb,
    CONSTRAINT invoice_valid_complete CHECK (((rules <> 0) OR ((invoice_number IS NOT NULL) AND (revision IS NOT NULL) AND (status IS NOT NULL) AND (document_type IS NOT NULL) AND (customer_id IS NOT NULL) AND (invoice_date IS NOT NULL) AND (currency IS NOT NULL) AND (net_amount IS NOT NULL) AND (tax_amount IS NOT NULL) AND (gross_amount IS NOT NULL) AND (content_hash IS NOT NULL))))
)
WITH (autovacuum_vacuum_insert_threshold='-1');


ALTER TABLE staging.invoice_valid_shared OWNER TO invoice_owner;

--
-- Name: key_version; Type: TABLE; Schema: staging; Owner: invoice_owner
--

CREATE UNLOGGED TABLE staging.key_version (
    batch_id bigint NOT NULL,
    invoice_number text NOT NULL COLLATE pg_catalog."C",
    revision integer NOT NULL,
    is_current boolean NOT NULL,
    content_hash bytea NOT NULL,
    version_batch_id bigint NOT NULL,
    batch_record_no integer,
    batch_revision integer,
    batch_content_hash bytea,
    batch_gross_amount numeric
)
WITH (autovacuum_vacuum_insert_threshold='-1');


ALTER TABLE staging.key_version OWNER TO invoice_owner;

--
-- Name: invoice_valid_shared; Type: TABLE ATTACH; Schema: staging; Owner: invoice_owner
--

ALTER TABLE ONLY staging.invoice_valid ATTACH PARTITION staging.invoice_valid_shared DEFAULT;


--
-- Name: invoice_closure invoice_closure_pkey; Type: CONSTRAINT; Schema: core; Owner: invoice_owner
--

ALTER TABLE ONLY core.invoice_closure
    ADD CONSTRAINT invoice_closure_pkey PRIMARY KEY (closure_id);


--
-- Name: invoice_version_period invoice_version_period_pkey; Type: CONSTRAINT; Schema: core; Owner: invoice_owner
--

ALTER TABLE ONLY core.invoice_version_period
    ADD CONSTRAINT invoice_version_period_pkey PRIMARY KEY (restored_by_action, source, invoice_number, revision);


--
-- Name: invoice_version invoice_version_pkey; Type: CONSTRAINT; Schema: core; Owner: invoice_owner
--

ALTER TABLE ONLY core.invoice_version
    ADD CONSTRAINT invoice_version_pkey PRIMARY KEY (source, invoice_number, revision);


--
-- Name: invoice_version_reverted invoice_version_reverted_pkey; Type: CONSTRAINT; Schema: core; Owner: invoice_owner
--

ALTER TABLE ONLY core.invoice_version_reverted
    ADD CONSTRAINT invoice_version_reverted_pkey PRIMARY KEY (reverted_by_action, source, invoice_number, revision);


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
-- Name: batch_transition batch_transition_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.batch_transition
    ADD CONSTRAINT batch_transition_pkey PRIMARY KEY (from_state, to_state);


--
-- Name: confirmation confirmation_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.confirmation
    ADD CONSTRAINT confirmation_pkey PRIMARY KEY (request_action_id);


--
-- Name: currency currency_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.currency
    ADD CONSTRAINT currency_pkey PRIMARY KEY (code);


--
-- Name: field_rule field_rule_bit_key; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.field_rule
    ADD CONSTRAINT field_rule_bit_key UNIQUE ("bit");


--
-- Name: field_rule field_rule_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.field_rule
    ADD CONSTRAINT field_rule_pkey PRIMARY KEY (rule);


--
-- Name: history_instant history_instant_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.history_instant
    ADD CONSTRAINT history_instant_pkey PRIMARY KEY (source, stamp);


--
-- Name: operator_action operator_action_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.operator_action
    ADD CONSTRAINT operator_action_pkey PRIMARY KEY (action_id);


--
-- Name: outbox outbox_batch_id_kind_round_key; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.outbox
    ADD CONSTRAINT outbox_batch_id_kind_round_key UNIQUE (batch_id, kind, round);


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
-- Name: pending_publication pending_publication_batch_id_key; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.pending_publication
    ADD CONSTRAINT pending_publication_batch_id_key UNIQUE (batch_id);


--
-- Name: pending_publication pending_publication_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.pending_publication
    ADD CONSTRAINT pending_publication_pkey PRIMARY KEY (source);


--
-- Name: rejection_row rejection_row_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.rejection_row
    ADD CONSTRAINT rejection_row_pkey PRIMARY KEY (batch_id, record_no, rule);


--
-- Name: rejection_superseded rejection_superseded_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.rejection_superseded
    ADD CONSTRAINT rejection_superseded_pkey PRIMARY KEY (action_id, record_no, rule);


--
-- Name: replay_authorization replay_authorization_action_id_key; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.replay_authorization
    ADD CONSTRAINT replay_authorization_action_id_key UNIQUE (action_id);


--
-- Name: replay_authorization replay_authorization_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.replay_authorization
    ADD CONSTRAINT replay_authorization_pkey PRIMARY KEY (authorization_id);


--
-- Name: source_format source_format_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.source_format
    ADD CONSTRAINT source_format_pkey PRIMARY KEY (source, version);


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
-- Name: staging_purge staging_purge_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.staging_purge
    ADD CONSTRAINT staging_purge_pkey PRIMARY KEY (batch_id);


--
-- Name: sweep_run sweep_run_pkey; Type: CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.sweep_run
    ADD CONSTRAINT sweep_run_pkey PRIMARY KEY (singleton);


--
-- Name: schema_migration schema_migration_pkey; Type: CONSTRAINT; Schema: loader_meta; Owner: invoice_owner
--

ALTER TABLE ONLY loader_meta.schema_migration
    ADD CONSTRAINT schema_migration_pkey PRIMARY KEY (version);


--
-- Name: invoice_closure_batch; Type: INDEX; Schema: core; Owner: invoice_owner
--

CREATE INDEX invoice_closure_batch ON core.invoice_closure USING btree (batch_id);


--
-- Name: invoice_closure_standing; Type: INDEX; Schema: core; Owner: invoice_owner
--

CREATE UNIQUE INDEX invoice_closure_standing ON core.invoice_closure USING btree (source, invoice_number, revision, batch_id) WHERE (reverted_at IS NULL);


--
-- Name: invoice_version_batch; Type: INDEX; Schema: core; Owner: invoice_owner
--

CREATE INDEX invoice_version_batch ON core.invoice_version USING brin (batch_id) WITH (pages_per_range='8');


--
-- Name: invoice_version_one_current; Type: INDEX; Schema: core; Owner: invoice_owner
--

CREATE UNIQUE INDEX invoice_version_one_current ON core.invoice_version USING btree (source, invoice_number) WHERE is_current;


--
-- Name: invoice_version_period_until; Type: INDEX; Schema: core; Owner: invoice_owner
--

CREATE INDEX invoice_version_period_until ON core.invoice_version_period USING btree (current_until);


--
-- Name: invoice_version_reverted_at; Type: INDEX; Schema: core; Owner: invoice_owner
--

CREATE INDEX invoice_version_reverted_at ON core.invoice_version_reverted USING btree (reverted_at);


--
-- Name: invoice_version_reverted_batch; Type: INDEX; Schema: core; Owner: invoice_owner
--

CREATE INDEX invoice_version_reverted_batch ON core.invoice_version_reverted USING btree (batch_id);


--
-- Name: invoice_version_superseded_at; Type: INDEX; Schema: core; Owner: invoice_owner
--

CREATE INDEX invoice_version_superseded_at ON core.invoice_version USING btree (superseded_at) WHERE (superseded_at IS NOT NULL);


--
-- Name: invoice_version_superseded_by; Type: INDEX; Schema: core; Owner: invoice_owner
--

CREATE INDEX invoice_version_superseded_by ON core.invoice_version USING btree (superseded_by_batch_id) WHERE (superseded_by_batch_id IS NOT NULL);


--
-- Name: attempt_open; Type: INDEX; Schema: ingest; Owner: invoice_owner
--

CREATE INDEX attempt_open ON ingest.attempt USING btree (batch_id) WHERE (finished_at IS NULL);


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
-- Name: batch_unfinished; Type: INDEX; Schema: ingest; Owner: invoice_owner
--

CREATE INDEX batch_unfinished ON ingest.batch USING btree (source, business_date) WHERE (state = ANY (ARRAY['received'::text, 'staged'::text, 'validated'::text]));


--
-- Name: history_instant_at; Type: INDEX; Schema: ingest; Owner: invoice_owner
--

CREATE INDEX history_instant_at ON ingest.history_instant USING btree (at);


--
-- Name: history_instant_batch; Type: INDEX; Schema: ingest; Owner: invoice_owner
--

CREATE INDEX history_instant_batch ON ingest.history_instant USING btree (batch_id);


--
-- Name: operator_action_batch; Type: INDEX; Schema: ingest; Owner: invoice_owner
--

CREATE INDEX operator_action_batch ON ingest.operator_action USING btree (batch_id);


--
-- Name: operator_action_confirms; Type: INDEX; Schema: ingest; Owner: invoice_owner
--

CREATE INDEX operator_action_confirms ON ingest.operator_action USING btree (confirms_action) WHERE (confirms_action IS NOT NULL);


--
-- Name: outbox_pending; Type: INDEX; Schema: ingest; Owner: invoice_owner
--

CREATE INDEX outbox_pending ON ingest.outbox USING btree (notification_id) WHERE (state = 'pending'::text);


--
-- Name: rejection_superseded_batch; Type: INDEX; Schema: ingest; Owner: invoice_owner
--

CREATE INDEX rejection_superseded_batch ON ingest.rejection_superseded USING btree (batch_id);


--
-- Name: replay_authorization_one_unused; Type: INDEX; Schema: ingest; Owner: invoice_owner
--

CREATE UNIQUE INDEX replay_authorization_one_unused ON ingest.replay_authorization USING btree (batch_id) WHERE (consumed_at IS NULL);


--
-- Name: invoice_line_batch; Type: INDEX; Schema: staging; Owner: invoice_owner
--

CREATE INDEX invoice_line_batch ON staging.invoice_line USING brin (batch_id);


--
-- Name: invoice_valid_shared_batch; Type: INDEX; Schema: staging; Owner: invoice_owner
--

CREATE INDEX invoice_valid_shared_batch ON staging.invoice_valid_shared USING brin (batch_id);


--
-- Name: key_version_key; Type: INDEX; Schema: staging; Owner: invoice_owner
--

CREATE INDEX key_version_key ON staging.key_version USING btree (batch_id, invoice_number, revision);


--
-- Name: invoice_version invoice_version_is_history; Type: TRIGGER; Schema: core; Owner: invoice_owner
--

CREATE TRIGGER invoice_version_is_history BEFORE UPDATE ON core.invoice_version FOR EACH ROW WHEN ((NOT ((NOT ((((((((((((((((((new.source IS DISTINCT FROM old.source) OR (new.invoice_number IS DISTINCT FROM old.invoice_number)) OR (new.revision IS DISTINCT FROM old.revision)) OR (new.status IS DISTINCT FROM old.status)) OR (new.document_type IS DISTINCT FROM old.document_type)) OR (new.customer_id IS DISTINCT FROM old.customer_id)) OR (new.invoice_date IS DISTINCT FROM old.invoice_date)) OR (new.due_date IS DISTINCT FROM old.due_date)) OR (new.currency IS DISTINCT FROM old.currency)) OR (new.net_amount IS DISTINCT FROM old.net_amount)) OR (new.tax_amount IS DISTINCT FROM old.tax_amount)) OR (new.gross_amount IS DISTINCT FROM old.gross_amount)) OR (new.description IS DISTINCT FROM old.description)) OR (new.content_hash IS DISTINCT FROM old.content_hash)) OR (new.batch_id IS DISTINCT FROM old.batch_id)) OR (new.record_no IS DISTINCT FROM old.record_no)) OR (new.supersedes_revision IS DISTINCT FROM old.supersedes_revision)) OR (new.published_at IS DISTINCT FROM old.published_at))) AND (old.is_current IS TRUE) AND (new.is_current IS FALSE) AND (NOT (new.current_since IS DISTINCT FROM old.current_since))))) EXECUTE FUNCTION core.guard_invoice_version();


--
-- Name: invoice_version invoice_version_refs_insert; Type: TRIGGER; Schema: core; Owner: invoice_owner
--

CREATE TRIGGER invoice_version_refs_insert AFTER INSERT ON core.invoice_version REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION core.check_invoice_version_refs();


--
-- Name: invoice_version invoice_version_refs_update; Type: TRIGGER; Schema: core; Owner: invoice_owner
--

CREATE TRIGGER invoice_version_refs_update AFTER UPDATE ON core.invoice_version REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION core.check_invoice_version_refs();


--
-- Name: batch batch_keep_referenced; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE TRIGGER batch_keep_referenced AFTER DELETE ON ingest.batch REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION core.keep_referenced_rows();


--
-- Name: batch batch_keep_referenced_key; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE TRIGGER batch_keep_referenced_key AFTER UPDATE OF batch_id ON ingest.batch FOR EACH ROW WHEN ((old.batch_id IS DISTINCT FROM new.batch_id)) EXECUTE FUNCTION core.keep_referenced_rows();


--
-- Name: batch batch_keep_referenced_truncate; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE TRIGGER batch_keep_referenced_truncate BEFORE TRUNCATE ON ingest.batch FOR EACH STATEMENT EXECUTE FUNCTION core.keep_referenced_rows();


--
-- Name: currency currency_keep_referenced; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE TRIGGER currency_keep_referenced AFTER DELETE ON ingest.currency REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION core.keep_referenced_rows();


--
-- Name: currency currency_keep_referenced_key; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE TRIGGER currency_keep_referenced_key AFTER UPDATE OF code ON ingest.currency FOR EACH ROW WHEN ((old.code IS DISTINCT FROM new.code)) EXECUTE FUNCTION core.keep_referenced_rows();


--
-- Name: currency currency_keep_referenced_truncate; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE TRIGGER currency_keep_referenced_truncate BEFORE TRUNCATE ON ingest.currency FOR EACH STATEMENT EXECUTE FUNCTION core.keep_referenced_rows();


--
-- Name: history_instant history_instant_at_commit; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE CONSTRAINT TRIGGER history_instant_at_commit AFTER INSERT ON ingest.history_instant DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ingest.history_instant_at_commit();


--
-- Name: operator_action operator_action_append_only; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE TRIGGER operator_action_append_only BEFORE DELETE OR UPDATE ON ingest.operator_action FOR EACH ROW EXECUTE FUNCTION ingest.guard_operator_action();


--
-- Name: operator_action operator_action_no_truncate; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE TRIGGER operator_action_no_truncate BEFORE TRUNCATE ON ingest.operator_action FOR EACH STATEMENT EXECUTE FUNCTION ingest.guard_operator_action();


--
-- Name: operator_action operator_action_stamp; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE TRIGGER operator_action_stamp BEFORE INSERT ON ingest.operator_action FOR EACH ROW EXECUTE FUNCTION ingest.guard_operator_action();


--
-- Name: outbox outbox_round; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE TRIGGER outbox_round BEFORE INSERT ON ingest.outbox FOR EACH ROW EXECUTE FUNCTION ingest.number_outbox_round();


--
-- Name: batch publication_reconciles; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE CONSTRAINT TRIGGER publication_reconciles AFTER UPDATE OF state ON ingest.batch DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (((new.state = 'published'::text) AND (old.state IS DISTINCT FROM 'published'::text))) EXECUTE FUNCTION ingest.check_publication();


--
-- Name: source source_keep_referenced; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE TRIGGER source_keep_referenced AFTER DELETE ON ingest.source REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION core.keep_referenced_rows();


--
-- Name: source source_keep_referenced_key; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE TRIGGER source_keep_referenced_key AFTER UPDATE OF source ON ingest.source FOR EACH ROW WHEN ((old.source IS DISTINCT FROM new.source)) EXECUTE FUNCTION core.keep_referenced_rows();


--
-- Name: source source_keep_referenced_truncate; Type: TRIGGER; Schema: ingest; Owner: invoice_owner
--

CREATE TRIGGER source_keep_referenced_truncate BEFORE TRUNCATE ON ingest.source FOR EACH STATEMENT EXECUTE FUNCTION core.keep_referenced_rows();


--
-- Name: invoice_line invoice_line_scope; Type: TRIGGER; Schema: staging; Owner: invoice_owner
--

CREATE TRIGGER invoice_line_scope AFTER INSERT ON staging.invoice_line REFERENCING NEW TABLE AS staged FOR EACH STATEMENT EXECUTE FUNCTION ingest.check_staging_scope();


--
-- Name: invoice_valid_shared invoice_valid_scope; Type: TRIGGER; Schema: staging; Owner: invoice_owner
--

CREATE TRIGGER invoice_valid_scope AFTER INSERT ON staging.invoice_valid_shared REFERENCING NEW TABLE AS staged FOR EACH STATEMENT EXECUTE FUNCTION ingest.check_typed_staging_scope();


--
-- Name: invoice_closure invoice_closure_batch_id_fkey; Type: FK CONSTRAINT; Schema: core; Owner: invoice_owner
--

ALTER TABLE ONLY core.invoice_closure
    ADD CONSTRAINT invoice_closure_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: invoice_closure invoice_closure_reverted_by_action_fkey; Type: FK CONSTRAINT; Schema: core; Owner: invoice_owner
--

ALTER TABLE ONLY core.invoice_closure
    ADD CONSTRAINT invoice_closure_reverted_by_action_fkey FOREIGN KEY (reverted_by_action) REFERENCES ingest.operator_action(action_id);


--
-- Name: invoice_version_period invoice_version_period_restored_by_action_fkey; Type: FK CONSTRAINT; Schema: core; Owner: invoice_owner
--

ALTER TABLE ONLY core.invoice_version_period
    ADD CONSTRAINT invoice_version_period_restored_by_action_fkey FOREIGN KEY (restored_by_action) REFERENCES ingest.operator_action(action_id);


--
-- Name: invoice_version_reverted invoice_version_reverted_reverted_by_action_fkey; Type: FK CONSTRAINT; Schema: core; Owner: invoice_owner
--

ALTER TABLE ONLY core.invoice_version_reverted
    ADD CONSTRAINT invoice_version_reverted_reverted_by_action_fkey FOREIGN KEY (reverted_by_action) REFERENCES ingest.operator_action(action_id);


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
-- Name: confirmation confirmation_request_action_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.confirmation
    ADD CONSTRAINT confirmation_request_action_id_fkey FOREIGN KEY (request_action_id) REFERENCES ingest.operator_action(action_id);


--
-- Name: history_instant history_instant_batch_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.history_instant
    ADD CONSTRAINT history_instant_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: history_instant history_instant_source_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.history_instant
    ADD CONSTRAINT history_instant_source_fkey FOREIGN KEY (source) REFERENCES ingest.source(source);


--
-- Name: operator_action operator_action_batch_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.operator_action
    ADD CONSTRAINT operator_action_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: operator_action operator_action_confirms_action_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.operator_action
    ADD CONSTRAINT operator_action_confirms_action_fkey FOREIGN KEY (confirms_action) REFERENCES ingest.operator_action(action_id);


--
-- Name: operator_action operator_action_notification_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.operator_action
    ADD CONSTRAINT operator_action_notification_id_fkey FOREIGN KEY (notification_id) REFERENCES ingest.outbox(notification_id);


--
-- Name: operator_action operator_action_source_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.operator_action
    ADD CONSTRAINT operator_action_source_fkey FOREIGN KEY (source) REFERENCES ingest.source(source);


--
-- Name: outbox outbox_batch_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.outbox
    ADD CONSTRAINT outbox_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: pending_publication pending_publication_attempt_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.pending_publication
    ADD CONSTRAINT pending_publication_attempt_id_fkey FOREIGN KEY (attempt_id) REFERENCES ingest.attempt(attempt_id);


--
-- Name: pending_publication pending_publication_batch_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.pending_publication
    ADD CONSTRAINT pending_publication_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: pending_publication pending_publication_source_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.pending_publication
    ADD CONSTRAINT pending_publication_source_fkey FOREIGN KEY (source) REFERENCES ingest.source(source);


--
-- Name: rejection_row rejection_row_batch_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.rejection_row
    ADD CONSTRAINT rejection_row_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: rejection_superseded rejection_superseded_action_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.rejection_superseded
    ADD CONSTRAINT rejection_superseded_action_id_fkey FOREIGN KEY (action_id) REFERENCES ingest.operator_action(action_id);


--
-- Name: rejection_superseded rejection_superseded_batch_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.rejection_superseded
    ADD CONSTRAINT rejection_superseded_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: replay_authorization replay_authorization_action_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.replay_authorization
    ADD CONSTRAINT replay_authorization_action_id_fkey FOREIGN KEY (action_id) REFERENCES ingest.operator_action(action_id);


--
-- Name: replay_authorization replay_authorization_batch_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.replay_authorization
    ADD CONSTRAINT replay_authorization_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: replay_authorization replay_authorization_consumed_by_attempt_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.replay_authorization
    ADD CONSTRAINT replay_authorization_consumed_by_attempt_id_fkey FOREIGN KEY (consumed_by_attempt_id) REFERENCES ingest.attempt(attempt_id);


--
-- Name: source_format source_format_source_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.source_format
    ADD CONSTRAINT source_format_source_fkey FOREIGN KEY (source) REFERENCES ingest.source(source);


--
-- Name: source source_format_version_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.source
    ADD CONSTRAINT source_format_version_fkey FOREIGN KEY (source, format_version) REFERENCES ingest.source_format(source, version);


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
-- Name: staging_purge staging_purge_batch_id_fkey; Type: FK CONSTRAINT; Schema: ingest; Owner: invoice_owner
--

ALTER TABLE ONLY ingest.staging_purge
    ADD CONSTRAINT staging_purge_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES ingest.batch(batch_id);


--
-- Name: SCHEMA ingest; Type: ACL; Schema: -; Owner: invoice_owner
--

GRANT USAGE ON SCHEMA ingest TO invoice_loader;
GRANT USAGE ON SCHEMA ingest TO invoice_operator;


--
-- Name: SCHEMA loader_meta; Type: ACL; Schema: -; Owner: invoice_owner
--

GRANT USAGE ON SCHEMA loader_meta TO invoice_loader;
GRANT USAGE ON SCHEMA loader_meta TO invoice_operator;


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
-- Name: FUNCTION check_invoice_version_refs(); Type: ACL; Schema: core; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION core.check_invoice_version_refs() FROM PUBLIC;


--
-- Name: FUNCTION guard_invoice_version(); Type: ACL; Schema: core; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION core.guard_invoice_version() FROM PUBLIC;


--
-- Name: FUNCTION keep_referenced_rows(); Type: ACL; Schema: core; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION core.keep_referenced_rows() FROM PUBLIC;


--
-- Name: FUNCTION abandon_batch(p_batch_id bigint, p_attempt_id bigint, p_reason text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.abandon_batch(p_batch_id bigint, p_attempt_id bigint, p_reason text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.abandon_batch(p_batch_id bigint, p_attempt_id bigint, p_reason text) TO invoice_loader;


--
-- Name: FUNCTION absence_problem(p_batch_id bigint, p_source ingest.source, p_absent integer, p_current integer); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.absence_problem(p_batch_id bigint, p_source ingest.source, p_absent integer, p_current integer) FROM PUBLIC;


--
-- Name: FUNCTION absent_invoices(p_batch_id bigint, p_source text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.absent_invoices(p_batch_id bigint, p_source text) FROM PUBLIC;


--
-- Name: FUNCTION add_by_currency(p_a jsonb, p_b jsonb); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.add_by_currency(p_a jsonb, p_b jsonb) FROM PUBLIC;


--
-- Name: FUNCTION add_source(p_source text, p_policy text, p_max_rejected_share numeric, p_start_date date, p_feed_url text, p_allow_unknown_columns boolean, p_deadline time without time zone, p_retention_days integer, p_max_input_bytes bigint, p_max_decompressed_bytes bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.add_source(p_source text, p_policy text, p_max_rejected_share numeric, p_start_date date, p_feed_url text, p_allow_unknown_columns boolean, p_deadline time without time zone, p_retention_days integer, p_max_input_bytes bigint, p_max_decompressed_bytes bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.add_source(p_source text, p_policy text, p_max_rejected_share numeric, p_start_date date, p_feed_url text, p_allow_unknown_columns boolean, p_deadline time without time zone, p_retention_days integer, p_max_input_bytes bigint, p_max_decompressed_bytes bigint) TO invoice_operator;


--
-- Name: FUNCTION analyze_staging(p_step text, p_batch_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.analyze_staging(p_step text, p_batch_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.analyze_staging(p_step text, p_batch_id bigint) TO invoice_loader;


--
-- Name: FUNCTION approve_batch(p_batch_id bigint, p_reason text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.approve_batch(p_batch_id bigint, p_reason text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.approve_batch(p_batch_id bigint, p_reason text) TO invoice_operator;


--
-- Name: FUNCTION attempt_that_left(p_batch_id bigint, p_to_state text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.attempt_that_left(p_batch_id bigint, p_to_state text) FROM PUBLIC;


--
-- Name: FUNCTION begin_attempt(p_args jsonb); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.begin_attempt(p_args jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.begin_attempt(p_args jsonb) TO invoice_loader;


--
-- Name: FUNCTION check_publication(); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.check_publication() FROM PUBLIC;


--
-- Name: FUNCTION check_staging_scope(); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.check_staging_scope() FROM PUBLIC;


--
-- Name: FUNCTION check_typed_staging_scope(); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.check_typed_staging_scope() FROM PUBLIC;


--
-- Name: FUNCTION claim_notifications(p_limit integer, p_claimer text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.claim_notifications(p_limit integer, p_claimer text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.claim_notifications(p_limit integer, p_claimer text) TO invoice_loader;


--
-- Name: FUNCTION clear_typed_staging(p_batch_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.clear_typed_staging(p_batch_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION close_absent_invoices(p_batch_id bigint, p_source text, p_now timestamp with time zone); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.close_absent_invoices(p_batch_id bigint, p_source text, p_now timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION confirm_action(p_action_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.confirm_action(p_action_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.confirm_action(p_action_id bigint) TO invoice_operator;


--
-- Name: FUNCTION consume_replay(p_batch_id bigint, p_attempt_id bigint, p_manifest jsonb, p_record_count integer, p_control_total numeric); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.consume_replay(p_batch_id bigint, p_attempt_id bigint, p_manifest jsonb, p_record_count integer, p_control_total numeric) FROM PUBLIC;


--
-- Name: FUNCTION content_hash(p_status text, p_document_type text, p_customer_id text, p_invoice_date date, p_due_date date, p_currency text, p_net_amount numeric, p_tax_amount numeric, p_gross_amount numeric, p_description text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.content_hash(p_status text, p_document_type text, p_customer_id text, p_invoice_date date, p_due_date date, p_currency text, p_net_amount numeric, p_tax_amount numeric, p_gross_amount numeric, p_description text) FROM PUBLIC;


--
-- Name: FUNCTION drop_rejected_records(p_batch_id bigint, p_record_nos integer[]); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.drop_rejected_records(p_batch_id bigint, p_record_nos integer[]) FROM PUBLIC;


--
-- Name: FUNCTION drop_typed_staging(p_partition regclass); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.drop_typed_staging(p_partition regclass) FROM PUBLIC;


--
-- Name: FUNCTION failing_records(p_batch_id bigint, p_business_date date); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.failing_records(p_batch_id bigint, p_business_date date) FROM PUBLIC;


--
-- Name: FUNCTION file_format_of(p_source text, p_sha256 text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.file_format_of(p_source text, p_sha256 text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.file_format_of(p_source text, p_sha256 text) TO invoice_loader;
GRANT ALL ON FUNCTION ingest.file_format_of(p_source text, p_sha256 text) TO invoice_operator;


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
-- Name: FUNCTION guard_operator_action(); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.guard_operator_action() FROM PUBLIC;


--
-- Name: FUNCTION history_instant_at_commit(); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.history_instant_at_commit() FROM PUBLIC;


--
-- Name: FUNCTION history_stamp(p_source text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.history_stamp(p_source text) FROM PUBLIC;


--
-- Name: FUNCTION holds_runner_lock(p_source text, p_business_date date); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.holds_runner_lock(p_source text, p_business_date date) FROM PUBLIC;


--
-- Name: FUNCTION is_iso_date(p text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.is_iso_date(p text) FROM PUBLIC;


--
-- Name: FUNCTION is_plain_decimal(p text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.is_plain_decimal(p text) FROM PUBLIC;


--
-- Name: FUNCTION key_history(p_batch_id bigint, p_source text, p_min text, p_max text, p_distinct boolean); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.key_history(p_batch_id bigint, p_source text, p_min text, p_max text, p_distinct boolean) FROM PUBLIC;


--
-- Name: FUNCTION lock_batch_for_publication(p_batch_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.lock_batch_for_publication(p_batch_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION mark_notification(p_notification_id bigint, p_outcome text, p_status integer, p_detail text, p_sink text, p_response text, p_retry_after interval); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.mark_notification(p_notification_id bigint, p_outcome text, p_status integer, p_detail text, p_sink text, p_response text, p_retry_after interval) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.mark_notification(p_notification_id bigint, p_outcome text, p_status integer, p_detail text, p_sink text, p_response text, p_retry_after interval) TO invoice_loader;


--
-- Name: FUNCTION mark_staged(p_batch_id bigint, p_attempt_id bigint, p_sent bigint, p_copied bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.mark_staged(p_batch_id bigint, p_attempt_id bigint, p_sent bigint, p_copied bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.mark_staged(p_batch_id bigint, p_attempt_id bigint, p_sent bigint, p_copied bigint) TO invoice_loader;


--
-- Name: FUNCTION merge_accounted(p_batch_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.merge_accounted(p_batch_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION merge_insert(p_batch_id bigint, p_source text, p_now timestamp with time zone); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.merge_insert(p_batch_id bigint, p_source text, p_now timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION merge_insert_new_keys(p_batch_id bigint, p_source text, p_now timestamp with time zone); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.merge_insert_new_keys(p_batch_id bigint, p_source text, p_now timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION merge_insert_new_keys_one_per_key(p_batch_id bigint, p_source text, p_now timestamp with time zone); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.merge_insert_new_keys_one_per_key(p_batch_id bigint, p_source text, p_now timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION merge_insert_one_per_key(p_batch_id bigint, p_source text, p_now timestamp with time zone); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.merge_insert_one_per_key(p_batch_id bigint, p_source text, p_now timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION merge_supersede(p_batch_id bigint, p_source text, p_now timestamp with time zone); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.merge_supersede(p_batch_id bigint, p_source text, p_now timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION merge_supersede_one_per_key(p_batch_id bigint, p_source text, p_now timestamp with time zone); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.merge_supersede_one_per_key(p_batch_id bigint, p_source text, p_now timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION notification_body(p_batch_id bigint, p_kind text, p_payload jsonb); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.notification_body(p_batch_id bigint, p_kind text, p_payload jsonb) FROM PUBLIC;


--
-- Name: FUNCTION notification_lock_key(p_notification_id bigint, OUT key1 integer, OUT key2 integer); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.notification_lock_key(p_notification_id bigint, OUT key1 integer, OUT key2 integer) FROM PUBLIC;


--
-- Name: FUNCTION number_outbox_round(); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.number_outbox_round() FROM PUBLIC;


--
-- Name: FUNCTION parse_manifest(p_manifest text, p_expect_count bigint, p_expect_total text, p_required boolean, p_source text, p_business_date date, p_sha256 text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.parse_manifest(p_manifest text, p_expect_count bigint, p_expect_total text, p_required boolean, p_source text, p_business_date date, p_sha256 text) FROM PUBLIC;


--
-- Name: FUNCTION printable(p_text text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.printable(p_text text) FROM PUBLIC;


--
-- Name: FUNCTION publication_difference(p_batch_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.publication_difference(p_batch_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION publication_lock_key(p_source text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.publication_lock_key(p_source text) FROM PUBLIC;


--
-- Name: FUNCTION publication_turn(p_batch_id bigint, OUT waiting_for date, OUT advances boolean); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.publication_turn(p_batch_id bigint, OUT waiting_for date, OUT advances boolean) FROM PUBLIC;


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
-- Name: FUNCTION reconcile_currencies(p_totals jsonb, p_manifest jsonb, p_multi boolean); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.reconcile_currencies(p_totals jsonb, p_manifest jsonb, p_multi boolean) FROM PUBLIC;


--
-- Name: FUNCTION reconciliation_difference(p_found jsonb, p_batch ingest.batch); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.reconciliation_difference(p_found jsonb, p_batch ingest.batch) FROM PUBLIC;


--
-- Name: FUNCTION record_busy_attempt(p_args jsonb); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.record_busy_attempt(p_args jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.record_busy_attempt(p_args jsonb) TO invoice_loader;


--
-- Name: FUNCTION record_sweep_run(p_started_at timestamp with time zone, p_failed_part text, p_error text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.record_sweep_run(p_started_at timestamp with time zone, p_failed_part text, p_error text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.record_sweep_run(p_started_at timestamp with time zone, p_failed_part text, p_error text) TO invoice_loader;
GRANT ALL ON FUNCTION ingest.record_sweep_run(p_started_at timestamp with time zone, p_failed_part text, p_error text) TO invoice_operator;


--
-- Name: FUNCTION refuse_unscoped_staging(p_batch_ids bigint[]); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.refuse_unscoped_staging(p_batch_ids bigint[]) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.refuse_unscoped_staging(p_batch_ids bigint[]) TO invoice_loader;


--
-- Name: FUNCTION reject_batch(p_batch_id bigint, p_reason text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.reject_batch(p_batch_id bigint, p_reason text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.reject_batch(p_batch_id bigint, p_reason text) TO invoice_operator;


--
-- Name: FUNCTION reject_closed_period(p_batch_id bigint, p_locked_through date); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.reject_closed_period(p_batch_id bigint, p_locked_through date) FROM PUBLIC;


--
-- Name: FUNCTION reject_revision_conflicts(p_batch_id bigint, p_source text, p_distinct boolean, p_min text, p_max text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.reject_revision_conflicts(p_batch_id bigint, p_source text, p_distinct boolean, p_min text, p_max text) FROM PUBLIC;


--
-- Name: FUNCTION rejected_gross(p_batch_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.rejected_gross(p_batch_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION rejected_records(p_batch_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.rejected_records(p_batch_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION rejected_share_problem(p_source ingest.source, p_rejected integer, p_records integer); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.rejected_share_problem(p_source ingest.source, p_rejected integer, p_records integer) FROM PUBLIC;


--
-- Name: FUNCTION rejection_export(p_batch_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.rejection_export(p_batch_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.rejection_export(p_batch_id bigint) TO invoice_loader;
GRANT ALL ON FUNCTION ingest.rejection_export(p_batch_id bigint) TO invoice_operator;


--
-- Name: FUNCTION replay_batch(p_batch_id bigint, p_reason text, p_allow_absent_share boolean); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.replay_batch(p_batch_id bigint, p_reason text, p_allow_absent_share boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.replay_batch(p_batch_id bigint, p_reason text, p_allow_absent_share boolean) TO invoice_operator;


--
-- Name: FUNCTION request_confirmation(p_action text, p_source text, p_batch_id bigint, p_date date, p_reason text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.request_confirmation(p_action text, p_source text, p_batch_id bigint, p_date date, p_reason text) FROM PUBLIC;


--
-- Name: TABLE pending_publication; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.pending_publication TO invoice_loader;
GRANT SELECT ON TABLE ingest.pending_publication TO invoice_operator;


--
-- Name: FUNCTION require_awaiting_approval(p_batch_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.require_awaiting_approval(p_batch_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION require_operator(p_what text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.require_operator(p_what text) FROM PUBLIC;


--
-- Name: FUNCTION resolve_notification(p_notification_id bigint, p_as text, p_reason text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.resolve_notification(p_notification_id bigint, p_as text, p_reason text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.resolve_notification(p_notification_id bigint, p_as text, p_reason text) TO invoice_operator;


--
-- Name: FUNCTION restage_lost_batch(p_batch_id bigint, p_from text, p_attempt_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.restage_lost_batch(p_batch_id bigint, p_from text, p_attempt_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION resume_attempt(p_attempt_id bigint, p_xid text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.resume_attempt(p_attempt_id bigint, p_xid text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.resume_attempt(p_attempt_id bigint, p_xid text) TO invoice_loader;


--
-- Name: FUNCTION revert_batch(p_batch_id bigint, p_reason text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.revert_batch(p_batch_id bigint, p_reason text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.revert_batch(p_batch_id bigint, p_reason text) TO invoice_operator;


--
-- Name: FUNCTION revert_to_date(p_source text, p_date date, p_reason text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.revert_to_date(p_source text, p_date date, p_reason text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.revert_to_date(p_source text, p_date date, p_reason text) TO invoice_operator;


--
-- Name: FUNCTION revision_conflicts(p_batch_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.revision_conflicts(p_batch_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION runner_lock_key(p_source text, p_business_date date, OUT key1 integer, OUT key2 integer); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.runner_lock_key(p_source text, p_business_date date, OUT key1 integer, OUT key2 integer) FROM PUBLIC;


--
-- Name: FUNCTION set_period_lock(p_source text, p_close boolean, p_through date, p_reason text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.set_period_lock(p_source text, p_close boolean, p_through date, p_reason text) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.set_period_lock(p_source text, p_close boolean, p_through date, p_reason text) TO invoice_operator;


--
-- Name: FUNCTION set_source_approval(p_source text, p_require boolean); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.set_source_approval(p_source text, p_require boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.set_source_approval(p_source text, p_require boolean) TO invoice_operator;


--
-- Name: FUNCTION set_source_extract(p_source text, p_extract text, p_max_absent_share numeric); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.set_source_extract(p_source text, p_extract text, p_max_absent_share numeric) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.set_source_extract(p_source text, p_extract text, p_max_absent_share numeric) TO invoice_operator;


--
-- Name: FUNCTION set_source_format(p_source text, p_format jsonb); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.set_source_format(p_source text, p_format jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.set_source_format(p_source text, p_format jsonb) TO invoice_operator;


--
-- Name: FUNCTION staged_currency_totals(p_batch_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.staged_currency_totals(p_batch_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION staged_totals(p_batch_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.staged_totals(p_batch_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION status_report(p_source text, p_batch_id bigint, p_limit integer, p_state text, p_since date); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.status_report(p_source text, p_batch_id bigint, p_limit integer, p_state text, p_since date) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.status_report(p_source text, p_batch_id bigint, p_limit integer, p_state text, p_since date) TO invoice_loader;
GRANT ALL ON FUNCTION ingest.status_report(p_source text, p_batch_id bigint, p_limit integer, p_state text, p_since date) TO invoice_operator;


--
-- Name: PROCEDURE sweep(IN p_orphan_after interval, IN p_chunk integer, IN p_cron_keep_days integer); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON PROCEDURE ingest.sweep(IN p_orphan_after interval, IN p_chunk integer, IN p_cron_keep_days integer) FROM PUBLIC;
GRANT ALL ON PROCEDURE ingest.sweep(IN p_orphan_after interval, IN p_chunk integer, IN p_cron_keep_days integer) TO invoice_loader;
GRANT ALL ON PROCEDURE ingest.sweep(IN p_orphan_after interval, IN p_chunk integer, IN p_cron_keep_days integer) TO invoice_operator;


--
-- Name: FUNCTION sweep_abandoned_attempts(); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.sweep_abandoned_attempts() FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.sweep_abandoned_attempts() TO invoice_loader;
GRANT ALL ON FUNCTION ingest.sweep_abandoned_attempts() TO invoice_operator;


--
-- Name: FUNCTION sweep_cron_history(p_keep_days integer); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.sweep_cron_history(p_keep_days integer) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.sweep_cron_history(p_keep_days integer) TO invoice_loader;
GRANT ALL ON FUNCTION ingest.sweep_cron_history(p_keep_days integer) TO invoice_operator;


--
-- Name: FUNCTION sweep_deadlines(p_limit integer); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.sweep_deadlines(p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.sweep_deadlines(p_limit integer) TO invoice_loader;
GRANT ALL ON FUNCTION ingest.sweep_deadlines(p_limit integer) TO invoice_operator;


--
-- Name: FUNCTION sweep_orphan_received(p_after interval, p_limit integer); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.sweep_orphan_received(p_after interval, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.sweep_orphan_received(p_after interval, p_limit integer) TO invoice_loader;
GRANT ALL ON FUNCTION ingest.sweep_orphan_received(p_after interval, p_limit integer) TO invoice_operator;


--
-- Name: FUNCTION sweep_publish_ready(p_run_id uuid, p_skip bigint[]); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.sweep_publish_ready(p_run_id uuid, p_skip bigint[]) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.sweep_publish_ready(p_run_id uuid, p_skip bigint[]) TO invoice_loader;
GRANT ALL ON FUNCTION ingest.sweep_publish_ready(p_run_id uuid, p_skip bigint[]) TO invoice_operator;


--
-- Name: FUNCTION sweep_retention(p_chunk integer); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.sweep_retention(p_chunk integer) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.sweep_retention(p_chunk integer) TO invoice_loader;
GRANT ALL ON FUNCTION ingest.sweep_retention(p_chunk integer) TO invoice_operator;


--
-- Name: FUNCTION sweep_typed_staging(); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.sweep_typed_staging() FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.sweep_typed_staging() TO invoice_loader;
GRANT ALL ON FUNCTION ingest.sweep_typed_staging() TO invoice_operator;


--
-- Name: FUNCTION take_awaiting_approval(p_action text, p_batch_id bigint, p_reason text, OUT batch ingest.batch, OUT pending ingest.pending_publication); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.take_awaiting_approval(p_action text, p_batch_id bigint, p_reason text, OUT batch ingest.batch, OUT pending ingest.pending_publication) FROM PUBLIC;


--
-- Name: FUNCTION transition(p_batch_id bigint, p_from text, p_to text, p_attempt_id bigint, p_detail jsonb); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.transition(p_batch_id bigint, p_from text, p_to text, p_attempt_id bigint, p_detail jsonb) FROM PUBLIC;


--
-- Name: FUNCTION try_runner_xact_lock(p_source text, p_business_date date); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.try_runner_xact_lock(p_source text, p_business_date date) FROM PUBLIC;


--
-- Name: FUNCTION typed_fields(p_row staging.invoice_valid); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.typed_fields(p_row staging.invoice_valid) FROM PUBLIC;


--
-- Name: FUNCTION typed_staging(p_batch_id bigint, p_attach boolean); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.typed_staging(p_batch_id bigint, p_attach boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.typed_staging(p_batch_id bigint, p_attach boolean) TO invoice_loader;


--
-- Name: FUNCTION typed_staging_partition(p_batch_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.typed_staging_partition(p_batch_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION validate_batch(p_batch_id bigint, p_attempt_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.validate_batch(p_batch_id bigint, p_attempt_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.validate_batch(p_batch_id bigint, p_attempt_id bigint) TO invoice_loader;


--
-- Name: FUNCTION write_batch(p_batch_id bigint, p_attempt_id bigint); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.write_batch(p_batch_id bigint, p_attempt_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION ingest.write_batch(p_batch_id bigint, p_attempt_id bigint) TO invoice_loader;


--
-- Name: FUNCTION write_notification(p_batch_id bigint, p_kind text, p_payload jsonb, p_dedupe_key text); Type: ACL; Schema: ingest; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION ingest.write_notification(p_batch_id bigint, p_kind text, p_payload jsonb, p_dedupe_key text) FROM PUBLIC;


--
-- Name: FUNCTION invoice_as_of(p_ts timestamp with time zone); Type: ACL; Schema: reporting; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION reporting.invoice_as_of(p_ts timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION reporting.invoice_as_of(p_ts timestamp with time zone) TO invoice_reader;
GRANT ALL ON FUNCTION reporting.invoice_as_of(p_ts timestamp with time zone) TO invoice_loader;
GRANT ALL ON FUNCTION reporting.invoice_as_of(p_ts timestamp with time zone) TO invoice_operator;


--
-- Name: FUNCTION invoice_as_of_batch(p_batch_id bigint); Type: ACL; Schema: reporting; Owner: invoice_owner
--

REVOKE ALL ON FUNCTION reporting.invoice_as_of_batch(p_batch_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION reporting.invoice_as_of_batch(p_batch_id bigint) TO invoice_reader;
GRANT ALL ON FUNCTION reporting.invoice_as_of_batch(p_batch_id bigint) TO invoice_loader;
GRANT ALL ON FUNCTION reporting.invoice_as_of_batch(p_batch_id bigint) TO invoice_operator;


--
-- Name: TABLE invoice_closure; Type: ACL; Schema: core; Owner: invoice_owner
--

GRANT SELECT ON TABLE core.invoice_closure TO invoice_operator;


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
-- Name: TABLE batch_transition; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.batch_transition TO invoice_loader;
GRANT SELECT ON TABLE ingest.batch_transition TO invoice_operator;


--
-- Name: TABLE confirmation; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.confirmation TO invoice_loader;
GRANT SELECT ON TABLE ingest.confirmation TO invoice_operator;


--
-- Name: TABLE currency; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.currency TO invoice_loader;
GRANT SELECT ON TABLE ingest.currency TO invoice_operator;


--
-- Name: TABLE field_rule; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.field_rule TO invoice_loader;
GRANT SELECT ON TABLE ingest.field_rule TO invoice_operator;


--
-- Name: TABLE history_instant; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.history_instant TO invoice_loader;
GRANT SELECT ON TABLE ingest.history_instant TO invoice_operator;


--
-- Name: TABLE notification; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.notification TO invoice_loader;
GRANT SELECT ON TABLE ingest.notification TO invoice_operator;


--
-- Name: TABLE operator_action; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.operator_action TO invoice_loader;
GRANT SELECT ON TABLE ingest.operator_action TO invoice_operator;


--
-- Name: TABLE rejection; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.rejection TO invoice_loader;
GRANT SELECT ON TABLE ingest.rejection TO invoice_operator;


--
-- Name: TABLE rejection_superseded; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.rejection_superseded TO invoice_loader;
GRANT SELECT ON TABLE ingest.rejection_superseded TO invoice_operator;


--
-- Name: TABLE replay_authorization; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.replay_authorization TO invoice_loader;
GRANT SELECT ON TABLE ingest.replay_authorization TO invoice_operator;


--
-- Name: TABLE source_overview; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.source_overview TO invoice_loader;
GRANT SELECT ON TABLE ingest.source_overview TO invoice_operator;


--
-- Name: TABLE staging_purge; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.staging_purge TO invoice_loader;
GRANT SELECT ON TABLE ingest.staging_purge TO invoice_operator;


--
-- Name: TABLE sweep_overview; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.sweep_overview TO invoice_loader;
GRANT SELECT ON TABLE ingest.sweep_overview TO invoice_operator;


--
-- Name: TABLE watermark; Type: ACL; Schema: ingest; Owner: invoice_owner
--

GRANT SELECT ON TABLE ingest.watermark TO invoice_loader;
GRANT SELECT ON TABLE ingest.watermark TO invoice_operator;


--
-- Name: TABLE schema_migration; Type: ACL; Schema: loader_meta; Owner: invoice_owner
--

GRANT SELECT ON TABLE loader_meta.schema_migration TO invoice_loader;
GRANT SELECT ON TABLE loader_meta.schema_migration TO invoice_operator;


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
-- Name: TABLE invoice_valid_shared; Type: ACL; Schema: staging; Owner: invoice_owner
--

GRANT INSERT ON TABLE staging.invoice_valid_shared TO invoice_loader;


--
-- Name: DEFAULT PRIVILEGES FOR FUNCTIONS; Type: DEFAULT ACL; Schema: -; Owner: invoice_owner
--

ALTER DEFAULT PRIVILEGES FOR ROLE invoice_owner REVOKE ALL ON FUNCTIONS  FROM PUBLIC;


--
-- PostgreSQL database dump complete
--


