-- ingest.add_by_currency: two amounts per currency ({code: amount}, as
-- jsonb; NULL reads as none) added code by code.
-- Internal: no EXECUTE grants.
-- Errors: 22P02 an amount that is not a number.
create or replace function ingest.add_by_currency(p_a jsonb, p_b jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(t.code, t.amount), '{}')
  from (select e.key as code, sum(e.value::numeric) as amount
        from (select * from jsonb_each_text(coalesce(p_a, '{}'))
              union all
              select * from jsonb_each_text(coalesce(p_b, '{}'))) as e
        group by e.key) as t;
$$;
comment on function ingest.add_by_currency(jsonb, jsonb) is
  E'Two amounts per currency added code by code.\nErrors: 22P02 an amount that is not a number.';
revoke all on function ingest.add_by_currency(jsonb, jsonb) from public;
