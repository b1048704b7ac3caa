-- bench/history/amendments.sql: the amended and voided records of the
-- over-history file (harness/overhistory.py), as CSV rows without a header
-- on stdout, in the columns of scripts/gen-invoices.sh. They are the
-- history's :amended + :voided most recent current ISSUED keys (the highest
-- invoice numbers: history.sql numbers keys by the date of their first
-- revision), each at its current revision + 1 (no version has it: the
-- history has no gaps): the first :amended with net and gross 1.00 further
-- from zero (different content, still net + tax = gross and the document
-- type's sign), the other :voided with status VOID and the same content.
-- Deterministic: the same history gives the same rows.
-- Variables: source, amended, voided.
copy (
  select r.invoice_number, r.revision + 1,
         case when r.n <= :amended then 'ISSUED' else 'VOID' end,
         r.document_type, r.customer_id, r.invoice_date, r.due_date, r.currency,
         case when r.n <= :amended then r.net_amount + r.step else r.net_amount end,
         r.tax_amount,
         case when r.n <= :amended then r.gross_amount + r.step else r.gross_amount end,
         case when r.n <= :amended then 'amended by the benchmark' else r.description end
  from (select v.*, row_number() over (order by v.invoice_number desc) as n,
               case when v.document_type = 'CREDIT_NOTE' then -1.00 else 1.00 end as step
        from core.invoice_version as v
        where v.source = :'source' and v.is_current and v.status = 'ISSUED'
        order by v.invoice_number desc
        limit :amended + :voided) as r
  order by r.n
) to stdout with (format csv);
