-- ingest.is_plain_decimal: true when p is a plain decimal as the contract
-- writes amounts: an optional minus, 1 to 18 digits, optionally a point and
-- one or more digits (no exponent, no NaN, no spaces, no plus); NULL for
-- NULL.  The digit limit is a length test rather than a counted repetition
-- ({1,18}), which PostgreSQL's regex engine pays for on every row.
-- Without SET search_path, like ingest.is_iso_date, so that it is inlined.
create or replace function ingest.is_plain_decimal(p text)
returns boolean
language sql
immutable
parallel safe
as $$
  select p ~ '^-?[0-9]+(\.[0-9]+)?$' and length(split_part(ltrim(p, '-'), '.', 1)) <= 18
$$;
comment on function ingest.is_plain_decimal(text) is 'True for -?digits[.digits] with at most 18 integer digits.';
revoke all on function ingest.is_plain_decimal(text) from public;
