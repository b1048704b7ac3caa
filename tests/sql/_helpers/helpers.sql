-- tests/sql/_helpers/helpers.sql: fixtures for the pgTAP suite, in schema
-- `tests`.  tests/run-sql-tests.sh loads this file once into the template
-- database (psql --single-transaction), so every test database starts with
-- it; test files do not include it.
--
-- The helpers act as the loader and the operator would: through the entry
-- points, switched to the invoice_loader / invoice_operator role for the
-- call, with raw text values in staging.invoice_line exactly as COPY
-- (format csv) stores them (an empty unquoted field is NULL, a quoted empty
-- field is '').  They never assert anything: tests check the state.
--
-- Records are text[] in the order of tests.columns(); a file is a 2-D text[]
-- (one sub-array per record), e.g.
--   array[tests.line('INV-1'), tests.line('INV-2', p_net_amount => 'NaN')]
-- tests.seed_lines() is the seed case: 20 invoices totalling 4,200.00.

create schema tests;
comment on schema tests is 'pgTAP fixtures (test databases only).';

-- The roles switch with set_config('role', ..., true), the function form of
-- SET LOCAL ROLE: it lasts until the helper restores the previous role, or
-- until the (sub)transaction ends, so a helper that fails inside throws_ok
-- leaves the role as it was.

-- The standard header of a file, as the loader maps it to staging columns.
create function tests.columns()
returns text[]
language sql
immutable
as $$
  select array['invoice_number', 'revision', 'status', 'document_type', 'customer_id',
               'invoice_date', 'due_date', 'currency', 'net_amount', 'tax_amount',
               'gross_amount', 'description']
$$;

-- The business date most tests load (the sample's).
create function tests.d()
returns date
language sql
immutable
as $$ select date '2026-11-28' $$;

-- One record that passes every rule for business date tests.d() (and any
-- later date); override a field by name: tests.line('INV-7', p_revision => '2').
create function tests.line(
  p_invoice_number text default 'INV-1',
  p_revision       text default '0',
  p_status         text default 'ISSUED',
  p_document_type  text default 'INVOICE',
  p_customer_id    text default 'CUST-1',
  p_invoice_date   text default '2026-11-20',
  p_due_date       text default null,
  p_currency       text default 'EUR',
  p_net_amount     text default '100.00',
  p_tax_amount     text default '20.00',
  p_gross_amount   text default '120.00',
  p_description    text default null)
returns text[]
language sql
immutable
as $$
  select array[p_invoice_number, p_revision, p_status, p_document_type, p_customer_id,
               p_invoice_date, p_due_date, p_currency, p_net_amount, p_tax_amount,
               p_gross_amount, p_description]
$$;

-- The seed case: p_count invoices <prefix>0001.. with net 16*i, tax 4*i,
-- gross 20*i (EUR); 20 of them total exactly 4,200.00.
create function tests.seed_lines(p_count integer default 20, p_prefix text default 'INV-')
returns text[]
language sql
immutable
as $$
  select coalesce(array_agg(tests.line(
           p_invoice_number => p_prefix || lpad(i::text, 4, '0'),
           p_customer_id    => 'CUST-' || (i % 5),
           p_net_amount     => (16 * i)::text || '.00',
           p_tax_amount     => (4 * i)::text || '.00',
           p_gross_amount   => (20 * i)::text || '.00',
           p_description    => 'seed invoice ' || i) order by i),
         '{}')
  from pg_catalog.generate_series(1, p_count) as i
$$;

-- A manifest (docs/reference/input-file.md) as the loader reads it from disk.
create function tests.manifest(
  p_source        text,
  p_business_date date,
  p_record_count  integer,
  p_control_total text)
returns text
language sql
immutable
as $$
  select pg_catalog.jsonb_build_object(
           'source', p_source,
           'business_date', pg_catalog.to_char(p_business_date, 'YYYY-MM-DD'),
           'record_count', p_record_count,
           'control_total', p_control_total)::text
$$;

-- Register a source as an operator would (ingest.add_source, as
-- invoice_operator).  require_control_totals has no option yet; false is set
-- directly.
create function tests.make_source(
  p_source                 text    default 'acme-erp',
  p_start_date             date    default null,
  p_policy                 text    default null,
  p_max_rejected_share     numeric default null,
  p_require_control_totals boolean default true)
returns text
language plpgsql
as $$
declare
  v_prev text := pg_catalog.current_setting('role');
begin
  perform pg_catalog.set_config('role', 'invoice_operator', true);
  perform ingest.add_source(p_source, p_policy, p_max_rejected_share, p_start_date);
  perform pg_catalog.set_config('role', v_prev, true);
  if not p_require_control_totals then
    update ingest.source as s set require_control_totals = false where s.source = p_source;
  end if;
  return p_source;
end;
$$;

-- The latest attempt of a batch (the one the loader is running).
create function tests.last_attempt(p_batch_id bigint)
returns bigint
language sql
stable
as $$
  select max(a.attempt_id) from ingest.attempt as a where a.batch_id = p_batch_id
$$;

-- ingest.begin_attempt's one jsonb argument, as the loader builds it
-- (sql/ingest/begin_attempt.sql lists the keys): the file's facts, no
-- problems found by the loader, a run of this session.
create function tests.begin_args(
  p_source        text,
  p_business_date date,
  p_sha256        text,
  p_size_bytes    bigint,
  p_file_name     text,
  p_columns       text[],
  p_manifest      text,
  p_file_records  bigint,
  p_expect_count  bigint default null,
  p_expect_total  text default null,
  p_problems      jsonb default '[]')
returns jsonb
language sql
volatile
as $$
  select pg_catalog.jsonb_build_object(
           'source', p_source,
           'business_date', pg_catalog.to_char(p_business_date, 'YYYY-MM-DD'),
           'sha256', p_sha256, 'size_bytes', p_size_bytes, 'file_name', p_file_name,
           'had_bom', false, 'columns', pg_catalog.to_jsonb(p_columns),
           'problems', p_problems, 'manifest', p_manifest,
           'expect_count', p_expect_count, 'expect_total', p_expect_total,
           'run_id', pg_catalog.gen_random_uuid(), 'host', 'sqltest',
           'pid', pg_catalog.pg_backend_pid(), 'file_records', p_file_records,
           'format_version', null, 'defaults', '[]'::jsonb)
$$;

-- What the loader does for one file up to the staged checkpoint:
-- ingest.begin_attempt, then (if the batch is received) the rows into
-- staging.invoice_line as COPY stores them and ingest.mark_staged, all as
-- invoice_loader.  Returns begin_attempt's row, with the state after staging.
--   p_rows        2-D text[] (a 1-D text[] is one record), columns p_columns
--                 (default tests.columns()); record_no is the position, from 1.
--   p_manifest    the manifest text; default: a correct one (record count
--                 and the sum of the plain-decimal gross amounts);
--                 p_no_manifest => true delivers none.
--   p_sha256      stands in for the file's bytes; default: a hash of source,
--                 date, columns and rows (so equal rows on two dates are two
--                 files, as two real files would differ).
--   p_stage       false: begin_attempt only.
--   p_sent        the count the loader claims it sent (default: the rows).
create function tests.stage_batch(
  p_source        text,
  p_business_date date,
  p_rows          text[],
  p_manifest      text    default null,
  p_no_manifest   boolean default false,
  p_columns       text[]  default null,
  p_file_name     text    default null,
  p_sha256        text    default null,
  p_stage         boolean default true,
  p_sent          bigint  default null)
returns table (batch_id bigint, attempt_id bigint, attempt_no integer, state text,
               created boolean)
language plpgsql
as $$
declare
  v_prev     text := pg_catalog.current_setting('role');
  v_lock_timeout text := pg_catalog.current_setting('lock_timeout');
  v_columns  text[] := coalesce(p_columns, tests.columns());
  v_rows     text[];
  v_n        integer;
  v_gross    integer;
  v_total    numeric;
  v_manifest text;
  v_sha      text;
  v_insert   text;
  v_args     jsonb;
  v_r        record;
begin
  v_rows := case when p_rows is null or pg_catalog.cardinality(p_rows) = 0 then '{}'::text[]
                 when pg_catalog.array_ndims(p_rows) = 1 then array[p_rows]
                 else p_rows end;
  v_n := coalesce(pg_catalog.array_length(v_rows, 1), 0);

  v_gross := pg_catalog.array_position(v_columns, 'gross_amount');
  select coalesce(sum(v_rows[i][v_gross]::numeric), 0) into v_total
  from pg_catalog.generate_series(1, v_n) as i
  where v_rows[i][v_gross] ~ '^-?[0-9]{1,18}(\.[0-9]+)?$';
  v_manifest := case when p_no_manifest then null
                     else coalesce(p_manifest,
                                   tests.manifest(p_source, p_business_date, v_n, v_total::text))
                end;
  v_sha := coalesce(p_sha256,
                    pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(
                      p_source || '|' || pg_catalog.to_char(p_business_date, 'YYYY-MM-DD')
                      || '|' || v_columns::text || '|' || v_rows::text, 'UTF8')), 'hex'));
  v_insert := pg_catalog.format(
    'insert into staging.invoice_line (batch_id, record_no, %s) '
    'select $1, i, %s from pg_catalog.generate_series(1, $2) as i',
    (select pg_catalog.string_agg(pg_catalog.quote_ident(c), ', ' order by k)
       from unnest(v_columns) with ordinality as t(c, k)),
    (select pg_catalog.string_agg(pg_catalog.format('$3[i][%s]', k), ', ' order by k)
       from pg_catalog.generate_subscripts(v_columns, 1) as k));

  -- The previous test file's session may still be ending (pg_prove starts
  -- the next file when the client is gone, the backend a moment later) and
  -- hold this runner lock: wait for it, at most 10 s, rather than take its
  -- IV203 for a failure.  Taken and given back at once; begin_attempt takes
  -- it for real.
  perform pg_catalog.set_config('lock_timeout', '10s', true);
  perform pg_catalog.pg_advisory_lock(pg_catalog.hashtext('invoice-loader:' || p_source),
                                      p_business_date - date '2000-01-01');
  perform pg_catalog.pg_advisory_unlock(pg_catalog.hashtext('invoice-loader:' || p_source),
                                        p_business_date - date '2000-01-01');
  perform pg_catalog.set_config('lock_timeout', v_lock_timeout, true);

  v_args := tests.begin_args(
    p_source, p_business_date, v_sha, pg_catalog.octet_length(v_rows::text)::bigint,
    coalesce(p_file_name, p_source || '-' || pg_catalog.to_char(p_business_date, 'YYYY-MM-DD') || '.csv'),
    v_columns, v_manifest, v_n::bigint);
  perform pg_catalog.set_config('role', 'invoice_loader', true);
  select * into v_r from ingest.begin_attempt(v_args) as b;
  if p_stage and v_r.state = 'received' then
    execute v_insert using v_r.batch_id, v_n, v_rows;
    perform ingest.mark_staged(v_r.batch_id, v_r.attempt_id, coalesce(p_sent, v_n));
    v_r.state := 'staged';
  end if;
  perform pg_catalog.set_config('role', v_prev, true);

  return query select v_r.batch_id, v_r.attempt_id, v_r.attempt_no, v_r.state, v_r.created;
end;
$$;

-- ingest.validate_batch as the loader calls it, with the batch's last attempt.
create function tests.validate(p_batch_id bigint)
returns table (state text, accepted integer, rejected integer)
language plpgsql
as $$
declare
  v_prev    text := pg_catalog.current_setting('role');
  v_attempt bigint := tests.last_attempt(p_batch_id);
  v_r       record;
begin
  perform pg_catalog.set_config('role', 'invoice_loader', true);
  select * into v_r from ingest.validate_batch(p_batch_id, v_attempt) as v;
  perform pg_catalog.set_config('role', v_prev, true);
  return query select v_r.state, v_r.accepted, v_r.rejected;
end;
$$;

-- ingest.publish_batch as the loader calls it, with the batch's last attempt.
create function tests.publish(p_batch_id bigint)
returns table (outcome text, state text, counts jsonb)
language plpgsql
as $$
declare
  v_prev    text := pg_catalog.current_setting('role');
  v_attempt bigint := tests.last_attempt(p_batch_id);
  v_r       record;
begin
  perform pg_catalog.set_config('role', 'invoice_loader', true);
  select * into v_r from ingest.publish_batch(p_batch_id, v_attempt) as p;
  perform pg_catalog.set_config('role', v_prev, true);
  return query select v_r.outcome, v_r.state, v_r.counts;
end;
$$;

-- ingest.write_batch as the loader calls it, with the batch's last attempt.
create function tests.write(p_batch_id bigint)
returns table (outcome text, state text, counts jsonb)
language plpgsql
as $$
declare
  v_prev    text := pg_catalog.current_setting('role');
  v_attempt bigint := tests.last_attempt(p_batch_id);
  v_r       record;
begin
  perform pg_catalog.set_config('role', 'invoice_loader', true);
  select * into v_r from ingest.write_batch(p_batch_id, v_attempt) as w;
  perform pg_catalog.set_config('role', v_prev, true);
  return query select v_r.outcome, v_r.state, v_r.counts;
end;
$$;

-- A whole `load`: stage, validate, publish (when validated), close the
-- attempt with the outcome.  Returns the batch, its final state and the
-- publish outcome (NULL when publication was not reached).
create function tests.load_batch(
  p_source        text,
  p_business_date date,
  p_rows          text[],
  p_manifest      text default null)
returns table (batch_id bigint, state text, outcome text)
language plpgsql
as $$
declare
  v_prev    text := pg_catalog.current_setting('role');
  v_batch   bigint;
  v_attempt bigint;
  v_state   text;
  v_outcome text;
begin
  select s.batch_id, s.attempt_id, s.state into v_batch, v_attempt, v_state
  from tests.stage_batch(p_source, p_business_date, p_rows, p_manifest) as s;
  if v_state = 'staged' then
    select v.state into v_state from tests.validate(v_batch) as v;
  end if;
  if v_state = 'validated' then
    select p.outcome, p.state into v_outcome, v_state from tests.publish(v_batch) as p;
  end if;
  perform pg_catalog.set_config('role', 'invoice_loader', true);
  -- (a batch awaiting approval closes its attempt as the loader does: waiting)
  perform ingest.finish_attempt(v_attempt,
                                case when v_outcome = 'awaiting_approval' then 'waiting'
                                     else coalesce(v_outcome, v_state) end,
                                null, null, null);
  perform pg_catalog.set_config('role', v_prev, true);
  return query select v_batch, v_state, v_outcome;
end;
$$;

-- A bare batch row in any state, for the state machine's own tests
-- (bypasses the entry points on purpose).
create function tests.make_batch(
  p_source        text,
  p_business_date date default date '2026-11-28',
  p_state         text default 'received')
returns bigint
language sql
as $$
  insert into ingest.batch (source, business_date, sha256, size_bytes, file_records, file_name, columns, state)
  values (p_source, p_business_date,
          pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(
            pg_catalog.gen_random_uuid()::text, 'UTF8')), 'hex'),
          0, 1, 'made-by-tests.csv', tests.columns(), p_state)
  returning batch_id
$$;

-- An open attempt of a batch made by tests.make_batch.
create function tests.make_attempt(p_batch_id bigint)
returns bigint
language sql
as $$
  insert into ingest.attempt (batch_id, attempt_no, run_id, host, pid, state_at_start)
  select p_batch_id, coalesce(max(a.attempt_no), 0) + 1, pg_catalog.gen_random_uuid(),
         'sqltest', pg_catalog.pg_backend_pid(),
         (select b.state from ingest.batch as b where b.batch_id = p_batch_id)
  from ingest.attempt as a where a.batch_id = p_batch_id
  returning attempt_id
$$;

-- The rejections of a batch as 'record_no rule' strings, in order, so a test
-- states every (record, rule) pair it expects and nothing else.
create function tests.rejections(p_batch_id bigint)
returns text[]
language sql
stable
as $$
  select coalesce(array_agg(r.record_no || ' ' || r.rule order by r.record_no, r.rule), '{}')
  from ingest.rejection as r
  where r.batch_id = p_batch_id
$$;

-- The batch as the rule tests check it after validation: "(state,
-- rejected_count,typed rows kept in staging.invoice_valid)".
create function tests.batch_outcome(p_batch_id bigint)
returns text
language sql
stable
as $$
  select (b.state, b.rejected_count,
          (select count(*) from staging.invoice_valid as v where v.batch_id = b.batch_id))::text
  from ingest.batch as b where b.batch_id = p_batch_id
$$;

-- ingest.replay_batch as an operator calls it (set role: session_user stays
-- the test's; tests of the operator check switch session authorization).
create function tests.replay(p_batch_id bigint, p_reason text default 'sender corrected the file')
returns bigint
language plpgsql
as $$
declare
  v_prev   text := pg_catalog.current_setting('role');
  v_action bigint;
begin
  perform pg_catalog.set_config('role', 'invoice_operator', true);
  select r.action_id into v_action from ingest.replay_batch(p_batch_id, p_reason) as r;
  perform pg_catalog.set_config('role', v_prev, true);
  return v_action;
end;
$$;

-- ingest.revert_batch as an operator calls it.
create function tests.revert(p_batch_id bigint, p_reason text default 'wrong data published')
returns bigint
language plpgsql
as $$
declare
  v_prev   text := pg_catalog.current_setting('role');
  v_action bigint;
begin
  perform pg_catalog.set_config('role', 'invoice_operator', true);
  select r.action_id into v_action from ingest.revert_batch(p_batch_id, p_reason) as r;
  perform pg_catalog.set_config('role', v_prev, true);
  return v_action;
end;
$$;

-- Wait until backend p_pid is blocked by another session's lock, bounded:
-- at most 200 x 50 ms.  Returns whether it is (the caller asserts it).
create function tests.wait_until_blocked(p_pid integer)
returns boolean
language plpgsql
as $$
declare
  v_n integer := 0;
begin
  while cardinality(pg_catalog.pg_blocking_pids(p_pid)) = 0 and v_n < 200 loop
    perform pg_catalog.pg_sleep(0.05);
    v_n := v_n + 1;
  end loop;
  return cardinality(pg_catalog.pg_blocking_pids(p_pid)) > 0;
end;
$$;

-- A libpq connection string back to this database, for tests that need a
-- second session (dblink: its own transactions, which commit).
create function tests.conninfo()
returns text
language sql
stable
as $$
  select pg_catalog.format('host=%s port=%s dbname=%s user=%s',
           pg_catalog.split_part(pg_catalog.current_setting('unix_socket_directories'), ',', 1),
           pg_catalog.current_setting('port'), pg_catalog.current_database(), session_user)
$$;

-- Remove every row of a source (committed by the second sessions of a
-- dblink test), as the superuser, with triggers off: append-only audit rows
-- included.  Only for test sources.
create function tests.purge_source(p_source text)
returns void
language plpgsql
as $$
begin
  set local session_replication_role = replica;
  delete from core.invoice_closure as c where c.source = p_source;
  delete from core.invoice_version_period as p where p.source = p_source;
  delete from core.invoice_version_reverted as r where r.source = p_source;
  delete from core.invoice_version as v where v.source = p_source;
  delete from ingest.rejection_superseded as r
   where r.batch_id in (select b.batch_id from ingest.batch as b where b.source = p_source);
  delete from ingest.replay_authorization as r
   where r.batch_id in (select b.batch_id from ingest.batch as b where b.source = p_source);
  delete from ingest.operator_action as o
   where o.batch_id in (select b.batch_id from ingest.batch as b where b.source = p_source);
  delete from ingest.outbox as o
   where o.batch_id in (select b.batch_id from ingest.batch as b where b.source = p_source);
  delete from ingest.rejection_row as r
   where r.batch_id in (select b.batch_id from ingest.batch as b where b.source = p_source);
  delete from ingest.batch_event as e
   where e.batch_id in (select b.batch_id from ingest.batch as b where b.source = p_source);
  delete from ingest.attempt as a
   where a.batch_id in (select b.batch_id from ingest.batch as b where b.source = p_source);
  delete from staging.invoice_line as l
   where l.batch_id in (select b.batch_id from ingest.batch as b where b.source = p_source);
  delete from staging.invoice_valid as l
   where l.batch_id in (select b.batch_id from ingest.batch as b where b.source = p_source);
  delete from staging.key_version as l
   where l.batch_id in (select b.batch_id from ingest.batch as b where b.source = p_source);
  delete from ingest.source_watermark as w where w.source = p_source;
  delete from ingest.pending_publication as p where p.source = p_source;
  delete from ingest.history_instant as h where h.source = p_source;
  delete from ingest.batch as b where b.source = p_source;
  delete from ingest.source as s where s.source = p_source;
  set local session_replication_role = origin;
end;
$$;

-- For the revert and time-travel tests: a first day (the seed's 20
-- invoices and INV-LATE at revision 2) and a second day that touches it in
-- every way a publication can: INV-0001 amended (revision 1), INV-0002
-- voided, INV-0100 new, INV-0003 resent unchanged, INV-LATE at revision 1
-- arriving late (history only).
create function tests.first_day_lines()
returns text[]
language sql
immutable
as $$
  select tests.seed_lines(20) || array[tests.line('INV-LATE', p_revision => '2')]
$$;

create function tests.second_day_lines()
returns text[]
language sql
immutable
as $$
  select array[tests.line('INV-0001', p_revision => '1', p_net_amount => '200.00',
                          p_tax_amount => '40.00', p_gross_amount => '240.00'),
               tests.line('INV-0002', p_revision => '1', p_status => 'VOID'),
               tests.line('INV-0100'),
               tests.line('INV-LATE', p_revision => '1', p_customer_id => 'CUST-LATE')]
         || (tests.seed_lines(3))[3:3]
$$;

-- ingest.set_period_lock as an operator calls it: close through p_through.
create function tests.close_period(p_source text, p_through date,
                                   p_reason text default 'month closed')
returns void
language plpgsql
as $$
declare
  v_prev text := pg_catalog.current_setting('role');
begin
  perform pg_catalog.set_config('role', 'invoice_operator', true);
  perform from ingest.set_period_lock(p_source, true, p_through, p_reason);
  perform pg_catalog.set_config('role', v_prev, true);
end;
$$;

-- The same, reopening the period entirely.
create function tests.reopen_period(p_source text, p_reason text default 'adjustments')
returns void
language plpgsql
as $$
declare
  v_prev text := pg_catalog.current_setting('role');
begin
  perform pg_catalog.set_config('role', 'invoice_operator', true);
  perform from ingest.set_period_lock(p_source, false, null, p_reason);
  perform pg_catalog.set_config('role', v_prev, true);
end;
$$;

-- ingest.set_source_extract as an operator calls it (source add --extract
-- full [--max-absent-share F]).
create function tests.full_extract(p_source text, p_max_absent_share numeric default null)
returns void
language plpgsql
as $$
declare
  v_prev text := pg_catalog.current_setting('role');
begin
  perform pg_catalog.set_config('role', 'invoice_operator', true);
  perform from ingest.set_source_extract(p_source, 'full', p_max_absent_share);
  perform pg_catalog.set_config('role', v_prev, true);
end;
$$;

-- ingest.replay_batch with the override (replay --allow-absent-share).
create function tests.replay_allowing_absent(p_batch_id bigint,
                                             p_reason text default 'the source closed them')
returns bigint
language plpgsql
as $$
declare
  v_prev   text := pg_catalog.current_setting('role');
  v_action bigint;
begin
  perform pg_catalog.set_config('role', 'invoice_operator', true);
  select r.action_id into v_action from ingest.replay_batch(p_batch_id, p_reason, true) as r;
  perform pg_catalog.set_config('role', v_prev, true);
  return v_action;
end;
$$;
