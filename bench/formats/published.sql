-- The invoices of source :source readers see (every record of the
-- benchmark's file is a new invoice, so all of them).
select count(*) from reporting.invoice where source = :'source';
