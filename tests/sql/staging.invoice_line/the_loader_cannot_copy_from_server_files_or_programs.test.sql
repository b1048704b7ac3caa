-- staging.invoice_line: invoice_loader may INSERT (its COPY FROM STDIN),
-- but a server-side COPY from a file or a program gets 42501, and so does
-- reading the staged rows back.  (The rows it inserts are for a batch its
-- session began, as the loader's are: since migrations/0011 no other rows
-- are taken, see the_loader_stages_only_the_received_batch_it_holds.)
begin;
select plan(4);

select tests.make_source() as source \gset
select batch_id from tests.stage_batch(:'source', tests.d(), tests.seed_lines(1), p_stage => false) \gset

set local role invoice_loader;
select throws_ok($$ copy staging.invoice_line from '/etc/passwd' $$, '42501', null,
                 'The loader cannot COPY from a server file.');
select throws_ok($$ copy staging.invoice_line from program 'id' $$, '42501', null,
                 'The loader cannot COPY from a server program.');
select throws_ok($$ select 1 from staging.invoice_line $$, '42501', null,
                 'The loader cannot read staged rows back.');
select lives_ok(format($$ insert into staging.invoice_line (batch_id, record_no, invoice_number)
                          values (%s, 1, 'INV-1') $$, :batch_id),
                'The loader inserts staged rows, as its COPY FROM STDIN does.');
reset role;

select * from finish();
rollback;
