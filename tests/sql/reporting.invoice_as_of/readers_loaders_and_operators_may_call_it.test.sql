-- reporting.invoice_as_of and reporting.invoice_as_of_batch run with their
-- owner's rights (they read core and ingest, which the reader cannot) and
-- are executable by invoice_reader, invoice_loader and invoice_operator;
-- the reader gets what reporting.invoice shows, and as_of_batch of a
-- batch is what was shown right after its publication.
begin;
select plan(10);

select is_definer('reporting', f, array[a], format('reporting.%s runs with its owner''s rights.', f))
from (values ('invoice_as_of', 'timestamp with time zone'), ('invoice_as_of_batch', 'bigint')) as t(f, a);
select function_privs_are('reporting', f, array[a], r, array['EXECUTE'],
                          format('%s may execute reporting.%s.', r, f))
from (values ('invoice_as_of', 'timestamp with time zone'), ('invoice_as_of_batch', 'bigint')) as t(f, a),
     unnest(array['invoice_reader', 'invoice_loader', 'invoice_operator']) as r;

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), tests.seed_lines()) \gset
set local role invoice_reader;
-- (is(), not set_eq: the reader may not create pgTAP's temporary tables)
select is((select array_agg(x::text order by x::text) from reporting.invoice_as_of(clock_timestamp()) as x),
          (select array_agg(x::text order by x::text) from reporting.invoice as x),
          'For the reader, as_of now is reporting.invoice.');
select is((select array_agg(x::text order by x::text) from reporting.invoice_as_of_batch(:batch_id) as x),
          (select array_agg(x::text order by x::text) from reporting.invoice as x),
          'as_of_batch of the only publication is what it showed.');
reset role;

select * from finish();
rollback;
