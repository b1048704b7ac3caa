-- A source with --extract full: the first extract (10 invoices, 1,100.00)
-- closes nothing; the second lists 9 of them (one left out: exactly the
-- default share of 0.10, which passes) and a new one, and its publication
-- closes the absent invoice by absence: it leaves reporting.invoice,
-- reporting.invoice_version keeps its version, superseded by the batch and
-- marked closed_by_absence, core.invoice_closure names the batch, and the
-- counts, the notification's frozen body and status say 1 closed.  The
-- file's reconciliation is untouched (the closure is no record of it) and
-- the commit check agrees.  A current VOID is not closed again, and a
-- delta source closes nothing.
begin;
select plan(14);

select tests.make_source() as source \gset
select tests.full_extract(:'source');
select batch_id as day1 from tests.load_batch(:'source', tests.d(), tests.seed_lines(10)) \gset
select is((select b.merge_counts ->> 'closed_by_absence' from ingest.batch as b where b.batch_id = :day1),
          '0', 'The first full extract of a source without current invoices closes nothing.');

select (tests.seed_lines(9)) || array[tests.line('INV-NEW')] as rows2 \gset
select batch_id as day2, state from tests.load_batch(:'source', tests.d() + 1, :'rows2'::text[]) \gset
select is(:'state'::text, 'published', 'One absent invoice of ten is within the share: published.');
select is((select (b.merge_counts ->> 'closed_by_absence', b.merge_counts ->> 'unchanged',
                   b.merge_counts ->> 'inserted', b.merge_counts ->> 'records')::text
           from ingest.batch as b where b.batch_id = :day2),
          '(1,9,1,10)', 'Counts: 1 closed by absence, apart from the 10 records (9 unchanged, 1 inserted).');
select is((select count(*) || ' ' || sum(i.gross_amount) from reporting.invoice as i
           where i.source = :'source'),
          '10 1020.00', 'The current view lost INV-0010 (200.00) and gained INV-NEW (120.00).');
select is((select (v.is_current, v.superseded_by_batch_id = :day2, v.closed_by_absence, v.batch_id = :day1)::text
           from reporting.invoice_version as v
           where v.source = :'source' and v.invoice_number = 'INV-0010'),
          '(f,t,t,t)', 'History keeps its version, superseded by the batch that noticed the absence.');
select is((select count(*)::integer from reporting.invoice_version as v
           where v.source = :'source' and v.closed_by_absence), 1,
          'No other version is marked closed by absence.');
select is((select (c.invoice_number, c.revision, c.batch_id = :day2, c.reverted_at is null)::text
           from core.invoice_closure as c where c.source = :'source'),
          '(INV-0010,0,t,t)', 'One closing row names the invoice, its revision and the batch.');
select is((select count(*)::integer from core.invoice_version as v where v.batch_id = :day2), 1,
          'The batch wrote one version (INV-NEW): the closure is no version of the file.');
select is(ingest.publication_difference(:day2), '{}'::text[],
          'The publication reconciles: the file''s equations and the closures counted apart.');
select is((select n.body ->> 'closed_by_absence' from ingest.outbox as n
           where n.batch_id = :day2 and n.kind = 'batch_published'),
          '1', 'The batch_published body says 1 invoice closed by absence.');
select is((select b ->> 'closed_by_absence'
           from jsonb_array_elements(ingest.status_report(:'source') -> 'batches') as b
           where (b ->> 'batch_id')::bigint = :day2),
          '1', 'status reports it for the batch.');

-- A current VOID is out of the view already: a later extract that leaves
-- it out does not close it again.
select batch_id as day3 from tests.load_batch(:'source', tests.d() + 2,
  (tests.seed_lines(8)) || array[tests.line('INV-NEW'), tests.line('INV-0009', p_revision => '1', p_status => 'VOID')]) \gset
select batch_id as day4 from tests.load_batch(:'source', tests.d() + 3,
  (tests.seed_lines(8)) || array[tests.line('INV-NEW')]) \gset
select is((select b.merge_counts ->> 'closed_by_absence' from ingest.batch as b where b.batch_id = :day4),
          '0', 'A VOID left out of the next extract is not closed again.');

-- A delta source (the default) closes nothing.
select tests.make_source('delta-src') as delta \gset
select batch_id as d1 from tests.load_batch(:'delta', tests.d(), tests.seed_lines(10)) \gset
select batch_id as d2 from tests.load_batch(:'delta', tests.d() + 1, (tests.seed_lines(2))) \gset
select is((select count(*)::integer from reporting.invoice as i where i.source = :'delta'), 10,
          'A delta source keeps what its file does not carry.');
select ok(not (select b.merge_counts ? 'closed_by_absence' from ingest.batch as b where b.batch_id = :d2),
          'and its counts have no closed_by_absence.');

select * from finish();
rollback;
