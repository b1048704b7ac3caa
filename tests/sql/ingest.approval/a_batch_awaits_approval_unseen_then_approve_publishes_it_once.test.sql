-- Four eyes, the batch: for a source with require_approval the load's
-- write stops the batch (validated, listed in ingest.pending_publication,
-- awaiting approval) and nothing of it reaches readers: no invoice, no
-- watermark, no notification.  Publishing it again as the loader does,
-- and the sweep, leave it as it is.  ingest.approve_batch publishes it
-- through the normal path: the invoices, the watermark, exactly one
-- batch_published notification, an attempt of its own, one audited
-- approve action; approving it again is IV315.
begin;
select plan(15);

select tests.make_source() as source \gset
select ingest.set_source_approval(:'source', true);
select batch_id, state as load_state, outcome as load_outcome
from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) \gset
-- The load's session ends (its runner lock goes with it).
select pg_catalog.pg_advisory_unlock_all();

select is(:'load_outcome'::text, 'awaiting_approval', 'The load''s publication step stops: awaiting approval.');
select is(:'load_state'::text, 'validated', 'The batch stays validated.');
select is((select (p.awaits_approval, p.approved_by_action)::text
           from ingest.pending_publication as p where p.batch_id = :batch_id),
          '(t,)', 'It is written, listed as awaiting approval.');
select is((select count(*)::integer from reporting.invoice where source = :'source'), 0,
          'Readers see none of its invoices.');
select is_empty(format('select 1 from ingest.source_watermark where source = %L', :'source'),
                'The watermark does not move.');
select is_empty(format('select 1 from ingest.notification where batch_id = %s', :batch_id),
                'No notification is written.');

select is((select p.outcome from tests.publish(:batch_id) as p), 'awaiting_approval',
          'A rerun''s publication finds it awaiting approval again.');
select is_empty(format('select 1 from ingest.sweep_publish_ready() as r where r.batch_id = %s', :batch_id),
                'The sweep does not even look at it.');
select is((select (b.state, (select count(*) from reporting.invoice where source = :'source'))::text
           from ingest.batch as b where b.batch_id = :batch_id),
          '(validated,0)', 'After both, nothing changed.');

select throws_ok(format('select * from ingest.approve_batch(%s, %L)', :batch_id, ' '),
                 'IV307', null, 'An approval needs a reason.');
select is((select (a.state, a.watermark)::text from ingest.approve_batch(:batch_id, 'checked totals') as a),
          '(published,' || tests.d() || ')', 'approve publishes it and moves the watermark.');
select is((select (count(*), sum(gross_amount))::text from reporting.invoice where source = :'source'),
          (select (count(*), sum(gross_amount))::text from core.invoice_version
            where batch_id = :batch_id and is_current and status = 'ISSUED'),
          'Readers now see exactly its current versions.');
select is((select array_agg(n.kind order by n.notification_id) from ingest.notification as n
           where n.batch_id = :batch_id),
          array['batch_published'], 'Exactly one batch_published notification.');
select is((select (o.action, o.db_user = session_user, o.reason)::text
           from ingest.operator_action as o where o.batch_id = :batch_id),
          '(approve,t,"checked totals")', 'One approve action names the session user and the reason.');
select throws_ok(format('select * from ingest.approve_batch(%s, %L)', :batch_id, 'again'),
                 'IV315', null, 'A published batch is not awaiting approval: IV315.');

select * from finish();
rollback;
