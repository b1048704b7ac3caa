-- A batch still received whose attempts all ended abandoned more than the
-- wait ago (default 24 hours) is closed: quarantined with the file-level
-- rule batch.abandoned and its notification.  Left alone: one abandoned
-- recently, one whose last attempt failed (its loader ended by itself and
-- reruns), one with no attempt, one whose runner lock is held.  A wait
-- under an hour raises IV308.
begin;
select plan(7);

select tests.make_source('acme-erp');
create temporary table b (name text primary key, batch_id bigint);
insert into b values
  ('orphan',  tests.make_batch('acme-erp', tests.d(), 'received')),
  ('recent',  tests.make_batch('acme-erp', tests.d() + 1, 'received')),
  ('failed',  tests.make_batch('acme-erp', tests.d() + 2, 'received')),
  ('none',    tests.make_batch('acme-erp', tests.d() + 3, 'received')),
  ('held',    tests.make_batch('acme-erp', tests.d() + 4, 'received'));
select tests.make_attempt(b.batch_id) from b where b.name in ('orphan', 'recent', 'failed', 'held');
select tests.make_attempt(b.batch_id) from b where b.name = 'orphan';
update ingest.attempt as a
   set outcome = case when b.name = 'failed' then 'failed' else 'abandoned' end,
       finished_at = pg_catalog.now() - case when b.name = 'recent' then interval '2 hours'
                                             else interval '25 hours' end
  from b where b.batch_id = a.batch_id;
select pg_catalog.pg_advisory_lock(k.key1, k.key2)
from ingest.runner_lock_key('acme-erp', tests.d() + 4) as k;

select results_eq($$ select s.batch_id from ingest.sweep_orphan_received() as s $$,
                  $$ select b.batch_id from b where b.name = 'orphan' $$,
                  'Only the batch abandoned more than 24 hours ago is closed.');
select is((select bo.state from ingest.batch_overview as bo join b using (batch_id) where b.name = 'orphan'),
          'quarantined', 'It is quarantined.');
select is((select tests.rejections(b.batch_id) from b where b.name = 'orphan'),
          array['0 batch.abandoned'], 'With the file-level rule batch.abandoned.');
select is((select count(*)::integer from ingest.notification as n join b using (batch_id)
           where b.name = 'orphan' and n.kind = 'batch_quarantined'), 1,
          'And one batch_quarantined notification.');
select is((select array_agg(b.name || ' ' || x.state order by b.name) from b
           join ingest.batch as x using (batch_id) where b.name <> 'orphan'),
          array['failed received', 'held received', 'none received', 'recent received'],
          'The others stay received.');
select is_empty($$ select * from ingest.sweep_orphan_received() $$, 'A second sweep closes nothing.');
select throws_ok($$ select * from ingest.sweep_orphan_received(interval '5 minutes') $$, 'IV308', null,
                 'A wait under an hour is refused.');

select * from finish();
rollback;
