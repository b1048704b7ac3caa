-- ingest.absence_problem: why a full extract may not close what it would
-- close by absence, as a quarantine reason ({rule, record_no 0,
-- invoice_number, detail}), or NULL when it may.  Checked by
-- ingest.write_batch under the source's publication lock, before the merge:
--   period.closed         an absent invoice is dated on or before the
--                         source's closed period's last date (locked_through):
--                         closing it would change a closed period; the
--                         detail names the first such invoices.  No
--                         override: the period is reopened first.
--   extract.absent_share  the file would close more than max_absent_share
--                         of the source's current invoices (a truncated or
--                         empty extract), unless the replay that runs the
--                         batch again allowed it (the batch's latest replay
--                         in ingest.operator_action has allow_absent_share).
--                         A share exactly at the maximum passes; a source
--                         with no current invoice closes nothing.
-- Internal (write_batch): no EXECUTE grants.
-- Errors: none.
create or replace function ingest.absence_problem(p_batch_id bigint, p_source ingest.source,
                                                  p_absent integer, p_current integer)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_closed  text[];
  v_allowed boolean;
begin
  if p_absent = 0 then
    return null;
  end if;
  if p_source.locked_through is not null then
    select array_agg(a.invoice_number order by a.invoice_number collate "C") into v_closed
    from ingest.absent_invoices(p_batch_id, p_source.source) as a
    where a.invoice_date <= p_source.locked_through;
    if v_closed is not null then
      return pg_catalog.jsonb_build_object(
        'rule', 'period.closed', 'record_no', 0, 'invoice_number', v_closed[1],
        'detail', pg_catalog.format(
          'the full extract does not list %s invoice(s) dated in the period closed through %s, which it would close by absence: %s%s',
          cardinality(v_closed), pg_catalog.to_char(p_source.locked_through, 'YYYY-MM-DD'),
          array_to_string(v_closed[1:10], ', '),
          case when cardinality(v_closed) > 10 then ', ...' else '' end));
    end if;
  end if;
  if p_absent::numeric <= p_source.max_absent_share * p_current then
    return null;
  end if;
  select o.allow_absent_share into v_allowed
  from ingest.operator_action as o
  where o.batch_id = p_batch_id and o.action = 'replay'
  order by o.action_id desc limit 1;
  if coalesce(v_allowed, false) then
    return null;
  end if;
  return pg_catalog.jsonb_build_object(
    'rule', 'extract.absent_share', 'record_no', 0,
    'invoice_number', (select a.invoice_number
                       from ingest.absent_invoices(p_batch_id, p_source.source) as a limit 1),
    'detail', pg_catalog.format(
      'the full extract does not list %s of the source''s %s current invoices, which it would close by absence; the source allows a share of %s',
      p_absent, p_current, p_source.max_absent_share));
end;
$$;
comment on function ingest.absence_problem(bigint, ingest.source, integer, integer) is
  E'The quarantine reason when a full extract may not close its absent invoices (period.closed, extract.absent_share), else NULL.\nErrors: none.';
revoke all on function ingest.absence_problem(bigint, ingest.source, integer, integer) from public;
