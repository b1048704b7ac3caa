-- Content hashes of two forms coexist (migrations/0014): versions published
-- before it carry form 1 (SHA-256 of jsonb_build_array(...)::text), new
-- ones form 2 (ingest.content_hash).  Simulated here by rewriting the
-- published versions to form 1 (triggers off, as the owner could).  The
-- history read hashes a form-1 version anew, so resending it unchanged
-- counts as unchanged, and other content under its revision is still a
-- revision.conflict.  (Without the rehash every resent invoice would be a
-- conflict.)
begin;
select plan(5);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.5) as source \gset
select batch_id as first from tests.load_batch(:'source', tests.d(), tests.seed_lines(4)) \gset

set local session_replication_role = replica;
update core.invoice_version as v
   set content_hash = sha256(convert_to(jsonb_build_array(v.status, v.document_type, v.customer_id,
                                                          v.invoice_date, v.due_date, v.currency,
                                                          v.net_amount, v.tax_amount, v.gross_amount,
                                                          v.description)::text, 'UTF8')),
       content_hash_version = 1
 where v.batch_id = :first;
set local session_replication_role = origin;
select is((select count(*)::integer from core.invoice_version
           where batch_id = :first and content_hash_version = 1), 4,
          'The first batch''s four versions carry form-1 hashes.');

-- the next date resends the four as they were
select p.batch_id as same_batch, p.outcome as same_outcome
from tests.load_batch(:'source', tests.d() + 1, tests.seed_lines(4)) as p \gset
select is(:'same_outcome'::text, 'published', 'The resend of all four, as they were, publishes.');
select is((select (merge_counts ->> 'unchanged')::integer from ingest.batch where batch_id = :same_batch), 4,
          'All four count as unchanged over their form-1 versions.');

-- then INV-0001 with other amounts under its revision, and INV-0002 as it was
select p.batch_id as other_batch
from tests.load_batch(:'source', tests.d() + 2,
       array[tests.line('INV-0001', p_customer_id => 'CUST-1', p_net_amount => '1.00',
                        p_tax_amount => '0.00', p_gross_amount => '1.00',
                        p_description => 'seed invoice 1'),
             tests.line('INV-0002', p_customer_id => 'CUST-2', p_net_amount => '32.00',
                        p_tax_amount => '8.00', p_gross_amount => '40.00',
                        p_description => 'seed invoice 2')]) as p \gset
select is((select string_agg(record_no || ' ' || rule, ', ') from ingest.rejection
           where batch_id = :other_batch),
          '1 revision.conflict', 'Other content under a form-1 revision is a revision conflict.');
select is((select (merge_counts ->> 'unchanged')::integer from ingest.batch where batch_id = :other_batch), 1,
          'The record resent as it was, next to it, is unchanged.');

select * from finish();
rollback;
