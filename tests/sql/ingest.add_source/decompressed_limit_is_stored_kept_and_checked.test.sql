-- ingest.add_source takes the source's decompressed-size limit
-- (--max-decompressed-bytes): a new source has none (the default applies:
-- 20 times the delivered size or 10 GiB); a given one is stored; an update
-- that omits it keeps it; 0, a negative number or more than 2^50 bytes
-- raise IV302 and change nothing; the loader reads it through
-- ingest.get_source.
begin;
select plan(7);

set local role invoice_operator;
select ingest.add_source('acme-erp');
select ingest.add_source('globex-erp', p_max_decompressed_bytes => 1048576);
reset role;

select is((select s.max_decompressed_bytes from ingest.source as s where s.source = 'acme-erp'),
          null::bigint, 'A new source has no decompressed-size limit of its own.');
select is((select s.max_decompressed_bytes from ingest.source as s where s.source = 'globex-erp'),
          1048576::bigint, 'The decompressed-size limit given is stored.');

set local role invoice_operator;
select ingest.add_source('globex-erp', p_retention_days => 10);
select throws_ok($$ select ingest.add_source('globex-erp', p_max_decompressed_bytes => 0) $$, 'IV302', null,
                 'A limit of 0 bytes is an invalid option value.');
select throws_ok($$ select ingest.add_source('globex-erp', p_max_decompressed_bytes => -1) $$, 'IV302', null,
                 'A negative limit is an invalid option value.');
select throws_ok($$ select ingest.add_source('globex-erp', p_max_decompressed_bytes => 1125899906842625) $$,
                 'IV302', null, 'A limit over 2^50 bytes is an invalid option value.');
reset role;
select is((select s.max_decompressed_bytes from ingest.source as s where s.source = 'globex-erp'),
          1048576::bigint, 'An update without it, and the refused ones, keep the limit.');

set local role invoice_loader;
select is((select s.max_decompressed_bytes from ingest.get_source('globex-erp') as s), 1048576::bigint,
          'The loader reads the limit through ingest.get_source.');
reset role;

select * from finish();
rollback;
