-- ingest.is_iso_date, truth table: true exactly for a real calendar date
-- written YYYY-MM-DD with year 0001-9999 (29 February only in leap years:
-- every 4th year, not centuries unless divisible by 400); false for day 00,
-- month 00 or 13, day 31 of a 30-day month, a missing leading zero, year
-- 0000, any other shape, spaces, a trailing newline and words; NULL for
-- NULL.  And over every month 00-13 and day 00-32 of years chosen for their
-- leap rules, it agrees with PostgreSQL's own calendar.
begin;
select plan(51);

select is(ingest.is_iso_date(t.p), t.expected,
          format('is_iso_date(%s) is %s', coalesce(to_json(t.p)::text, 'NULL'),
                 coalesce(t.expected::text, 'NULL')))
from (values
  ('2024-01-01', true),
  ('2026-11-28', true),
  ('0001-01-01', true),   -- the first year
  ('9999-12-31', true),   -- the last day
  ('2024-01-31', true),
  ('2024-03-31', true),
  ('2024-12-31', true),
  ('2024-04-30', true),
  ('2024-02-28', true),
  ('2023-02-28', true),
  ('2024-02-29', true),   -- leap year
  ('2000-02-29', true),   -- divisible by 400
  ('2400-02-29', true),
  ('0004-02-29', true),
  ('1900-02-29', false),  -- a century not divisible by 400
  ('2100-02-29', false),
  ('2023-02-29', false),  -- not a leap year
  ('2024-02-30', false),
  ('2024-04-31', false),  -- 30-day months
  ('2024-06-31', false),
  ('2024-09-31', false),
  ('2024-11-31', false),
  ('2024-01-32', false),
  ('2024-01-00', false),  -- day 00
  ('2024-00-10', false),  -- month 00
  ('2024-13-01', false),  -- month 13
  ('0000-01-01', false),  -- year 0000
  ('2024-1-01', false),   -- no leading zero
  ('2024-01-1', false),
  ('24-01-01', false),
  ('12024-01-01', false), -- five-digit year
  ('+2024-01-01', false),
  ('-2024-01-01', false),
  ('2024/01/01', false),
  ('2024.01.01', false),
  ('20240101', false),
  ('01-01-2024', false),
  ('28.11.2026', false),
  (' 2024-01-01', false),
  ('2024-01-01 ', false),
  (E'2024-01-01\n', false),
  ('2024-01-01T00:00', false),
  ('2024-01-01 00:00:00', false),
  ('2024-0a-01', false),
  ('２０２４-０１-０１', false), -- full-width digits
  ('today', false),
  ('infinity', false),
  ('epoch', false),
  ('', false),
  (null, null)) as t(p, expected);

select is_empty($$
  select s
  from (select y, m, d,
               lpad(y::text, 4, '0') || '-' || lpad(m::text, 2, '0') || '-' || lpad(d::text, 2, '0') as s
        from unnest(array[1, 4, 100, 400, 1600, 1700, 1800, 1900, 2000, 2023, 2024, 2025, 2100,
                          2400, 9996, 9999]) as y,
             generate_series(0, 13) as m,
             generate_series(0, 32) as d) as c
  where ingest.is_iso_date(c.s) is distinct from
        (c.m between 1 and 12
         and c.d between 1 and extract(day from make_date(c.y, c.m, 1) + interval '1 month - 1 day')) $$,
  'For months 00-13 and days 00-32 of 16 years, it agrees with PostgreSQL''s calendar.');

select * from finish();
rollback;
