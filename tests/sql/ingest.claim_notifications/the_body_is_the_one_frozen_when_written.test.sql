-- ingest.claim_notifications sends the body frozen when the notification
-- was written (ingest.outbox.body), not the batch as it is at dispatch: a
-- quarantine of a file whose manifest said 4300.00 still says 4300.00 when
-- the batch was since given a corrected total; a publication keeps its
-- counts and its accepted gross per currency when the batch row changes
-- later.  A row written before bodies were stored (body NULL) is filled
-- from the batch at claim time, as it always was.
begin;
select plan(6);

select tests.make_source('acme-erp', p_start_date => tests.d());
select batch_id as quarantined, state from tests.load_batch('acme-erp', tests.d(), tests.seed_lines(20),
  tests.manifest('acme-erp', tests.d(), 20, '4300.00')) \gset
select is(:'state'::text, 'quarantined', 'A file 100.00 short of its manifest is quarantined.');
select is((select (o.body ->> 'control_total')::numeric from ingest.outbox as o
           where o.batch_id = :quarantined and o.kind = 'batch_quarantined'),
          4300.00, 'Its notification''s body is stored when written, with the manifest''s total.');

-- What a replay with a corrected manifest changes on the batch row.
update ingest.batch set control_total = 4200.00, record_count = 20,
       manifest = tests.manifest('acme-erp', tests.d(), 20, '4200.00')::jsonb
 where batch_id = :quarantined;
select is((select (c.payload ->> 'control_total', c.payload ->> 'record_count',
                   c.payload ->> 'rejected_count')::text
           from ingest.claim_notifications(1, 'late') as c),
          '(4300.00,20,0)', 'Sent later, it still says 4300.00: the values of its own moment.');

select pg_catalog.pg_advisory_unlock_all();
update ingest.outbox set state = 'dispatched', dispatched_at = pg_catalog.now()
 where batch_id = :quarantined;
-- Another source: the quarantined date holds acme-erp's next dates back.
select tests.make_source('acme-two', p_start_date => tests.d());
select batch_id as published from tests.load_batch('acme-two', tests.d(), tests.seed_lines(20),
  tests.manifest('acme-two', tests.d(), 20, '4200.00')) \gset
update ingest.batch set control_total = 1, accepted_count = 1, rejected_count = 19
 where batch_id = :published;
select is((select (c.payload ->> 'control_total', c.payload ->> 'accepted_count',
                   c.payload ->> 'rejected_count', c.payload -> 'accepted_by_currency')::text
           from ingest.claim_notifications(1, 'late') as c),
          '(4200.00,20,0,"{""EUR"": 4200.00}")',
          'A publication keeps its counts and its accepted gross per currency.');

-- A row from before bodies were stored.
select pg_catalog.pg_advisory_unlock_all();
update ingest.outbox set state = 'dispatched', dispatched_at = pg_catalog.now()
 where batch_id = :published;
select tests.make_source('acme-old', p_start_date => tests.d());
select batch_id as older from tests.load_batch('acme-old', tests.d(), tests.seed_lines(20),
  tests.manifest('acme-old', tests.d(), 20, '4400.00')) \gset
update ingest.outbox set body = null where batch_id = :older;
select is((select (c.payload ->> 'control_total', c.payload ->> 'source')::text
           from ingest.claim_notifications(1, 'late') as c),
          '(4400.00,acme-old)', 'A row without a stored body is filled from the batch when claimed.');
select function_privs_are('ingest', 'notification_body', array['bigint', 'text', 'jsonb'],
                          'invoice_loader', '{}'::text[], 'The body function is internal.');

select * from finish();
rollback;
