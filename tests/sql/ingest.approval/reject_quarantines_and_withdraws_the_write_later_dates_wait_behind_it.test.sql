-- Four eyes, the rejection: while a batch of the source awaits approval, a
-- later date is validated but not written (it waits behind it, watermark
-- order kept).  ingest.reject_batch quarantines the awaiting batch (rule
-- approval.rejected, one batch_quarantined notification, one audited
-- reject action), withdraws the versions it wrote and makes what it
-- superseded current again: readers see exactly what they saw before, the
-- watermark stays.  Rejecting or approving it again is IV315; a
-- quarantined batch may then be replayed as usual.
begin;
select plan(13);

select tests.make_source() as source \gset
select batch_id as day1 from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) \gset
select ingest.set_source_approval(:'source', true);
create temp table before_reject as
  select source, invoice_number, revision, gross_amount from reporting.invoice;

select batch_id as day2, outcome as day2_outcome
from tests.load_batch(:'source', tests.d() + 1, tests.second_day_lines()) \gset
select batch_id as day3, outcome as day3_outcome
from tests.load_batch(:'source', tests.d() + 2, array[tests.line('INV-0300')]) \gset
-- The loads' session ends (their runner locks go with it).
select pg_catalog.pg_advisory_unlock_all();
select is(:'day2_outcome'::text, 'awaiting_approval', 'The second day awaits approval.');
select is(:'day3_outcome'::text, 'waiting', 'The third day waits behind it, not written.');
select is((select (r.outcome) from tests.write(:day3) as r), 'waiting',
          'Its write waits for the batch awaiting approval.');

select is((select (r.state, r.withdrawn_versions, r.restored_versions)::text
           from ingest.reject_batch(:day2, 'totals disagree with the ledger') as r),
          '(quarantined,4,2)', 'reject quarantines it: its 4 versions withdrawn, the 2 it superseded restored.');
select set_eq('select source, invoice_number, revision, gross_amount from reporting.invoice',
              'select * from before_reject', 'Readers see exactly what they saw before.');
select is((select count(*)::integer from core.invoice_version where batch_id = :day2), 0,
          'None of its versions is left.');
select is((select (w.business_date, w.batch_id)::text from ingest.source_watermark as w
           where w.source = :'source'), (tests.d(), :day1)::text, 'The watermark stays.');
select is_empty(format('select 1 from ingest.pending_publication where batch_id = %s', :day2),
                'It is no longer listed as written.');
select is(tests.rejections(:day2), array['0 approval.rejected'], 'Its rejection says why.');
select is((select array_agg(n.kind order by n.notification_id) from ingest.notification as n
           where n.batch_id = :day2), array['batch_quarantined'],
          'One batch_quarantined notification, nothing published.');
select is((select (o.action, o.db_user = session_user)::text
           from ingest.operator_action as o where o.batch_id = :day2),
          '(reject,t)', 'One reject action names the session user.');
select throws_ok(format('select * from ingest.reject_batch(%s, %L)', :day2, 'again'),
                 'IV315', null, 'A quarantined batch is not awaiting approval: IV315.');
select throws_ok(format('select * from ingest.approve_batch(%s, %L)', :day1, 'late'),
                 'IV315', null, 'Nor is a batch published without approval.');

select * from finish();
rollback;
