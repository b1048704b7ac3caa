-- ingest.set_source_extract: how a source's files are to be read, as
-- `source add --extract delta|full --max-absent-share F` sets it (the
-- loader calls it in the transaction of ingest.add_source, when either
-- option is given).  delta (the default): a file carries changes only.
-- full: a file lists every open invoice of the source as of its business
-- date, and a current invoice it does not list is closed by absence in its
-- publication (ingest.close_absent_invoices); max_absent_share (default
-- 0.10) is the largest share of the source's current invoices one file may
-- close before it is quarantined (extract.absent_share).  An argument left
-- NULL keeps the stored value.  A share with the delta extract (given or
-- stored) means nothing and is refused, as a rejected share is without the
-- partial policy.
-- Runs with its owner's rights and checks the caller: session_user must be
-- a member of invoice_operator.
-- Errors: IV401 not an operator; IV301 unknown source; IV311 an extract
-- other than delta or full, a share outside 0..1, or a share with delta.
create or replace function ingest.set_source_extract(
  p_source           text,
  p_extract          text default null,
  p_max_absent_share numeric default null)
returns table (source text, extract_kind text, max_absent_share numeric)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row ingest.source;
begin
  perform ingest.require_operator('source add --extract');
  if p_extract is not null and p_extract not in ('delta', 'full') then
    raise exception 'invalid extract % for source %', p_extract, p_source
      using errcode = 'IV311', detail = 'The extract is delta or full.';
  end if;
  if p_max_absent_share is not null
     and (p_max_absent_share < 0 or p_max_absent_share > 1) then
    raise exception 'invalid max absent share % for source %', p_max_absent_share, p_source
      using errcode = 'IV311', detail = 'The share is a number from 0 to 1.';
  end if;
  select * into v_row from ingest.source as s where s.source = p_source for update;
  if not found then
    raise exception 'unknown source %', p_source using errcode = 'IV301';
  end if;
  if p_max_absent_share is not null and coalesce(p_extract, v_row.extract_kind) <> 'full' then
    raise exception 'a max absent share needs the full extract (source %)', p_source
      using errcode = 'IV311',
            detail  = 'A delta extract closes nothing by absence.',
            hint    = 'Add --extract full.';
  end if;
  update ingest.source as s
     set extract_kind = coalesce(p_extract, s.extract_kind),
         max_absent_share = coalesce(p_max_absent_share, s.max_absent_share),
         updated_at = pg_catalog.now(), updated_by = session_user
   where s.source = p_source
  returning * into v_row;
  return query select v_row.source, v_row.extract_kind, v_row.max_absent_share;
end;
$$;
comment on function ingest.set_source_extract(text, text, numeric) is
  E'Operator: set a source''s extract (delta or full) and the largest share of its current invoices a full extract may close by absence.\nErrors: IV401 not an operator; IV301 unknown source; IV311 an invalid extract or share.';
revoke all on function ingest.set_source_extract(text, text, numeric) from public;
grant execute on function ingest.set_source_extract(text, text, numeric) to invoice_operator;
