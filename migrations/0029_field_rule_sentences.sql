-- 0029: each per-record field rule's sentence for a clerk (the detail of
-- its rejection rows) is kept once, beside the rule's code and bit, in
-- ingest.field_rule.sentence, instead of inside ingest.validate_batch.
-- A rule added later gets its bit and its sentence in one row.
--
-- The sentence is a format() string over one argument list, the same for
-- every rule, built by ingest.validate_batch from the record as in the
-- file (values shortened so that a detail stays short, and passed through
-- ingest.printable afterwards):
--    1 invoice_number (its first 80 characters)
--    2 revision, 3 status, 4 document_type, 5 invoice_date, 6 due_date,
--    7 currency, 8 net_amount, 9 tax_amount, 10 gross_amount
--      (each its first 40 characters)
--   11 the batch's business date, YYYY-MM-DD
--   12 the minor unit (decimals) of the record's currency
--   13 net_amount, 14 tax_amount, 15 gross_amount, whole (they passed the
--      plain-decimal pattern, whose decimals have no limit)
set local role invoice_owner;

alter table ingest.field_rule add column sentence text;
update ingest.field_rule as f
   set sentence = s.sentence
  from (values
    ('invoice_number.missing', 'invoice_number is empty'),
    ('invoice_number.format',
     'invoice_number %1$L is not 1-64 characters of A-Z a-z 0-9 . _ / -'),
    ('revision.missing', 'revision is empty'),
    ('revision.format', 'revision %2$L is not a whole number >= 0'),
    ('status.missing', 'status is empty'),
    ('status.value', 'status %3$L is not ISSUED or VOID'),
    ('document_type.missing', 'document_type is empty'),
    ('document_type.value', 'document_type %4$L is not INVOICE or CREDIT_NOTE'),
    ('customer_id.missing', 'customer_id is empty'),
    ('invoice_date.missing', 'invoice_date is empty'),
    ('invoice_date.format', 'invoice_date %5$L is not a real date written YYYY-MM-DD'),
    ('invoice_date.after_business_date',
     'invoice_date %5$s is after the business date %11$s'),
    ('due_date.format', 'due_date %6$L is not a real date written YYYY-MM-DD'),
    ('due_date.before_invoice_date', 'due_date %6$s is before invoice_date %5$s'),
    ('currency.missing', 'currency is empty'),
    ('currency.unknown', 'currency %7$L is not an ISO 4217 code known to the database'),
    ('net_amount.missing', 'net_amount is empty'),
    ('net_amount.format', 'net_amount %8$L is not a plain decimal (-?digits[.digits])'),
    ('net_amount.precision', 'net_amount %13$s has more than %12$s decimals for %7$s'),
    ('tax_amount.missing', 'tax_amount is empty'),
    ('tax_amount.format', 'tax_amount %9$L is not a plain decimal (-?digits[.digits])'),
    ('tax_amount.precision', 'tax_amount %14$s has more than %12$s decimals for %7$s'),
    ('gross_amount.missing', 'gross_amount is empty'),
    ('gross_amount.format',
     'gross_amount %10$L is not a plain decimal (-?digits[.digits])'),
    ('gross_amount.precision', 'gross_amount %15$s has more than %12$s decimals for %7$s'),
    ('amounts.sum', 'net_amount %13$s + tax_amount %14$s is not gross_amount %15$s'),
    ('gross_amount.sign', 'gross_amount %15$s has the wrong sign for a %4$s'))
    as s (rule, sentence)
 where s.rule = f.rule;
alter table ingest.field_rule alter column sentence set not null;
comment on column ingest.field_rule.sentence is
  'The rejection''s detail: a format() string over the record''s fields (migrations/0029 lists the arguments).';
