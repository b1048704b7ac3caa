-- The commit check (ingest.check_publication, the deferred trigger
-- publication_reconciles) counts a full extract's closures by absence apart
-- from the file's records: the write's closed_by_absence, the batch's
-- core.invoice_closure rows and the versions it superseded without a
-- version of its own must agree, or the commit fails with IV222.  Each
-- tampering between the write and the publication is refused at the
-- commit point (SET CONSTRAINTS ... IMMEDIATE stands for the commit); the
-- untouched batch publishes, with the file's own equations unchanged.
begin;
select plan(5);

select tests.make_source() as source \gset
select tests.full_extract(:'source', 0.5);
select batch_id as day1 from tests.load_batch(:'source', tests.d(), tests.seed_lines(10)) \gset
select batch_id as day2 from tests.stage_batch(:'source', tests.d() + 1, tests.seed_lines(8)) \gset
select tests.validate(:day2);
select counts::text as w_counts from tests.write(:day2) \gset
select is((:'w_counts'::jsonb ->> 'closed_by_absence', :'w_counts'::jsonb ->> 'records')::text,
          '(2,8)', 'The write counts 2 closures apart from the 8 records.');

-- the stored count says one closure fewer
savepoint a;
update ingest.pending_publication as p set counts = p.counts || '{"closed_by_absence": 1}'
 where p.batch_id = :day2;
select tests.publish(:day2);
select throws_ok($$set constraints ingest.publication_reconciles immediate$$, 'IV222', null,
                 'A count that misses a closure is refused at the commit (IV222).');
rollback to savepoint a;

-- a closure row gone: the invoice left the view with nothing to say why
savepoint b;
delete from core.invoice_closure as c where c.batch_id = :day2 and c.invoice_number = 'INV-0010';
select tests.publish(:day2);
select throws_ok($$set constraints ingest.publication_reconciles immediate$$, 'IV222', null,
                 'A closed version without its closure row is refused.');
rollback to savepoint b;

-- a closure row for an invoice the batch did not supersede
savepoint c;
insert into core.invoice_closure (source, invoice_number, revision, batch_id, closed_at)
values (:'source', 'INV-0001', 0, :day2, now());
select tests.publish(:day2);
select throws_ok($$set constraints ingest.publication_reconciles immediate$$, 'IV222', null,
                 'A closure row for a version still current is refused.');
rollback to savepoint c;

select tests.publish(:day2);
select lives_ok($$set constraints ingest.publication_reconciles immediate$$,
                'The untouched batch publishes.');

select * from finish();
rollback;
