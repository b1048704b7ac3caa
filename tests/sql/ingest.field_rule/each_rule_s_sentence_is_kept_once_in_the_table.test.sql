-- ingest.field_rule holds each field rule's sentence (migrations/0029): the
-- detail of its rejection rows is that sentence formatted with the
-- record's values, and ingest.validate_batch keeps no sentence of its own.
-- A rule whose sentence is edited in the function instead of the table,
-- or a sentence left empty, fails here; so does a detail that is not the
-- table's sentence.
begin;
select plan(4);

select is((select count(*)::integer from ingest.field_rule
           where sentence !~ ('^' || replace(rule, '.', '\.') || ' ')
             and sentence !~ ('^' || split_part(rule, '.', 1) || ' ')
             and rule not like 'amounts.%'),
          0, 'Every sentence starts with the field its rule is about.');
select is((select array_agg(f.rule order by f.rule) from ingest.field_rule as f
           where strpos(pg_get_functiondef('ingest.validate_batch(bigint, bigint)'::regprocedure),
                        regexp_replace(f.sentence, '^.*%[0-9]+\$[sL] ', '')) > 0
             and f.sentence ~ '%'),
          null, 'ingest.validate_batch spells out no rule''s sentence.');

select tests.make_source() as source \gset
select batch_id as batch from tests.stage_batch(:'source', tests.d(), array[
  tests.line('INV-1', p_status => 'MAYBE'),
  tests.line('INV-2', p_net_amount => '100.001', p_tax_amount => '20.00',
             p_gross_amount => '120.001')]) \gset
select is((select v.state from tests.validate(:batch) as v), 'quarantined',
          'The batch with two bad records is quarantined (all-or-nothing).');
select set_eq(format($$select rule, detail from ingest.rejection_row where batch_id = %s$$, :batch),
              $$values ('status.value', 'status ''MAYBE'' is not ISSUED or VOID'),
                       ('net_amount.precision', 'net_amount 100.001 has more than 2 decimals for EUR'),
                       ('gross_amount.precision',
                        'gross_amount 120.001 has more than 2 decimals for EUR')$$,
              'Each detail is the rule''s sentence with the record''s values.');

select * from finish();
rollback;
