-- ingest.require_awaiting_approval: the check ingest.approve_batch and
-- ingest.reject_batch make, once before they take the batch's locks (so
-- that a batch plainly not awaiting approval is refused as such, whatever
-- holds it) and once after (what counts).  A batch awaits approval when it
-- is validated and listed in ingest.pending_publication as awaiting
-- approval, not yet approved.  Returns that row.
-- Internal: no EXECUTE grants.
-- Errors: IV208 no such batch; IV315 the batch is not awaiting approval.
create or replace function ingest.require_awaiting_approval(p_batch_id bigint)
returns ingest.pending_publication
language plpgsql
stable
set search_path = ''
as $$
declare
  v_state   text;
  v_pending ingest.pending_publication;
begin
  select b.state into v_state from ingest.batch as b where b.batch_id = p_batch_id;
  if not found then
    raise exception 'batch % does not exist', p_batch_id using errcode = 'IV208';
  end if;
  select * into v_pending from ingest.pending_publication as p where p.batch_id = p_batch_id;
  if v_state <> 'validated' or v_pending.batch_id is null or not v_pending.awaits_approval
     or v_pending.approved_by_action is not null then
    raise exception 'batch % is not awaiting approval (it is %)', p_batch_id,
                    case when v_pending.batch_id is null then v_state
                         else 'written, not awaiting approval' end
      using errcode = 'IV315',
            detail  = 'Only a batch of a source with --require-approval, written and not yet published or rejected, awaits approval.',
            hint    = format('Run invoice-loader status --batch %s.', p_batch_id);
  end if;
  return v_pending;
end;
$$;
comment on function ingest.require_awaiting_approval(bigint) is
  E'Raise unless the batch is written and awaiting approval; returns its ingest.pending_publication row.\nErrors: IV208 no such batch; IV315 not awaiting approval.';
revoke all on function ingest.require_awaiting_approval(bigint) from public;
