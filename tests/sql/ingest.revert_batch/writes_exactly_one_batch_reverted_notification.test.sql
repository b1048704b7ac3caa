-- ingest.revert_batch writes exactly one outbox row, kind batch_reverted,
-- pending, with the payload shape publication uses (batch_id, source,
-- business_date, sha256, counts) and the revert's counts; the
-- batch_published row of the publication stays as it was.
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.first_day_lines()) \gset
select tests.revert(:batch_id, 'wrong file') \gset

select is((select array_agg(n.kind || ' ' || n.state || ' ' || n.dedupe_key order by n.notification_id)
           from ingest.notification as n where n.batch_id = :batch_id),
          array['batch_published pending batch_published:' || :batch_id,
                'batch_reverted pending batch_reverted:' || :batch_id],
          'One batch_reverted row follows the batch_published one.');
select is((select array_agg(k order by k) from ingest.notification as n,
           jsonb_object_keys(n.payload) as k
           where n.batch_id = :batch_id and n.kind = 'batch_reverted'),
          (select array_agg(k order by k) from ingest.notification as n,
           jsonb_object_keys(n.payload) as k
           where n.batch_id = :batch_id and n.kind = 'batch_published'),
          'Its payload has the keys a batch_published payload has.');
select is((select (n.payload -> 'counts' ->> 'reverted_versions', n.payload -> 'counts' ->> 'reason')::text
           from ingest.notification as n where n.batch_id = :batch_id and n.kind = 'batch_reverted'),
          '(21,"wrong file")', 'It carries the revert''s counts and reason.');
select is((select count(*)::integer from ingest.outbox as o
           join ingest.batch as b using (batch_id)
           where b.source = :'source' and o.kind = 'batch_reverted'), 1,
          'There is exactly one batch_reverted row for the source.');

select * from finish();
rollback;
