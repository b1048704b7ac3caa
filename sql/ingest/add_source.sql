-- ingest.add_source: register a source, or update the options given (a NULL
-- argument keeps the current value; a new source gets the defaults).
-- p_deadline: the UTC time of day on D+1 by which date D should be
-- published (the sweep writes deadline_missed past it); p_retention_days:
-- days until the sweep deletes the staging rows of a finished batch
-- (default 30); p_max_input_bytes: the largest input a load of the source
-- accepts (1 byte to 1 PiB; NULL keeps the loader's own limit);
-- p_max_decompressed_bytes: the largest decompressed size of a gzip or zstd
-- input (1 byte to 1 PiB; NULL keeps the default, 20 times the delivered
-- size or 10 GiB, whichever is smaller).
-- Operator entry point; records session_user.
-- Errors: IV302 invalid option value (name, policy, share, retention, a
-- feed URL template without {date} or with another brace, an input limit
-- or decompressed-size limit out of range).
create or replace function ingest.add_source(
  p_source                text,
  p_policy                text default null,
  p_max_rejected_share    numeric default null,
  p_start_date            date default null,
  p_feed_url              text default null,
  p_allow_unknown_columns boolean default null,
  p_deadline              time default null,
  p_retention_days        integer default null,
  p_max_input_bytes       bigint default null,
  p_max_decompressed_bytes bigint default null)
returns ingest.source
language plpgsql
security definer
set search_path = ''
as $$
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

  -- A feed URL template names each date's file by the placeholder {date};
  -- without it, or with another brace (plain or percent-encoded), catch-up
  -- would fetch the same literal URL for every business date.
  if p_feed_url is not null
     and (position('{date}' in p_feed_url) = 0
          or replace(p_feed_url, '{date}', '') ~* '[{}]|%7b|%7d') then
    raise exception 'invalid feed URL template for source %', p_source
      using errcode = 'IV302',
            detail  = 'A feed URL template holds {date} at least once and no other brace, plain or encoded (%7B, %7D).';
  end if;

  if p_retention_days is not null and p_retention_days < 1 then
    raise exception 'invalid retention of % days for source %', p_retention_days, p_source
      using errcode = 'IV302', detail = 'The retention is a whole number of days, at least 1.';
  end if;

  if p_max_input_bytes is not null
     and (p_max_input_bytes < 1 or p_max_input_bytes > 1125899906842624) then
    raise exception 'invalid input limit of % bytes for source %', p_max_input_bytes, p_source
      using errcode = 'IV302', detail = 'The input limit is a whole number of bytes from 1 to 2^50.';
  end if;

  if p_max_decompressed_bytes is not null
     and (p_max_decompressed_bytes < 1 or p_max_decompressed_bytes > 1125899906842624) then
    raise exception 'invalid decompressed-size limit of % bytes for source %',
                    p_max_decompressed_bytes, p_source
      using errcode = 'IV302',
            detail  = 'The decompressed-size limit is a whole number of bytes from 1 to 2^50.';
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
                                  allow_unknown_columns, deadline, retention_days,
                                  max_input_bytes, max_decompressed_bytes)
  values (p_source, coalesce(p_policy, 'all-or-nothing'),
          case when coalesce(p_policy, 'all-or-nothing') = 'partial'
               then coalesce(p_max_rejected_share, 0) end,
          p_start_date, p_feed_url, coalesce(p_allow_unknown_columns, false),
          p_deadline, coalesce(p_retention_days, 30), p_max_input_bytes,
          p_max_decompressed_bytes)
  on conflict (source) do update
     set policy = coalesce(p_policy, s.policy),
         max_rejected_share = case when coalesce(p_policy, s.policy) = 'partial'
                                   then coalesce(p_max_rejected_share, s.max_rejected_share, 0) end,
         start_date = coalesce(p_start_date, s.start_date),
         feed_url = coalesce(p_feed_url, s.feed_url),
         allow_unknown_columns = coalesce(p_allow_unknown_columns, s.allow_unknown_columns),
         deadline = coalesce(p_deadline, s.deadline),
         retention_days = coalesce(p_retention_days, s.retention_days),
         max_input_bytes = coalesce(p_max_input_bytes, s.max_input_bytes),
         max_decompressed_bytes = coalesce(p_max_decompressed_bytes, s.max_decompressed_bytes),
         updated_at = now(),
         updated_by = session_user
  returning * into v_row;
  return v_row;
end;
$$;
comment on function ingest.add_source(text, text, numeric, date, text, boolean, time, integer, bigint, bigint) is
  E'Register or update a source (operator).\nErrors: IV302 invalid option value.';
revoke all on function ingest.add_source(text, text, numeric, date, text, boolean, time, integer, bigint, bigint) from public;
grant execute on function ingest.add_source(text, text, numeric, date, text, boolean, time, integer, bigint, bigint) to invoice_operator;
