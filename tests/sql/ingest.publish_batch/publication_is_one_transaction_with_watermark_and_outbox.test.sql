-- ingest.publish_batch writes the versions, the watermark and exactly one
-- batch_published outbox row in the same transaction as the state change:
-- when the last step (the validated -> published event) fails, none of them
-- remains; when it succeeds, all of them are there.
begin;
select plan(8);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), tests.seed_lines(20)) \gset
select state from tests.validate(:batch_id) \gset

create function tests.refuse_publication() returns trigger language plpgsql as $$
begin
  raise exception 'injected failure at the published checkpoint' using errcode = 'T0001';
end
$$;
create trigger refuse_publication before insert on ingest.batch_event
  for each row when (new.to_state = 'published') execute function tests.refuse_publication();

select throws_ok(format('select * from tests.publish(%s)', :batch_id), 'T0001', null,
                 'Publication fails when its final state change fails.');
select is((select (b.state, b.published_at)::text from ingest.batch as b where b.batch_id = :batch_id),
          '(validated,)', 'The failed publication leaves the batch validated.');
select is((select count(*)::integer from core.invoice_version as cv where cv.batch_id = :batch_id)
          + (select count(*)::integer from ingest.source_watermark as w where w.source = :'source')
          + (select count(*)::integer from ingest.outbox as o where o.batch_id = :batch_id),
          0, 'The failed publication leaves no version, no watermark and no outbox row.');

drop trigger refuse_publication on ingest.batch_event;
select * from tests.publish(:batch_id) \gset p_

select is(:'p_outcome'::text, 'published', 'The retried publication succeeds.');
select is((select count(*)::integer from core.invoice_version as cv where cv.batch_id = :batch_id), 20,
          'The 20 versions are written.');
select is((select array_agg(w.business_date || ' ' || w.batch_id) from ingest.source_watermark as w
           where w.source = :'source'),
          array[tests.d() || ' ' || :batch_id], 'The watermark moves to the business date.');
select is((select array_agg(o.kind || ' ' || o.dedupe_key) from ingest.outbox as o
           where o.batch_id = :batch_id),
          array['batch_published batch_published:' || :batch_id],
          'Exactly one outbox row, of kind batch_published, is written.');
select is((select b.state from ingest.batch as b where b.batch_id = :batch_id), 'published',
          'The batch is published.');

select * from finish();
rollback;
