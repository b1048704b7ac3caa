-- ingest.transition on a batch id that does not exist raises IV208 and
-- records nothing.
begin;
select plan(2);

select coalesce(max(b.batch_id), 0) + 1000 as missing from ingest.batch as b \gset

select throws_ok(format('select ingest.transition(%s, %L, %L, null)', :missing, 'received', 'staged'),
                 'IV208', null, 'A legal move of a batch that does not exist is refused as unknown.');

select is_empty(format('select 1 from ingest.batch_event where batch_id = %s', :missing),
                'No event is written for the unknown batch.');

select * from finish();
rollback;
