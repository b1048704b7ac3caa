-- ingest.write_notification, every outbox writer's one way to write a
-- notification: it returns the new row's id; written again for the same
-- batch and kind it adds no row and returns the same id (so the pg_notify
-- payload, {"notification_id", "batch_id", "kind"}, names the row either
-- way); another kind of the same batch is another row.  It is internal:
-- neither pipeline role may execute it.
begin;
select plan(5);

select tests.make_source() as source \gset
select tests.make_batch(:'source') as batch_id \gset

select ingest.write_notification(:batch_id, 'batch_quarantined', '{"n": 1}') as first_id \gset
select ingest.write_notification(:batch_id, 'batch_quarantined', '{"n": 2}') as again_id \gset
select is(:again_id::bigint, :first_id::bigint, 'Written again, the same id is returned.');
select is((select array_agg(o.payload::text) from ingest.outbox as o where o.batch_id = :batch_id),
          array['{"n": 1}'], 'One row, with the first payload.');
select isnt(ingest.write_notification(:batch_id, 'batch_published', '{}'), :first_id::bigint,
            'Another kind is another notification.');
select function_privs_are('ingest', 'write_notification', array['bigint', 'text', 'jsonb', 'text'],
                          'invoice_loader', '{}'::text[], 'The loader may not execute it.');
select function_privs_are('ingest', 'write_notification', array['bigint', 'text', 'jsonb', 'text'],
                          'invoice_operator', '{}'::text[], 'The operator may not execute it.');

select * from finish();
rollback;
