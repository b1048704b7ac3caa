-- ingest.publish_batch / ingest.clear_typed_staging: a publication clears
-- its own batch's typed rows and key history.  It truncates the two staging
-- tables only when no other batch is staged or validated; another source's
-- batch validated in the meantime keeps every typed row (and then
-- publishes whole), and a source's staged batch (raw rows only, its
-- validation yet to come) keeps its raw rows.  Clearing both ways leaves
-- nothing of the published batches in staging.
begin;
select plan(6);

select tests.make_source('source-a') as a_source \gset
select tests.make_source('source-b') as b_source \gset
select tests.make_source('source-c') as c_source \gset

-- B: validated, waiting; C: staged (raw rows), not validated yet
select batch_id as b from tests.stage_batch(:'b_source', tests.d(), array[
  tests.line('B-1'), tests.line('B-2'), tests.line('B-3')]) \gset
select state as b_state from tests.validate(:b) \gset
select batch_id as c from tests.stage_batch(:'c_source', tests.d(), array[
  tests.line('C-1'), tests.line('C-2')]) \gset

-- A publishes while B and C are in flight
select outcome as a_outcome from tests.load_batch(:'a_source', tests.d(), array[
  tests.line('A-1'), tests.line('A-2')]) \gset
select is(:'b_state' || ' ' || :'a_outcome', 'validated published',
          'B is validated, then A publishes.');
select is((select count(*)::integer from staging.invoice_valid where batch_id = :b), 3,
          'B keeps its three typed rows.');
select is((select count(*)::integer from staging.invoice_line where batch_id = :c), 2,
          'C keeps its two raw rows.');

select outcome as b_outcome from tests.publish(:b) \gset
select is(:'b_outcome' || ' ' || (select count(*) from reporting.invoice where source = :'b_source'),
          'published 3', 'B publishes all three invoices.');
-- C is validated and published last, alone in flight: its clear may truncate
select state as c_state from tests.validate(:c) \gset
select outcome as c_outcome from tests.publish(:c) \gset
select is(:'c_state' || ' ' || :'c_outcome' || ' '
          || (select count(*) from reporting.invoice where source = :'c_source'),
          'validated published 2', 'C validates and publishes both invoices after them.');
select is((select count(*)::integer from staging.invoice_valid
           where batch_id in (:b, :c)), 0,
          'Nothing of B or C is left among the typed rows.');

select * from finish();
rollback;
