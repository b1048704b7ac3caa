-- ingest.file_format_of: the file format the bytes p_sha256 of source
-- p_source are read with: the version their batch recorded when they are
-- registered already (a rerun, a replay: read the same way), else the
-- source's current one.  format_version and format are NULL for the
-- contract's own format; batch_id is the registered batch, if any.
-- For the loader (before it registers a file) and `source check`.
-- Errors: IV301 unknown source.
create or replace function ingest.file_format_of(p_source text, p_sha256 text default null)
returns table (format_version integer, format jsonb, batch_id bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_source ingest.source;
  v_batch  bigint;
  v_version integer;
begin
  v_source := ingest.get_source(p_source);
  v_version := v_source.format_version;
  if p_sha256 is not null then
    select b.batch_id, b.format_version into v_batch, v_version
    from ingest.batch as b
    where b.source = p_source and b.sha256 = p_sha256
    order by b.batch_id desc
    limit 1;
    if not found then
      v_version := v_source.format_version;
    end if;
  end if;
  return query
    select v_version, f.format, v_batch
    from (select 1) as one
    left join ingest.source_format as f on f.source = p_source and f.version = v_version;
end;
$$;
comment on function ingest.file_format_of(text, text) is
  E'The file format (version and JSON; NULL: the contract''s) the given bytes of a source are read with: their batch''s, else the source''s current one.\nErrors: IV301 unknown source.';
revoke all on function ingest.file_format_of(text, text) from public;
grant execute on function ingest.file_format_of(text, text) to invoice_loader, invoice_operator;
