-- ingest.reject_closed_period: part of ingest.write_batch, under the
-- source's publication lock.  Rejects (rule period.closed) every typed
-- record of the batch dated on or before p_locked_through, the last date of
-- the source's closed period: a new invoice, an amendment or a VOID alike.
-- An exact resend (its invoice_number and revision published with the same
-- content, as staging.key_version holds history for the batch's keys) is
-- no change and passes.  The rejected records leave the merge's inputs
-- as a revision conflict's do (ingest.drop_rejected_records).
-- Returns the records rejected.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.reject_closed_period(p_batch_id bigint,
                                                      p_locked_through date)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_rejected integer[];
begin
  with bad as (
    insert into ingest.rejection_row (batch_id, record_no, invoice_number, rule, detail,
                                      gross_amount, currency, fields)
    select p_batch_id, v.record_no, ingest.printable(left(v.invoice_number, 64)),
           'period.closed',
           ingest.printable(format('invoice %s revision %s is dated %s, in the period closed through %s',
                                   left(v.invoice_number, 80), v.revision,
                                   pg_catalog.to_char(v.invoice_date, 'YYYY-MM-DD'),
                                   pg_catalog.to_char(p_locked_through, 'YYYY-MM-DD'))),
           v.gross_amount, v.currency, ingest.typed_fields(v)
    from staging.invoice_valid as v
    where v.batch_id = p_batch_id and v.invoice_date <= p_locked_through
      and not exists (select from staging.key_version as h
                      where h.batch_id = p_batch_id and h.invoice_number = v.invoice_number
                        and h.revision = v.revision and h.content_hash = v.content_hash)
    on conflict do nothing
    returning record_no)
  select coalesce(array_agg(bad.record_no), '{}') into v_rejected from bad;
  return ingest.drop_rejected_records(p_batch_id, v_rejected);
end;
$$;
comment on function ingest.reject_closed_period(bigint, date) is
  'Reject the batch''s records dated in the source''s closed period (period.closed), exact resends excepted.';
revoke all on function ingest.reject_closed_period(bigint, date) from public;
