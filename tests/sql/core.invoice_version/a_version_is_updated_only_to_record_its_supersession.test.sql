-- core.invoice_version: a published version is history.  Changing its
-- content, or making a superseded version current again, raises IV210 even
-- for the owner; recording the supersession (what publication does) works.
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id from tests.load_batch(:'source', tests.d(), array[tests.line('INV-1')]) \gset

select throws_ok(format($$ update core.invoice_version set gross_amount = 1, net_amount = 1, tax_amount = 0
                           where source = %L $$, :'source'),
                 'IV210', null, 'The content of a published version cannot be changed.');
select throws_ok(format($$ update core.invoice_version set customer_id = 'X' where source = %L $$, :'source'),
                 'IV210', null, 'Not even its customer.');
select lives_ok(format($$ update core.invoice_version
                            set is_current = false, superseded_by_batch_id = %s, superseded_at = now()
                          where source = %L $$, :batch_id, :'source'),
                'Recording the supersession is allowed.');
select throws_ok(format($$ update core.invoice_version
                             set is_current = true, superseded_by_batch_id = null, superseded_at = null
                           where source = %L $$, :'source'),
                 'IV210', null, 'A superseded version cannot become current again by UPDATE.');

select * from finish();
rollback;
