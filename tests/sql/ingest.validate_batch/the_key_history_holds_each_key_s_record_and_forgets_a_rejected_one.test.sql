-- ingest.validate_batch, one record per key: staging.key_version holds,
-- beside each published version of a key the batch carries, the batch's
-- record of that key (number, revision, content hash, gross amount;
-- migration 0023), which the revision-conflict check and the supersession
-- read instead of the typed rows.  A record rejected as a revision
-- conflict leaves the typed rows, and its columns are cleared in the key
-- history too; the publication then amends the other key and leaves the
-- conflicting one as it was.
begin;
select plan(6);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.9) as source \gset
select state as first_state from tests.load_batch(:'source', tests.d(), array[
  tests.line('INV-1'), tests.line('INV-2')]) \gset
select batch_id from tests.stage_batch(:'source', tests.d() + 1, array[
  tests.line('INV-1', p_net_amount => '90.00', p_tax_amount => '18.00', p_gross_amount => '108.00'),
  tests.line('INV-2', p_revision => '1', p_net_amount => '200.00', p_tax_amount => '40.00',
             p_gross_amount => '240.00'),
  tests.line('INV-3')]) \gset
select state as second_state from tests.validate(:batch_id) \gset

select is(:'first_state' || ' ' || :'second_state', 'published validated',
          'The first file publishes; the second validates under the partial policy.');
select is(tests.rejections(:batch_id), array['1 revision.conflict'],
          'Its record 1 (other content under a published revision) is rejected.');
select results_eq(
  format($$select h.invoice_number, h.revision, h.batch_record_no, h.batch_revision,
                  h.batch_gross_amount, h.batch_content_hash = v.content_hash
           from staging.key_version as h
           left join staging.invoice_valid as v
             on v.batch_id = h.batch_id and v.record_no = h.batch_record_no
           where h.batch_id = %s order by h.invoice_number, h.revision$$, :batch_id),
  -- invoice numbers compare by bytes (migrations/0027): a literal compared
  -- with them inside a record (results_eq) needs the same collation
  $$values ('INV-1'::text collate "C", 0, null::integer, null::integer, null::numeric,
           null::boolean),
           ('INV-2', 0, 2, 1, 240.00, true)$$,
  'The key history holds record 2 beside INV-2''s version, and nothing of the rejected record 1.');
select is((select count(*)::integer from staging.invoice_valid as v where v.batch_id = :batch_id), 2,
          'The typed rows keep records 2 and 3.');

select outcome as published from tests.publish(:batch_id) \gset
select is(:'published'::text, 'published', 'The second file publishes.');
select results_eq(
  format($$select i.invoice_number, i.revision, i.gross_amount from reporting.invoice as i
           where i.source = %L order by 1$$, :'source'),
  $$values ('INV-1'::text collate "C", 0, 120.00::numeric), ('INV-2', 1, 240.00),
           ('INV-3', 0, 120.00)$$,
  'INV-2 is amended to revision 1, INV-1 keeps its published content, INV-3 is new.');

select * from finish();
rollback;
