-- ingest.is_plain_decimal, truth table: true exactly for -?digits[.digits]
-- with 1 to 18 integer digits (any number of decimals); false for an
-- exponent, NaN, Infinity, a plus sign, spaces, a trailing or leading
-- point, separators, a lone minus, 19 integer digits, the empty string;
-- NULL for NULL.
begin;
select plan(35);

select is(ingest.is_plain_decimal(t.p), t.expected,
          format('is_plain_decimal(%s) is %s', coalesce(to_json(t.p)::text, 'NULL'),
                 coalesce(t.expected::text, 'NULL')))
from (values
  ('10', true),
  ('-10.5', true),
  ('0.00', true),
  ('0', true),
  ('-0', true),
  ('4200.00', true),
  ('1.1234567890', true),                  -- decimals are not limited here
  ('123456789012345678', true),            -- 18 integer digits
  ('-123456789012345678', true),
  ('123456789012345678.99', true),
  ('000000000000000001', true),            -- 18 digits, leading zeros
  ('1234567890123456789', false),          -- 19 integer digits
  ('-1234567890123456789', false),
  ('1234567890123456789.5', false),
  ('0000000000000000001', false),
  ('1e3', false),
  ('1E3', false),
  ('NaN', false),
  ('Infinity', false),
  ('+1', false),
  (' 1', false),
  ('1 ', false),
  (E'1\n', false),
  ('1.', false),
  ('.5', false),
  ('-.5', false),
  ('1,000', false),
  ('1,5', false),
  ('1.2.3', false),
  ('--1', false),
  ('-', false),
  ('0x10', false),
  ('１', false),                           -- a full-width digit
  ('', false),
  (null, null)) as t(p, expected);

select * from finish();
rollback;
