-- ingest.set_source_format: the file format a source's new files are read
-- with (source add --format-file).  p_format is the loader's canonical JSON
-- of a format it has checked key by key; the same format as the current one
-- keeps its version, another one becomes the next version (earlier batches
-- keep theirs: a rerun reads its bytes as they were read).  NULL: back to
-- the contract's own format.
-- Operator entry point (EXECUTE for invoice_operator only); records
-- session_user.
-- Errors: IV301 unknown source; IV320 p_format is not a JSON object.
create or replace function ingest.set_source_format(p_source text, p_format jsonb)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_source  ingest.source;
  v_current jsonb;
  v_version integer;
begin
  if p_format is not null and jsonb_typeof(p_format) <> 'object' then
    raise exception 'the file format of source % must be a JSON object', p_source
      using errcode = 'IV320';
  end if;
  select * into v_source from ingest.source as s where s.source = p_source for update;
  if not found then
    raise exception 'unknown source %', p_source using errcode = 'IV301';
  end if;
  select f.format into v_current
  from ingest.source_format as f
  where f.source = p_source and f.version = v_source.format_version;

  if p_format is null then
    v_version := null;
  elsif v_current is not distinct from p_format then
    v_version := v_source.format_version;
  else
    select coalesce(max(f.version), 0) + 1 into v_version
    from ingest.source_format as f where f.source = p_source;
    insert into ingest.source_format (source, version, format)
    values (p_source, v_version, p_format);
  end if;

  if v_version is distinct from v_source.format_version then
    update ingest.source as s
       set format_version = v_version, updated_at = now(), updated_by = session_user
     where s.source = p_source;
  end if;
  return v_version;
end;
$$;
comment on function ingest.set_source_format(text, jsonb) is
  E'Set the file format of a source''s new files (operator); returns its version (NULL: the contract''s format).\nErrors: IV301 unknown source; IV320 not a JSON object.';
revoke all on function ingest.set_source_format(text, jsonb) from public;
grant execute on function ingest.set_source_format(text, jsonb) to invoice_operator;
