-- A source's file format (source add --format-file) is stored by version:
-- the same format keeps its version, another makes the next, NULL goes back
-- to the contract's own format; only operators set it (the loader reads it
-- through ingest.file_format_of); a batch records the version its bytes were
-- read with, ingest.file_format_of gives registered bytes their batch's
-- version whatever the source's format is now, and ingest.begin_attempt
-- refuses (IV321) to register the same bytes read with another version.
begin;
select plan(13);

select tests.make_source() as source \gset
select '{"delimiter": ";", "date_format": "DD.MM.YYYY"}' as v1,
       '{"delimiter": ";", "date_format": "YYYYMMDD"}' as v2 \gset

set local role invoice_operator;
select is(ingest.set_source_format(:'source', :'v1'), 1, 'The first format is version 1.');
select is(ingest.set_source_format(:'source', :'v1'), 1, 'The same format keeps its version.');
select throws_ok(format('select ingest.set_source_format(%L, %L)', :'source', '[1]'), 'IV320', null,
                 'A format that is not a JSON object is refused.');
select throws_ok($$ select ingest.set_source_format('no-such-source', '{}') $$, 'IV301', null,
                 'An unknown source is refused.');
reset role;

set local role invoice_loader;
select throws_ok(format('select ingest.set_source_format(%L, %L)', :'source', '{}'), '42501', null,
                 'The loader cannot set a format.');
select is((select f.format_version || ' ' || (f.format ->> 'date_format') from ingest.file_format_of(:'source') as f),
          '1 DD.MM.YYYY', 'The loader reads the current format.');
reset role;

-- A batch read with version 1.
select tests.begin_args(:'source', tests.d(), repeat('ab', 32), 100, 'f.csv', tests.columns(),
                        tests.manifest(:'source', tests.d(), 1, '120.00'), 1) as args \gset
select (:'args'::jsonb || '{"format_version": 1, "defaults": ["revision=0"]}') as args1 \gset
set local role invoice_loader;
select batch_id from ingest.begin_attempt(:'args1') \gset
reset role;
select is((select b.format_version || ' ' || b.defaults::text from ingest.batch as b where b.batch_id = :batch_id),
          '1 {revision=0}', 'The batch records its format version and defaults.');

set local role invoice_operator;
select is(ingest.set_source_format(:'source', :'v2'), 2, 'Another format is the next version.');
reset role;
set local role invoice_loader;
select is((select f.format_version || ' ' || f.batch_id from ingest.file_format_of(:'source', repeat('ab', 32)) as f),
          '1 ' || :batch_id, 'Registered bytes are read with their batch''s version.');
select is((select f.format_version::text from ingest.file_format_of(:'source', repeat('ef', 32)) as f),
          '2', 'New bytes are read with the source''s current version.');
select throws_ok(format('select * from ingest.begin_attempt(%L)',
                        :'args'::jsonb || '{"format_version": 2, "defaults": []}'),
                 'IV321', null, 'The same bytes read with another version are refused.');
reset role;

set local role invoice_operator;
select is(ingest.set_source_format(:'source', null), null, 'NULL goes back to the contract''s format.');
reset role;
select is((select count(*)::int from ingest.source_format where source = :'source'), 2,
          'Earlier versions are kept.');

select * from finish();
rollback;
