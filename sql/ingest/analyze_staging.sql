-- ingest.analyze_staging: fresh statistics of the staging tables (and
-- summarized BRIN ranges while other batches share them, below), so that
-- validation and publication plan their joins
-- and hash tables for the batch that is there now (without them PostgreSQL
-- guesses a batch is 0.5% of the table and sizes everything a hundred
-- times too small).
-- The loader calls it in a transaction of its own before validating and
-- before publishing: ANALYZE holds its lock until its transaction ends, and
-- inside validation that would queue every other source's validation
-- behind this one.  Sampled: at most 3,000 rows a table, whatever its size
-- (statistics target 10, set on the function): what the steps plan with is
-- the share of each batch, the distinct invoice numbers and the row count,
-- which a sample of 3,000 gives as well as the default's 30,000, at a
-- tenth of the time (17 ms against 0.2 s for a million typed rows).
-- p_step: 'validation' (the raw rows it reads) or 'publication' (the typed
-- rows validation wrote, and the key history it read); each table is
-- analyzed where it changed.  The typed rows are p_batch_id's table: its
-- own partition of staging.invoice_valid, or the shared one
-- (ingest.typed_staging); ANALYZE of the partitioned parent would sample
-- every batch's partition.
-- Errors: 22023 any other step.
create or replace function ingest.analyze_staging(p_step text, p_batch_id bigint)
returns void
language plpgsql
security definer
set search_path = ''
set default_statistics_target = 10
as $$
declare
  v_typed pg_catalog.regclass :=
    coalesce(ingest.typed_staging_partition(p_batch_id),
             'staging.invoice_valid_shared'::pg_catalog.regclass);
  v_shared boolean;
  v_raw    boolean;
begin
  -- Which shared tables hold rows of this batch: ANALYZE and BRIN
  -- summarizing take a lock that conflicts with itself, so a call that
  -- touched a table the batch has no rows in made the loads of other
  -- sources wait for nothing (the loader's batches have no raw rows, and
  -- one of 100,000 records or more has a typed partition of its own).
  v_shared := v_typed = 'staging.invoice_valid_shared'::pg_catalog.regclass;
  v_raw := exists (select from staging.invoice_line as l where l.batch_id = p_batch_id);
  -- The BRIN batch indexes of the raw and the shared typed rows.  Summarized
  -- ranges let a batch's lookups skip the pages of other batches; a
  -- lookup reads every unsummarized range, whoever's rows it holds.  So
  -- the page ranges written since the last call are summarized when
  -- another batch is in staging (received, staged or validated: the
  -- states that have, or are about to have, rows there); when this batch
  -- is the only one, the new pages are its own and its lookups read them
  -- anyway, and summarizing them would be one more read of the whole
  -- batch (0.4 s of a million typed rows, 4 s of 10M: docs/PERFORMANCE.md).
  -- A batch that starts staging meanwhile only costs this one's lookups
  -- its pages; its own call summarizes everything, this batch's included.
  -- The first range is summarized always: after a crash the unlogged
  -- index is reset to an empty revmap, which the planner costs negative
  -- (and plans badly) until one range is summarized.
  -- Each batch summarizes only the tables it has rows in; another batch's
  -- own call summarizes the rest.
  if (select count(*) from ingest.batch as b
       where b.state in ('received', 'staged', 'validated')) > 1 then
    if v_raw then
      perform pg_catalog.brin_summarize_new_values('staging.invoice_line_batch'::pg_catalog.regclass);
    end if;
    if v_shared then
      perform pg_catalog.brin_summarize_new_values('staging.invoice_valid_shared_batch'::pg_catalog.regclass);
    end if;
  else
    perform pg_catalog.brin_summarize_range('staging.invoice_line_batch'::pg_catalog.regclass, 0);
    perform pg_catalog.brin_summarize_range('staging.invoice_valid_shared_batch'::pg_catalog.regclass, 0);
  end if;
  -- only the columns the steps join, group and filter on: the others
  -- (amounts, descriptions, the sixteen extra_N) would triple its cost
  case p_step
    when 'validation' then
      -- raw rows (the SQL path) or the loader's typed rows, whichever the
      -- batch has
      if v_raw then
        analyze staging.invoice_line (batch_id, record_no, invoice_number, currency);
      end if;
      execute pg_catalog.format('analyze %s (batch_id, record_no, invoice_number, revision, rules)',
                                v_typed);
    when 'publication' then
      execute pg_catalog.format('analyze %s (batch_id, record_no, invoice_number, revision, is_duplicate)',
                                v_typed);
      -- and what validation read from history for the batch's keys: the
      -- merge joins it with the typed rows, and without its size the
      -- planner takes it for a few hundred rows and hashes the million
      -- typed rows instead, whose hash order then scatters the versions'
      -- inserts over the primary key and the one-current index (over a
      -- 5M history, 11 s instead of 4 s for a million versions)
      analyze staging.key_version (batch_id, invoice_number, revision, is_current);
    else
      raise exception 'analyze_staging: no step % (validation or publication)',
                      pg_catalog.quote_nullable(p_step)
        using errcode = 'invalid_parameter_value';
  end case;
end;
$$;
comment on function ingest.analyze_staging(text, bigint) is
  E'ANALYZE what the next step of the batch reads (in its own transaction: the lock is held to its end).\nErrors: 22023 unknown step.';
revoke all on function ingest.analyze_staging(text, bigint) from public;
grant execute on function ingest.analyze_staging(text, bigint) to invoice_loader;
