-- A file value with control characters (an ESC sequence in invoice_number,
-- a newline-forged "log line" in currency) is rejected, and its rejection's
-- detail and invoice_number hold them as \xNN, never raw: a terminal or
-- a log reader must not act on them.
begin;
select plan(3);

select tests.make_source('acme-erp', p_start_date => tests.d());
select batch_id as batch from tests.stage_batch('acme-erp', tests.d(),
  array[tests.line(p_invoice_number => E'INV\x1b[31m-1'),
        tests.line(p_invoice_number => 'INV-2', p_currency => E'E\nUR')]) \gset
select tests.validate(:batch);

select is((select count(*)::integer from ingest.rejection
           where batch_id = :batch and (detail ~ '[\x01-\x1f\x7f]' or invoice_number ~ '[\x01-\x1f\x7f]')),
          0, 'No rejection holds a raw control character.');
select ok(exists (select from ingest.rejection where batch_id = :batch
                  and rule = 'invoice_number.format' and strpos(detail, 'INV\x1b[31m-1') > 0),
          'The invoice number is shown with \x1b.');
select ok(exists (select from ingest.rejection where batch_id = :batch
                  and rule = 'currency.unknown' and strpos(detail, 'E\x0aUR') > 0),
          'The currency is shown with \x0a.');

select * from finish();
rollback;
