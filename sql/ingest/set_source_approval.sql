-- ingest.set_source_approval: whether a source requires four eyes
-- (source add --require-approval / --no-require-approval).  With it, a
-- batch of the source is written and waits, unseen by readers, for an
-- operator's approve (ingest.approve_batch) or reject
-- (ingest.reject_batch), and its replay, revert and period reopen take
-- effect only when a second operator login confirms them
-- (ingest.confirm_action).  Turning it off releases nothing already
-- waiting: a batch written while it was on still waits for approve or
-- reject, a request still for its confirm.  The `source add` flow calls
-- it after ingest.add_source, in the same transaction.
-- Operator entry point.
-- Errors: IV401 not an operator; IV301 unknown source; IV302 no value.
create or replace function ingest.set_source_approval(p_source text, p_require boolean)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_now boolean;
begin
  perform ingest.require_operator('source add --require-approval');
  if p_require is null then
    raise exception 'require approval of source % needs true or false', p_source
      using errcode = 'IV302';
  end if;
  update ingest.source as s
     set require_approval = p_require,
         updated_at = case when s.require_approval = p_require then s.updated_at
                           else pg_catalog.now() end
   where s.source = p_source
  returning s.require_approval into v_now;
  if not found then
    raise exception 'unknown source %', p_source using errcode = 'IV301';
  end if;
  return v_now;
end;
$$;
comment on function ingest.set_source_approval(text, boolean) is
  E'Operator: set whether a source''s batches wait for approve and its recovery actions for a second operator''s confirm.\nErrors: IV401 not an operator; IV301 unknown source; IV302 no value.';
revoke all on function ingest.set_source_approval(text, boolean) from public;
grant execute on function ingest.set_source_approval(text, boolean) to invoice_operator;
