-- ingest.get_source: a source's configuration, as the loader needs it before
-- it maps a file's header (allow_unknown_columns) and registers a batch.
-- Errors: IV301 unknown source.
create or replace function ingest.get_source(p_source text)
returns ingest.source
language plpgsql
stable
security definer
set search_path = ''
as $$
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
comment on function ingest.get_source(text) is E'A source''s configuration.\nErrors: IV301 unknown source.';
revoke all on function ingest.get_source(text) from public;
grant execute on function ingest.get_source(text) to invoice_loader, invoice_operator;
