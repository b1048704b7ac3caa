-- ingest.validate_batch on a staged batch whose staging.invoice_line rows
-- are all gone (the table is unlogged: a server crash empties it; simulated
-- here by deleting them): it returns state 'received' with no counts, and
-- the batch is received again with staged, accepted and rejected counts
-- NULL, no rejection rows and exactly one staged->received event whose
-- detail has a 'reason'.  Staging the same rows again and validating then
-- gives what an uninterrupted validation gives: validated, 2 accepted and
-- 1 rejected (partial policy), the rejection recorded once.
begin;
select plan(9);

select tests.make_source(p_policy => 'partial', p_max_rejected_share => 0.5) as source \gset
select array[tests.line('INV-1'),
             tests.line('INV-2', p_net_amount => 'NaN'),
             tests.line('INV-3')]::text as rows \gset
select batch_id, state as staged_state from tests.stage_batch(:'source', tests.d(), :'rows'::text[]) \gset

delete from staging.invoice_line as l where l.batch_id = :batch_id;

select v.state, coalesce(v.accepted::text, 'null') as accepted,
       coalesce(v.rejected::text, 'null') as rejected
from tests.validate(:batch_id) as v \gset lost_

select is(format('%s %s accepted=%s rejected=%s', :'staged_state', :'lost_state',
                 :'lost_accepted', :'lost_rejected'),
          'staged received accepted=null rejected=null',
          'Validating the staged batch whose rows are gone returns received, with no counts.');
select is((select (b.state, b.staged_count, b.accepted_count, b.rejected_count)::text
           from ingest.batch as b where b.batch_id = :batch_id),
          '(received,,,)', 'The batch is received again, with staged, accepted and rejected counts NULL.');
select is(tests.rejections(:batch_id), '{}'::text[], 'No rejection row is left for the batch.');
select is((select array_agg(e.from_state || '->' || e.to_state || ' ' || (e.detail ? 'reason'))
           from ingest.batch_event as e
           where e.batch_id = :batch_id and e.to_state = 'received' and e.from_state is not null),
          array['staged->received true'],
          'Exactly one staged->received event is written, and its detail gives a reason.');
select is((select count(*)::integer from staging.invoice_valid as v where v.batch_id = :batch_id), 0,
          'No typed row is kept for the batch.');

select state as restaged_state from tests.stage_batch(:'source', tests.d(), :'rows'::text[]) \gset
select * from tests.validate(:batch_id) \gset again_

select is(:'restaged_state'::text, 'staged', 'The same rows stage the batch again.');
select is(format('%s accepted=%s rejected=%s', :'again_state', :again_accepted, :again_rejected),
          'validated accepted=2 rejected=1',
          'Validation then accepts 2 records and rejects 1, as an uninterrupted one does.');
select is(tests.rejections(:batch_id), array['2 net_amount.format'],
          'Record 2 is rejected once, with its rule.');
select is((select (b.state, b.staged_count, b.accepted_count, b.rejected_count)::text
           from ingest.batch as b where b.batch_id = :batch_id),
          '(validated,3,2,1)', 'The batch is validated with the counts of the restaged rows.');

select * from finish();
rollback;
