-- Closing an invoice by absence changes the figures of its invoice date:
-- when the source's period is closed through a date on or after it, the
-- full extract is quarantined with period.closed (record 0, naming the
-- invoice), whatever the share and even with the override, and nothing
-- changes; once the period is reopened the replayed extract publishes.
begin;
select plan(5);

select tests.make_source() as source \gset
select tests.full_extract(:'source', 1);
select batch_id as day1 from tests.load_batch(:'source', tests.d(),
  (tests.seed_lines(3)) || array[tests.line('INV-OLD', p_invoice_date => '2026-10-15')]) \gset
select tests.close_period(:'source', date '2026-10-31');

select batch_id as day2, state from tests.load_batch(:'source', tests.d() + 1, tests.seed_lines(3)) \gset
select is(tests.rejections(:day2), array['0 period.closed'],
          'INV-OLD, dated in the closed period, would be closed: quarantined with period.closed.');
select is((select r.invoice_number from ingest.rejection as r where r.batch_id = :day2),
          'INV-OLD', 'The reason names the invoice.');
select is((select count(*)::integer from reporting.invoice as i where i.source = :'source'), 4,
          'Nothing changed.');
select tests.replay_allowing_absent(:day2) \gset
select is((select l.state from tests.load_batch(:'source', tests.d() + 1, tests.seed_lines(3)) as l),
          'quarantined', 'The absent-share override does not open a closed period.');
select tests.reopen_period(:'source');
select tests.replay(:day2, 'period reopened') \gset
select l.state as reloaded from tests.load_batch(:'source', tests.d() + 1, tests.seed_lines(3)) as l \gset
select is(:'reloaded' || ' ' || (select count(*) from reporting.invoice as i where i.source = :'source'),
          'published 3', 'Reopened, the replayed extract publishes and closes INV-OLD.');

select * from finish();
rollback;
