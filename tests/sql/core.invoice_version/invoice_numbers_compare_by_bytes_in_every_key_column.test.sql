-- Invoice numbers compare byte by byte (COLLATE "C", migrations/0027)
-- wherever the merge indexes or sorts them, whatever collation the database
-- was created with: the versions and their two side tables, the loader's
-- typed staging (the partitioned table and its shared partition,
-- migrations/0028) and the key history, and every index over those columns.
-- Under a libc locale such as de_DE.UTF-8 each B-tree comparison would
-- otherwise be a strcoll() call (docs/PERFORMANCE.md, "Invoice numbers
-- compare by bytes").  A table made anew without the COLLATE fails here.
-- The raw staging table keeps the database's collation: text as in the file.
begin;
select plan(4);

select is(
  (select array_agg(format('%s.%s', a.attrelid::regclass, a.attname)
                    order by format('%s.%s', a.attrelid::regclass, a.attname))
   from pg_catalog.pg_attribute as a
   join pg_catalog.pg_class as c on c.oid = a.attrelid
   where c.relnamespace in ('core'::regnamespace, 'staging'::regnamespace)
     and c.relkind in ('r', 'p') and a.attname = 'invoice_number' and not a.attisdropped),
  array['core.invoice_closure.invoice_number', 'core.invoice_version.invoice_number', 'core.invoice_version_period.invoice_number',
        'core.invoice_version_reverted.invoice_number', 'staging.invoice_line.invoice_number',
        'staging.invoice_valid.invoice_number', 'staging.invoice_valid_shared.invoice_number',
        'staging.key_version.invoice_number'],
  'These tables of core and staging hold an invoice number.');

select is(
  (select array_agg(format('%s.%s %s', a.attrelid::regclass, a.attname,
                           a.attcollation::regcollation))
   from pg_catalog.pg_attribute as a
   join pg_catalog.pg_class as c on c.oid = a.attrelid
   where c.relnamespace in ('core'::regnamespace, 'staging'::regnamespace)
     and c.relkind in ('r', 'p') and a.attname = 'invoice_number' and not a.attisdropped
     and a.attrelid <> 'staging.invoice_line'::regclass
     and a.attcollation <> 'pg_catalog."C"'::regcollation),
  null,
  'Every one of them but the raw staging table compares by bytes.');

-- Each index column over an invoice number, with its collation.
create temporary table index_column on commit drop as
select i.indexrelid::regclass as index_name, c.attname,
       i.indcollation[k.n - 1]::regcollation as collation
from pg_catalog.pg_index as i
cross join lateral unnest(i.indkey) with ordinality as k(attnum, n)
join pg_catalog.pg_attribute as c on c.attrelid = i.indrelid and c.attnum = k.attnum
where c.attname = 'invoice_number'
  and i.indrelid in (select r.oid from pg_catalog.pg_class as r
                     where r.relnamespace in ('core'::regnamespace, 'staging'::regnamespace));

select is((select array_agg(ic.index_name::text order by ic.index_name::text)
           from index_column as ic),
          array['core.invoice_closure_standing', 'core.invoice_version_one_current', 'core.invoice_version_period_pkey',
                'core.invoice_version_pkey', 'core.invoice_version_reverted_pkey',
                'staging.key_version_key'],
          'These indexes have an invoice number among their columns.');

select is((select array_agg(format('%s %s', ic.index_name, ic.collation))
           from index_column as ic where ic.collation <> 'pg_catalog."C"'::regcollation),
          null,
          'Every one of them compares it by bytes.');

select * from finish();
rollback;
