-- ingest.validate_batch, the seed case: 20 invoices whose gross amounts total
-- 4,200.00, with a manifest saying 20 records and 4200.00, pass every rule
-- and reconcile: the batch is validated with 20 accepted records, 20
-- distinct keys, and the typed rows kept for publication.
begin;
select plan(5);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), tests.seed_lines(20),
                                       p_manifest => tests.manifest(:'source', tests.d(), 20, '4200.00')) \gset
select * from tests.validate(:batch_id) \gset v_

select is(format('%s accepted=%s rejected=%s', :'v_state', :v_accepted, :v_rejected),
          'validated accepted=20 rejected=0', 'The seed batch is validated with 20 accepted records.');
select is(tests.rejections(:batch_id), '{}'::text[], 'No record and no file-level rule is violated.');
select is((select (b.state, b.accepted_count, b.rejected_count, b.distinct_keys)::text
           from ingest.batch as b where b.batch_id = :batch_id),
          '(validated,20,0,20)', 'The batch records 20 accepted records and 20 distinct keys.');
select is((select (count(*), sum(v.gross_amount))::text from staging.invoice_valid as v
           where v.batch_id = :batch_id),
          '(20,4200.00)', 'The 20 typed rows kept for publication total 4200.00.');
select is((select array_agg(e.to_state order by e.event_id) from ingest.batch_event as e
           where e.batch_id = :batch_id),
          array['received', 'staged', 'validated'], 'The batch passed received, staged and validated.');

select * from finish();
rollback;
