-- ingest.publish_batch on a validated batch whose staging.invoice_line rows
-- are gone while its staging.invoice_valid rows are still there (simulated
-- by deleting only the raw rows; the loader's own path never writes raw
-- rows at all, migrations/0014): publication needs only the typed rows and
-- the rejection rows, so it publishes.  The second reconciliation still
-- holds with a rejected record: its readable gross amount was recorded
-- with its rejection (ingest.rejection_row.gross_amount), and accepted +
-- rejected gross is the control total.
begin;
select plan(6);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.5) as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(),
  array_cat(tests.seed_lines(19),
            array[tests.line('INV-BAD', p_net_amount => 'NaN', p_tax_amount => '3.45',
                             p_gross_amount => '123.45')])) \gset
select state as validated_state from tests.validate(:batch_id) \gset
select b.control_total from ingest.batch as b where b.batch_id = :batch_id \gset

delete from staging.invoice_line as l where l.batch_id = :batch_id;

select p.outcome, p.state, p.counts from tests.publish(:batch_id) as p \gset p_

select is(format('%s: %s %s', :'validated_state', :'p_outcome', :'p_state'),
          'validated: published published',
          'The validated batch whose raw rows are gone publishes.');
select is((select r.gross_amount from ingest.rejection_row as r
           where r.batch_id = :batch_id and r.rule = 'net_amount.format'),
          123.45::numeric, 'The rejected record''s gross amount is kept with its rejection.');
select is((select (c ->> 'records', c ->> 'inserted', c ->> 'rejected',
                   (c ->> 'rejected_gross')::numeric)::text
           from (select :'p_counts'::jsonb as c) as x),
          '(20,19,1,123.45)', 'It counts 20 records, 19 inserted, 1 rejected of 123.45 gross.');
select is((select (c ->> 'accepted_gross')::numeric + (c ->> 'rejected_gross')::numeric
           from (select :'p_counts'::jsonb as c) as x),
          :'control_total'::numeric, 'Accepted and rejected gross add up to the control total.');
select is((select count(*)::integer || ' ' || sum(r.gross_amount)
           from reporting.invoice as r where r.batch_id = :batch_id),
          '19 ' || (:'control_total'::numeric - 123.45)::text,
          'Reporting shows the 19 accepted invoices and their gross.');
select is((select count(*)::integer from ingest.outbox as o where o.batch_id = :batch_id)
          + (select count(*)::integer from ingest.source_watermark as w
             where w.source = :'source' and w.batch_id = :batch_id),
          2, 'One outbox row is written and the watermark moves to the batch.');

select * from finish();
rollback;
