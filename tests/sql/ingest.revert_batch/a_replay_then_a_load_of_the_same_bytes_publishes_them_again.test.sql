-- After a revert, the same bytes are loaded again only after a replay
-- (docs/guide/recover.md): a load without one returns the batch reverted (the
-- loader exits 78) and changes nothing; after the replay the load runs the
-- batch from received and publishes it again: reporting.invoice is what
-- the first publication showed, the watermark is back on its date, and the
-- new publication has a notification of its own (round 1, its own dedupe
-- key); reverting it again is notified again too.
begin;
select plan(7);

select tests.make_source() as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) \gset
select batch_id as second from tests.load_batch(:'source', tests.d() + 1, tests.second_day_lines()) \gset
create temp table after_second on commit drop as select * from reporting.invoice where source = :'source';
select tests.revert(:second);

select is((select s.state from tests.stage_batch(:'source', tests.d() + 1, tests.second_day_lines()) as s),
          'reverted', 'Without a replay the load finds the batch reverted.');
select is((select count(*)::integer from ingest.batch_event as e where e.batch_id = :second), 5,
          'and changes nothing (no event after the revert).');

select tests.replay(:second, 'the file was right after all');
select is((select (l.batch_id, l.state)::text
           from tests.load_batch(:'source', tests.d() + 1, tests.second_day_lines()) as l),
          (:second::bigint, 'published')::text, 'After the replay the same batch publishes again.');
select set_eq(format($$ select source, invoice_number, revision, document_type, customer_id,
                               invoice_date, due_date, currency, net_amount, tax_amount,
                               gross_amount, description, batch_id
                        from reporting.invoice where source = %L $$, :'source'),
              $$ select source, invoice_number, revision, document_type, customer_id, invoice_date,
                        due_date, currency, net_amount, tax_amount, gross_amount, description,
                        batch_id
                 from after_second $$,
              'reporting.invoice shows what the first publication of the batch showed (but the time).');
select is((select w.business_date from ingest.watermark as w where w.source = :'source'), tests.d() + 1,
          'The watermark is back on the second day.');
select is((select array_agg(n.kind || ' ' || n.dedupe_key order by n.notification_id)
           from ingest.notification as n where n.batch_id = :second),
          array['batch_published batch_published:' || :second, 'batch_reverted batch_reverted:' || :second,
                'batch_published batch_published:' || :second || ':r1'],
          'The republication is notified again, under a new dedupe key.');
select tests.revert(:second, 'and wrong again');
select is((select array_agg(n.dedupe_key order by n.notification_id) from ingest.notification as n
           where n.batch_id = :second and n.kind = 'batch_reverted'),
          array['batch_reverted:' || :second, 'batch_reverted:' || :second || ':r1'],
          'A second revert, in the next round, has its own batch_reverted.');

select * from finish();
rollback;
