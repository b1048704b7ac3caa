-- ingest.add_source takes --deadline (a UTC time of day) and
-- --retention-days: a new source gets no deadline and 30 days; given values
-- are stored; an update that omits them keeps them; a retention under one
-- day raises IV302 and changes nothing.
begin;
select plan(6);

set local role invoice_operator;
select ingest.add_source('acme-erp');
select ingest.add_source('globex-erp', p_deadline => time '06:30', p_retention_days => 10);
reset role;

select is((select (s.deadline, s.retention_days)::text from ingest.source as s where s.source = 'acme-erp'),
          '(,30)', 'A new source has no deadline and a retention of 30 days.');
select is((select (s.deadline, s.retention_days)::text from ingest.source as s where s.source = 'globex-erp'),
          '(06:30:00,10)', 'The deadline and the retention given are stored.');

set local role invoice_operator;
select ingest.add_source('globex-erp', p_policy => 'partial', p_max_rejected_share => 0.1);
reset role;
select is((select (s.deadline, s.retention_days, s.policy)::text from ingest.source as s
           where s.source = 'globex-erp'),
          '(06:30:00,10,partial)', 'An update without them keeps the deadline and the retention.');

set local role invoice_operator;
select throws_ok($$ select ingest.add_source('globex-erp', p_retention_days => 0) $$, 'IV302', null,
                 'A retention of 0 days is an invalid option value.');
select throws_ok($$ select ingest.add_source('initech', p_retention_days => -5) $$, 'IV302', null,
                 'A negative retention is an invalid option value.');
reset role;
select is((select array_agg(s.source || ' ' || s.retention_days order by s.source) from ingest.source as s),
          array['acme-erp 30', 'globex-erp 10'], 'The refused calls registered or changed nothing.');

select * from finish();
rollback;
