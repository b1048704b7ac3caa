-- core.invoice_version: a published version is history.  Changing its
-- content, or making a superseded version current again, raises IV210 even
-- for the owner; recording the supersession (what publication does) works.
-- A supersession is let through by the trigger's WHEN clause without the
-- function; one that changes anything else too goes to the function, which
-- refuses it.
begin;
select plan(7);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset

select throws_ok(format($$ update core.invoice_version set gross_amount = 1, net_amount = 1, tax_amount = 0
                           where source = %L $$, :'source'),
                 'IV210', null, 'The content of a published version cannot be changed.');
select throws_ok(format($$ update core.invoice_version set customer_id = 'X' where source = %L $$, :'source'),
                 'IV210', null, 'Not even its customer.');
select throws_ok(format($$ update core.invoice_version
                             set is_current = false, superseded_by_batch_id = %s, superseded_at = now(),
                                 description = 'changed on the way'
                           where source = %L $$, :batch_id, :'source'),
                 'IV210', null, 'A supersession that also changes the content is refused.');
select throws_ok(format($$ update core.invoice_version
                             set is_current = false, superseded_by_batch_id = %s, superseded_at = now(),
                                 current_since = now() - interval '1 day'
                           where source = %L $$, :batch_id, :'source'),
                 'IV210', null, 'So is one that moves current_since.');
select lives_ok(format($$ update core.invoice_version
                            set is_current = false, superseded_by_batch_id = %s, superseded_at = now()
                          where source = %L $$, :batch_id, :'source'),
                'Recording the supersession is allowed.');
select throws_ok(format($$ update core.invoice_version set superseded_at = now() - interval '1 hour'
                           where source = %L $$, :'source'),
                 'IV210', null, 'A superseded version''s supersession is not rewritten.');
select throws_ok(format($$ update core.invoice_version
                             set is_current = true, superseded_by_batch_id = null, superseded_at = null
                           where source = %L $$, :'source'),
                 'IV210', null, 'A superseded version cannot become current again by UPDATE.');

select * from finish();
rollback;
