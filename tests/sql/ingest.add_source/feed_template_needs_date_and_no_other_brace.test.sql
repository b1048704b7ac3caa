-- ingest.add_source accepts a feed URL template only with the placeholder
-- {date} (at least once) and no other brace, plain or percent-encoded:
-- anything else would make catch-up fetch the same literal URL for every
-- business date.  A refused template raises IV302 and changes nothing.
begin;
select plan(9);

set local role invoice_operator;
select ingest.add_source('acme-erp', p_feed_url => 'https://feed.example/acme/{date}.csv');
select ingest.add_source('globex-erp', p_feed_url => 'https://feed.example/{date}/inv-{date}.csv');
select throws_ok($$ select ingest.add_source('acme-erp', p_feed_url => 'https://feed.example/acme/fixed.csv') $$,
                 'IV302', null, 'A template without {date} is refused.');
select throws_ok($$ select ingest.add_source('acme-erp', p_feed_url => 'https://feed.example/acme/{date.csv') $$,
                 'IV302', null, 'An unclosed {date is refused.');
select throws_ok($$ select ingest.add_source('acme-erp', p_feed_url => 'https://feed.example/acme/{DATE}.csv') $$,
                 'IV302', null, 'An upper-case {DATE} is refused.');
select throws_ok($$ select ingest.add_source('acme-erp', p_feed_url => 'https://feed.example/acme/%7Bdate%7D.csv') $$,
                 'IV302', null, 'A percent-encoded brace is refused.');
select throws_ok($$ select ingest.add_source('acme-erp', p_feed_url => 'https://feed.example/{date}/{day}.csv') $$,
                 'IV302', null, 'Another placeholder next to {date} is refused.');
select throws_ok($$ select ingest.add_source('acme-erp', p_feed_url => 'https://feed.example/{date}%7d.csv') $$,
                 'IV302', null, 'A lower-case encoded brace next to {date} is refused.');
select throws_ok($$ select ingest.add_source('initech', p_feed_url => 'https://feed.example/}{date}.csv') $$,
                 'IV302', null, 'A closing brace without its opening one is refused.');
reset role;

select is((select array_agg(s.source || ' ' || s.feed_url order by s.source) from ingest.source as s),
          array['acme-erp https://feed.example/acme/{date}.csv',
                'globex-erp https://feed.example/{date}/inv-{date}.csv'],
          'Good templates are stored; the refused calls registered or changed nothing.');
select is((select count(*)::int from ingest.source as s where s.source = 'initech'), 0,
          'A refused new source is not registered.');

select * from finish();
rollback;
