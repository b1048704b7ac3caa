-- The typical use "a missing currency was added to reference data": a
-- batch quarantined because its manifest's totals name a currency that
-- was not in ingest.currency publishes all its records after the currency is added
-- (by the owner: reference data is not the operator's) and the batch is
-- replayed.  The file has two currencies once XTS is known, so its
-- manifest gives a total per currency.
begin;
select plan(3);

select tests.make_source() as source \gset
select (tests.seed_lines(19)) || array[tests.line('INV-NEW', p_currency => 'XTS')] as rows \gset
\set manifest '{"record_count": 20, "control_totals": {"EUR": "3800.00", "XTS": "120.00"}}'
select batch_id from tests.load_batch(:'source', tests.d(), :'rows'::text[], :'manifest') \gset
select is(tests.rejections(:batch_id), array['0 manifest.currency_unknown'],
          'The manifest''s XTS total is refused and the batch quarantined.');

insert into ingest.currency (code, minor_unit) values ('XTS', 2);
select tests.replay(:batch_id, 'XTS added to reference data') \gset

select is((select (l.state, l.outcome)::text from tests.load_batch(:'source', tests.d(), :'rows'::text[], :'manifest') as l),
          '(published,published)', 'The replayed batch publishes.');
select is((select count(*) || ' ' || sum(i.gross_amount) from reporting.invoice as i
           where i.source = :'source'),
          '20 3920.00', 'All twenty records are published (19 seed invoices and the XTS one).');

select * from finish();
rollback;
