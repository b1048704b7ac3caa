-- ingest.rejected_gross: a batch's rejected records, each once (its first
-- rejection row; record 0, the file, is no record), as reconciliation
-- counts them: {"rejected": N, "rejected_gross": sum of their readable
-- gross amounts, "by_currency": {code: sum}} (a record whose currency is
-- not a code of ingest.currency counts in no currency).  One definition
-- for the write's second reconciliation (ingest.write_batch) and the
-- commit check (ingest.publication_difference).
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.rejected_gross(p_batch_id bigint)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
           'rejected', coalesce(sum(g.n), 0),
           'rejected_gross', coalesce(sum(g.gross), 0),
           'by_currency', coalesce(jsonb_object_agg(g.currency, g.gross)
                                     filter (where g.currency is not null), '{}'))
  from (select r.currency, count(*) as n, coalesce(sum(r.gross_amount), 0) as gross
        from (select distinct on (x.record_no) x.currency, x.gross_amount
              from ingest.rejection_row as x
              where x.batch_id = p_batch_id and x.record_no > 0
              order by x.record_no) as r
        group by r.currency) as g;
$$;
comment on function ingest.rejected_gross(bigint) is
  E'A batch''s rejected records as reconciliation counts them: how many, their gross, their gross per currency.\nErrors: none.';
revoke all on function ingest.rejected_gross(bigint) from public;
