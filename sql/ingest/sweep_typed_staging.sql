-- ingest.sweep_typed_staging: part of ingest.sweep.  Drops the typed
-- staging partitions (ingest.typed_staging) of batches that no longer
-- need them (no batch row, or not received, staged or validated) and that
-- their publication or quarantine could not drop because staging was in
-- use then (ingest.clear_typed_staging); their rows go with them, as the
-- clearing would have deleted them.  The locks are taken with NOWAIT
-- (ingest.drop_typed_staging): while staging is in use, nothing is
-- dropped and the next sweep tries again.
-- Returns the partitions dropped.
-- Errors: none.
create or replace function ingest.sweep_typed_staging()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_p record;
  v_n integer := 0;
begin
  for v_p in
    select i.inhrelid::pg_catalog.regclass as partition,
           pg_catalog.substr(c.relname, pg_catalog.length('invoice_valid_b') + 1)::bigint as batch_id
    from pg_catalog.pg_inherits as i
    join pg_catalog.pg_class as c on c.oid = i.inhrelid
    where i.inhparent = 'staging.invoice_valid'::pg_catalog.regclass
      and c.relname ~ '^invoice_valid_b[0-9]+$'
    order by 2
  loop
    continue when exists (select from ingest.batch as b
                          where b.batch_id = v_p.batch_id
                            and b.state in ('received', 'staged', 'validated'));
    exit when not ingest.drop_typed_staging(v_p.partition);
    v_n := v_n + 1;
  end loop;
  return v_n;
end;
$$;
comment on function ingest.sweep_typed_staging() is
  E'Drop the typed staging partitions of batches past validation that their clearing left (staging was in use then).\nErrors: none.';
revoke all on function ingest.sweep_typed_staging() from public;
grant execute on function ingest.sweep_typed_staging() to invoice_loader, invoice_operator;
