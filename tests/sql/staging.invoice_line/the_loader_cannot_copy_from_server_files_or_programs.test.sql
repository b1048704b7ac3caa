-- staging.invoice_line: invoice_loader may INSERT (its COPY FROM STDIN),
-- but a server-side COPY from a file or a program gets 42501, and so does
-- reading the staged rows back.
begin;
select plan(4);

set local role invoice_loader;
select throws_ok($$ copy staging.invoice_line from '/etc/passwd' $$, '42501', null,
                 'The loader cannot COPY from a server file.');
select throws_ok($$ copy staging.invoice_line from program 'id' $$, '42501', null,
                 'The loader cannot COPY from a server program.');
select throws_ok($$ select 1 from staging.invoice_line $$, '42501', null,
                 'The loader cannot read staged rows back.');
select lives_ok($$ insert into staging.invoice_line (batch_id, record_no, invoice_number)
                   values (-1, 1, 'INV-1') $$,
                'The loader inserts staged rows, as its COPY FROM STDIN does.');
reset role;

select * from finish();
rollback;
