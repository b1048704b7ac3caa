-- The typical use "a missing currency was added to reference data": a
-- batch quarantined because one record's currency was not in
-- ingest.currency publishes all its records after the currency is added
-- (by the owner: reference data is not the operator's) and the batch is
-- replayed.
begin;
select plan(3);

select tests.make_source() as source \gset
select (tests.seed_lines(19)) || array[tests.line('INV-NEW', p_currency => 'XTS')] as rows \gset
select batch_id from tests.load_batch(:'source', tests.d(), :'rows'::text[]) \gset
select is(tests.rejections(:batch_id), array['20 currency.unknown'],
          'The record in XTS is rejected and the batch quarantined.');

insert into ingest.currency (code, minor_unit) values ('XTS', 2);
select tests.replay(:batch_id, 'XTS added to reference data') \gset

select is((select (l.state, l.outcome)::text from tests.load_batch(:'source', tests.d(), :'rows'::text[]) as l),
          '(published,published)', 'The replayed batch publishes.');
select is((select count(*) || ' ' || sum(i.gross_amount) from reporting.invoice as i
           where i.source = :'source'),
          '20 3920.00', 'All twenty records are published (19 seed invoices and the XTS one).');

select * from finish();
rollback;
