-- ingest.validate_batch keeps a rejected record's twelve fields on its
-- rejection rows (ingest.rejection.fields), after the staging rows are
-- cleared: as delivered for a record that failed a field rule (one copy
-- per rule it failed), as typed for a duplicate.conflict; NULL for the
-- whole file's reasons.  ingest.rejection_export returns them in record
-- order, for any role that reads the status.
begin;
select plan(5);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_status => 'PAID', p_gross_amount => '12,0'),  -- 1: two field rules
  tests.line('INV-2'),                                                -- 2 good
  tests.line('INV-3', p_customer_id => 'C-A'),                        -- 3: conflicts with 4
  tests.line('INV-3', p_customer_id => 'C-B', p_due_date => '2026-12-20')  -- 4
]) \gset
select * from tests.validate(:batch_id) \gset v_
select is(:'v_state'::text, 'quarantined', 'The batch is quarantined.');

select is((select array_agg(r.rule || ' ' || r.fields[3] || ' ' || r.fields[11] order by r.rule)
           from ingest.rejection as r where r.batch_id = :batch_id and r.record_no = 1),
          array['gross_amount.format PAID 12,0', 'status.value PAID 12,0']::text[],
          'Each rule''s row of record 1 keeps its fields as delivered.');
select is((select r.fields from ingest.rejection as r
           where r.batch_id = :batch_id and r.record_no = 4),
          array['INV-3', '0', 'ISSUED', 'INVOICE', 'C-B', '2026-11-20', '2026-12-20', 'EUR',
                '100.00', '20.00', '120.00', null]::text[],
          'A duplicate.conflict keeps the record''s typed fields.');
select is((select count(*)::integer from staging.invoice_valid as v where v.batch_id = :batch_id), 0,
          'The staging rows are gone, the fields stay with the rejections.');

set local role invoice_operator;
select is((select array_agg(e.record_no || ' ' || e.rule || ' ' || coalesce(e.fields[1], '-')
                            order by e.record_no, e.rule)
           from ingest.rejection_export(:batch_id) as e),
          (select array_agg(r.record_no || ' ' || r.rule || ' ' || coalesce(r.fields[1], '-')
                            order by r.record_no, r.rule)
           from ingest.rejection as r where r.batch_id = :batch_id),
          'The operator exports every rejection in record order, with its fields.');
reset role;

select * from finish();
rollback;
