-- ingest.set_period_lock: an operator closes a source's period through a
-- date and reopens it, each an audited action (ingest.operator_action:
-- period_close / period_reopen, the source, the date, the reason, the
-- session user); a close only moves the date forward and a reopen only
-- back (IV309), a repeated close changes nothing and records nothing; no
-- reason is IV307, no date IV308, an unknown source IV301; the loader role
-- may not call it.  status shows the lock date.
begin;
select plan(14);

select tests.make_source() as source \gset
set local role invoice_operator;
select is((select (p.locked_before, p.locked_now)::text
           from ingest.set_period_lock(:'source', true, date '2026-10-31', 'October closed') as p),
          '(,2026-10-31)', 'The first close sets the date.');
select is((select p.action_id from ingest.set_period_lock(:'source', true, date '2026-10-31', 'again') as p),
          null, 'Closing through the same date again changes nothing.');
select is((select (p.locked_before, p.locked_now)::text
           from ingest.set_period_lock(:'source', true, date '2026-11-30', 'November closed') as p),
          '(2026-10-31,2026-11-30)', 'A later date moves the period forward.');
select throws_ok($$ select * from ingest.set_period_lock('acme-erp', true, date '2026-10-31', 'back') $$,
                 'IV309', null, 'A close does not move the date back.');
select throws_ok($$ select * from ingest.set_period_lock('acme-erp', false, date '2026-12-31', 'fwd') $$,
                 'IV309', null, 'A reopen does not move it forward.');
select is((select (p.locked_before, p.locked_now)::text
           from ingest.set_period_lock(:'source', false, date '2026-10-31', 'November adjustments') as p),
          '(2026-11-30,2026-10-31)', 'A reopen moves it back to an earlier date.');
select is((select (ingest.status_report() -> 'sources' -> 0 ->> 'locked_through')),
          '2026-10-31', 'status shows the lock date.');
select is((select (p.locked_before, p.locked_now)::text
           from ingest.set_period_lock(:'source', false, null, 'audit done') as p),
          '(2026-10-31,)', 'A reopen without a date opens the period entirely.');
select throws_ok($$ select * from ingest.set_period_lock('acme-erp', false, null, 'again') $$,
                 'IV309', null, 'Nothing left to reopen.');
select throws_ok($$ select * from ingest.set_period_lock('acme-erp', true, date '2026-10-31', ' ') $$,
                 'IV307', null, 'A reason is required.');
select throws_ok($$ select * from ingest.set_period_lock('acme-erp', true, null, 'no date') $$,
                 'IV308', null, 'A close names its date.');
select throws_ok($$ select * from ingest.set_period_lock('nope', true, date '2026-10-31', 'x') $$,
                 'IV301', null, 'An unknown source is refused.');
reset role;
set local role invoice_loader;
select throws_ok($$ select * from ingest.set_period_lock('acme-erp', true, date '2026-12-31', 'x') $$,
                 '42501', null, 'The loader role may not close a period.');
reset role;

select is((select array_agg(o.action || ' ' || o.source || ' ' || coalesce(o.period_through::text, '-')
                            || ' ' || o.reason || ' ' || (o.db_user = session_user)::text
                            order by o.action_id)
           from ingest.operator_action as o where o.source = :'source'),
          array['period_close acme-erp 2026-10-31 October closed true',
                'period_close acme-erp 2026-11-30 November closed true',
                'period_reopen acme-erp 2026-10-31 November adjustments true',
                'period_reopen acme-erp - audit done true'],
          'Each change is one audited action; the no-op and the refusals left none.');

select * from finish();
rollback;
