-- ingest.check_publication (the deferred trigger publication_reconciles on
-- ingest.batch): when the transaction that moves a batch to published
-- commits, the batch's versions and rejection rows (read again from the
-- tables) and the write's counts of unchanged records must add up to the
-- manifest's record_count and control_totals per currency, or the commit
-- fails with IV222.  The file: EUR and JPY, one rejected EUR record, one
-- EUR record resent unchanged from the day before.  Each tampering
-- between the write and the publication (the stored counts, a version's
-- amount, a rejection row, the per-currency counts, a move to published
-- that skips ingest.publish_batch) is refused at the commit point (SET
-- CONSTRAINTS ... IMMEDIATE stands for the commit: the test rolls back);
-- the untouched batch publishes.
begin;
select plan(14);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.5) as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-5', p_net_amount => '10.00', p_tax_amount => '2.00', p_gross_amount => '12.00')]) \gset
select batch_id as second from tests.stage_batch(:'source', tests.d() + 1, array[
  tests.line('INV-1'),
  tests.line('INV-2', p_currency => 'JPY', p_net_amount => '100', p_tax_amount => '20',
             p_gross_amount => '120'),
  tests.line('INV-3', p_net_amount => '50.00', p_tax_amount => '10.00', p_gross_amount => '60.00'),
  tests.line('INV-4', p_invoice_date => '2026-02-30', p_net_amount => '25.00',
             p_tax_amount => '5.00', p_gross_amount => '30.00'),
  tests.line('INV-5', p_net_amount => '10.00', p_tax_amount => '2.00', p_gross_amount => '12.00')],
  p_manifest => '{"record_count": 5, "control_totals": {"EUR": "222.00", "JPY": "120"}}') \gset
select is((select v.state || ' ' || v.accepted || ' ' || v.rejected from tests.validate(:second) as v),
          'validated 4 1', 'The second day validates with INV-4 rejected.');
select is((select string_agg(r.record_no || ' ' || r.currency || ' ' || r.gross_amount, ', ')
           from ingest.rejection_row as r where r.batch_id = :second),
          '4 EUR 30.00', 'The rejection row keeps the record''s currency and gross amount.');
select counts::text as w_counts from tests.write(:second) \gset
select is(:'w_counts'::jsonb -> 'unversioned_by_currency', '{"EUR": 12.00, "JPY": 0}'::jsonb,
          'The write counts the unchanged resend''s gross in its currency.');

-- the stored counts say nothing was resent
savepoint a;
update ingest.pending_publication as p set counts = p.counts || '{"unchanged": 0}'
 where p.batch_id = :second;
select is((select p.outcome from tests.publish(:second) as p), 'published',
          'publish_batch itself does not look at the rows again ...');
select throws_ok($$set constraints ingest.publication_reconciles immediate$$, 'IV222', null,
                 '... the commit does: stored counts that miss a record are refused (IV222).');
rollback to savepoint a;

-- a version's amount changed after the write
savepoint b;
set local session_replication_role = replica;
update core.invoice_version as v set net_amount = 101.00, gross_amount = 121.00
 where v.batch_id = :second and v.invoice_number = 'INV-1';
set local session_replication_role = origin;
select tests.publish(:second);
select throws_ok($$set constraints ingest.publication_reconciles immediate$$, 'IV222', null,
                 'A version whose amount no longer adds up to the EUR total is refused.');
rollback to savepoint b;

-- a rejected record's row removed
savepoint c;
delete from ingest.rejection_row as r where r.batch_id = :second and r.record_no = 4;
select tests.publish(:second);
select throws_ok($$set constraints ingest.publication_reconciles immediate$$, 'IV222', null,
                 'A rejected record that is no longer accounted for is refused.');
rollback to savepoint c;

-- the unchanged record's gross moved to another currency in the counts
savepoint d;
update ingest.pending_publication as p
   set counts = p.counts || '{"unversioned_by_currency": {"EUR": 0, "JPY": 12}}'
 where p.batch_id = :second;
select tests.publish(:second);
select throws_ok($$set constraints ingest.publication_reconciles immediate$$, 'IV222', null,
                 'Counts whose totals per currency disagree with control_totals are refused.');
rollback to savepoint d;

-- published without ingest.publish_batch (no merge counts stored)
savepoint e;
update ingest.batch as b set state = 'published' where b.batch_id = :second;
select throws_ok($$set constraints ingest.publication_reconciles immediate$$, 'IV222', null,
                 'A move to published that skips publish_batch is checked all the same.');
rollback to savepoint e;

-- untouched
select is((select p.outcome from tests.publish(:second) as p), 'published',
          'The untouched batch publishes ...');
select lives_ok($$set constraints ingest.publication_reconciles immediate$$,
                '... and passes the commit check.');
select is(ingest.publication_difference(:second), '{}'::text[],
          'publication_difference finds nothing to report for it.');
select is((select string_agg(i.invoice_number || ' ' || i.currency || ' ' || i.gross_amount, ', '
                             order by i.invoice_number)
           from reporting.invoice as i where i.source = :'source'),
          'INV-1 EUR 120.00, INV-2 JPY 120, INV-3 EUR 60.00, INV-5 EUR 12.00',
          'Readers see the accepted records, the resend from the first day.');
select is(has_function_privilege('invoice_loader', 'ingest.publication_difference(bigint)', 'execute')
          or has_function_privilege('invoice_reader', 'ingest.publication_difference(bigint)', 'execute'),
          false, 'The check''s function is internal: no role but its owner may call it.');

select * from finish();
rollback;
