-- ingest.revert_to_date: an operator undoes, in ONE transaction, every
-- publication of source p_source whose business date is after p_date,
-- newest publication first, each exactly as ingest.revert_batch undoes one
-- (one revert action and one batch_reverted notification per batch, the
-- versions and the watermark).  Readers see all of it at once at commit,
-- never a state in between: reporting.invoice_as_of places every revert of
-- the transaction at its commit.  The watermark ends at the last published
-- date on or before p_date (or none).
-- Nothing after p_date published: nothing changes and no row is returned.
-- Takes the source's publication lock first, so no publication of the
-- source can slip in between the reverts.
-- Returns one row per reverted batch, in the order they were undone.
-- Four eyes: for a source with require_approval and something to undo,
-- one request is recorded and returned as one row (its action id, no
-- batch), to be carried out by a second operator's ingest.confirm_action
-- (ingest.request_confirmation).
-- Errors: as ingest.revert_batch, for the first batch that cannot be
-- reverted, and then nothing is reverted: IV310 a publication changed
-- invoices dated in the source's closed period (the message names the
-- date); IV306 a publication of a date on or before p_date came after one
-- to undo; IV219 a batch is written and not yet published; IV401, IV307;
-- IV301 unknown source; IV308 no date.
create or replace function ingest.revert_to_date(p_source text, p_date date, p_reason text)
returns table (action_id bigint, batch_id bigint, business_date date,
               reverted_versions integer, restored_versions integer, watermark date)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_batch   record;
  v_r       record;
  v_request bigint;
begin
  perform ingest.require_operator('revert');
  if p_reason is null or pg_catalog.btrim(p_reason) = '' then
    raise exception 'an undo of source % to a date needs a reason', p_source
      using errcode = 'IV307',
            hint    = 'Say why in --reason; it is kept in ingest.operator_action.';
  end if;
  if p_date is null then
    raise exception 'an undo of source % to a date needs the date', p_source
      using errcode = 'IV308';
  end if;
  if not exists (select from ingest.source as s where s.source = p_source) then
    raise exception 'unknown source %', p_source using errcode = 'IV301';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(ingest.publication_lock_key(p_source));
  -- Four eyes (a source with require_approval), when there is something to
  -- undo: recorded as one request that a second operator confirms
  -- (ingest.confirm_action), returned as one row with the request's id and
  -- no batch; inside that confirm, carried out now.
  if exists (select from ingest.batch as b
             where b.source = p_source and b.state = 'published' and b.business_date > p_date) then
    v_request := ingest.request_confirmation('revert_to_date', p_source, null, p_date, p_reason);
    if v_request is not null then
      action_id := v_request; batch_id := null; business_date := null;
      reverted_versions := 0; restored_versions := 0;
      watermark := (select w.business_date from ingest.source_watermark as w
                     where w.source = p_source);
      return next;
      return;
    end if;
  end if;
  for v_batch in
    select b.batch_id, b.business_date
    from ingest.batch as b
    where b.source = p_source and b.state = 'published' and b.business_date > p_date
    order by b.published_at desc, b.batch_id desc
  loop
    select * into v_r from ingest.revert_batch(v_batch.batch_id, p_reason) as r;
    action_id := v_r.action_id;
    batch_id := v_batch.batch_id;
    business_date := v_batch.business_date;
    reverted_versions := v_r.reverted_versions;
    restored_versions := v_r.restored_versions;
    watermark := v_r.watermark;
    return next;
  end loop;
end;
$$;
comment on function ingest.revert_to_date(text, date, text) is
  E'Operator: undo every publication of a source after a business date, newest first, in one transaction.\nErrors: as ingest.revert_batch; IV307 empty reason; IV301 unknown source; IV308 no date.';
revoke all on function ingest.revert_to_date(text, date, text) from public;
grant execute on function ingest.revert_to_date(text, date, text) to invoice_operator;
