-- ingest.quarantine_batch: stop a batch for investigation.  Records the
-- file-level reasons (record_no 0) next to any per-record ones already
-- stored, moves the batch to quarantined (compare-and-set from p_from) and
-- writes the batch_quarantined notification in the same transaction
-- (ingest.write_notification).
-- Nothing of the batch becomes visible; the watermark does not move.
-- Idempotent per batch: the outbox row is unique per (batch, kind, round).
-- Errors: as ingest.transition.
create or replace function ingest.quarantine_batch(
  p_batch_id   bigint,
  p_from       text,
  p_attempt_id bigint,
  p_reasons    jsonb)  -- [{"rule": "...", "detail": "...", "record_no": 0}, ...]
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_batch ingest.batch;
  v_rejected integer;
begin
  insert into ingest.rejection_row (batch_id, record_no, invoice_number, rule, detail)
  select p_batch_id, coalesce((r ->> 'record_no')::integer, 0),
         ingest.printable(r ->> 'invoice_number'), r ->> 'rule',
         ingest.printable(r ->> 'detail')
  from jsonb_array_elements(coalesce(p_reasons, '[]'::jsonb)) as r
  on conflict do nothing;

  v_rejected := ingest.rejected_records(p_batch_id);

  perform ingest.transition(p_batch_id, p_from, 'quarantined', p_attempt_id,
                            jsonb_build_object('reasons', p_reasons));
  update ingest.batch as b set rejected_count = v_rejected
   where b.batch_id = p_batch_id
  returning * into v_batch;

  perform ingest.write_notification(p_batch_id, 'batch_quarantined',
    jsonb_build_object(
      'batch_id', p_batch_id, 'source', v_batch.source,
      'business_date', v_batch.business_date, 'sha256', v_batch.sha256,
      'rejected_records', v_rejected,
      'reasons', (select coalesce(jsonb_agg(jsonb_build_object(
                           'record_no', x.record_no, 'rule', x.rule, 'detail', x.detail)
                         order by x.record_no, x.rule), '[]'::jsonb)
                  from (select rr.record_no, rr.rule, rr.detail
                        from ingest.rejection_row as rr
                        where rr.batch_id = p_batch_id
                        order by rr.record_no, rr.rule limit 20) as x)));
end;
$$;
comment on function ingest.quarantine_batch(bigint, text, bigint, jsonb) is
  E'Quarantine a batch with file-level reasons, and write its notification.\nErrors: as ingest.transition.';
revoke all on function ingest.quarantine_batch(bigint, text, bigint, jsonb) from public;
