-- core.invoice_version: core.keep_referenced_rows checks with the deleting
-- transaction's snapshot.  Under REPEATABLE READ (or SERIALIZABLE) that
-- snapshot cannot see a version another transaction committed while the
-- delete waited for its row lock, so deleting or renaming a currency,
-- source or batch is refused there with 0A000 and changes nothing; a change
-- that keeps every key (minor_unit) still works.
begin isolation level repeatable read;
select plan(5);

select throws_ok($$ delete from ingest.currency where code = 'XPF' $$, '0A000', null,
                 'Deleting even an unused currency is refused under REPEATABLE READ.');
select throws_ok($$ update ingest.currency set code = 'XPX' where code = 'XPF' $$, '0A000', null,
                 'So is renaming one.');
select ok(exists (select from ingest.currency where code = 'XPF'), 'XPF is still there.');
select lives_ok($$ update ingest.currency set minor_unit = minor_unit where code = 'XPF' $$,
                'An update that keeps the key works.');
select is((select current_setting('transaction_isolation')), 'repeatable read',
          'The test ran under REPEATABLE READ.');

select * from finish();
rollback;
