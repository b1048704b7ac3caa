-- ingest.status_report's next action for a source blocked by a validated
-- batch says what the batch waits for: a batch two days ahead waits for the
-- day before it; a batch whose turn has come may publish (its load again,
-- or the sweep); a written batch (ingest.write_batch done, the publication
-- not) says so.
begin;
select plan(3);

select tests.make_source() as source \gset
select tests.load_batch(:'source', tests.d(), array[tests.line('INV-1')]);
select batch_id as ahead from tests.stage_batch(:'source', tests.d() + 2, array[tests.line('INV-3')]) \gset
select tests.validate(:ahead);
create function pg_temp.action(p_source text) returns text language sql as $$
  select a ->> 'action' from jsonb_array_elements(ingest.status_report(p_source) -> 'next_actions') as a $$;

select matches(pg_temp.action(:'source'), format('^batch %s \(%s\) waits for %s:', :ahead, tests.d() + 2, tests.d() + 1),
               'A batch two days ahead waits for the day before it.');

select batch_id as next from tests.stage_batch(:'source', tests.d() + 1, array[tests.line('INV-2')]) \gset
select tests.validate(:next);
select matches(pg_temp.action(:'source'), format('^batch %s \(%s\) is validated and may publish: run its load again', :next, tests.d() + 1),
               'A batch whose turn has come may publish.');

select tests.write(:next);
select matches(pg_temp.action(:'source'), format('^batch %s \(%s\) is written and not yet published', :next, tests.d() + 1),
               'A written batch says so.');

select * from finish();
rollback;
