-- A closure by absence is a supersession by the batch, so the revert of
-- the batch (and an undo to a date) restores the invoices: current again,
-- back in reporting.invoice with their amounts, their closure rows marked
-- reverted by the action, the period in which they were current kept for
-- reporting.invoice_as_of, and the batch_reverted counts say how many
-- closures were undone.
begin;
select plan(7);

select tests.make_source() as source \gset
select tests.full_extract(:'source', 0.5);
select batch_id as day1 from tests.load_batch(:'source', tests.d(), tests.seed_lines(10)) \gset
select batch_id as day2 from tests.load_batch(:'source', tests.d() + 1, tests.seed_lines(6)) \gset
select is((select count(*) || ' ' || sum(i.gross_amount) from reporting.invoice as i where i.source = :'source'),
          '6 420.00', 'Day 2 closed INV-0007..0010.');

select tests.revert(:day2, 'the extract was cut short') as action \gset
select is((select count(*) || ' ' || sum(i.gross_amount) from reporting.invoice as i where i.source = :'source'),
          '10 1100.00', 'The revert brings the four invoices back.');
select is((select count(*)::integer from core.invoice_closure as c
           where c.batch_id = :day2 and c.reverted_by_action = :action), 4,
          'Their closure rows say which revert undid them.');
select is((select count(*)::integer from reporting.invoice_version as v
           where v.source = :'source' and v.closed_by_absence), 0,
          'No version is shown closed by absence any more.');
select is((select count(*)::integer from core.invoice_version_period as p where p.restored_by_action = :action), 4,
          'The periods they were current before are kept for as_of.');
select is((select n.payload -> 'counts' ->> 'reopened_closed_by_absence' from ingest.outbox as n
           where n.batch_id = :day2 and n.kind = 'batch_reverted'),
          '4', 'The batch_reverted counts name the closures undone.');

-- Undo to a date does the same through the same function.
select tests.replay(:day2, 'load it again') \gset
select l.state from tests.load_batch(:'source', tests.d() + 1, tests.seed_lines(6)) as l \gset
set local role invoice_operator;
select count(*) from ingest.revert_to_date(:'source', date '2026-11-28', 'back to day 1') \gset
reset role;
select is((select count(*) || ' ' || sum(i.gross_amount) from reporting.invoice as i where i.source = :'source'),
          '10 1100.00', 'revert_to_date restores the closed invoices too.');

select * from finish();
rollback;
