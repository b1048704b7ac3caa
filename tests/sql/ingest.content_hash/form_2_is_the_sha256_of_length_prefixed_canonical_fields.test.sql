-- ingest.content_hash (form 2, migrations/0014): the SHA-256 of the ten
-- content fields, each <byte length>:<bytes> or '-' for NULL, dates as
-- YYYY-MM-DD, amounts as the numeric prints them.  The loader computes the
-- same bytes (loader/src/io/record_rules.cpp); the digests here were taken
-- with sha256sum of the strings in the comments, not with the function.
begin;
select plan(6);

-- 6:ISSUED7:INVOICE5:C-00110:2026-11-28-3:EUR6:100.005:19.006:119.00-
select is(encode(ingest.content_hash('ISSUED', 'INVOICE', 'C-001', date '2026-11-28', null, 'EUR',
                                     100.00, 19.00, 119.00, null), 'hex'),
          '8bc09a5f1c9d378f072462b5758677066ec9a22940b554e11d116086abd0a614',
          'The contract''s example hashes to the digest of its canonical string.');
-- 4:VOID11:CREDIT_NOTE7:Müller10:2026-11-2010:2026-12-203:JPY4:-1003:-104:-1100:
select is(encode(ingest.content_hash('VOID', 'CREDIT_NOTE', 'Müller', date '2026-11-20',
                                     date '2026-12-20', 'JPY', -100, -10, -110, ''), 'hex'),
          'c781c756ee56e237000a639fb33217ee278097d19f3dee9eef85856c2fd7159f',
          'Lengths are in bytes (ü is two), a due date is written, an empty text is 0: not -.');
select isnt(ingest.content_hash('ISSUED', 'INVOICE', 'C-001', date '2026-11-28', null, 'EUR',
                                100.00, 19.00, 119.00, null),
            ingest.content_hash('ISSUED', 'INVOICE', 'C-001', date '2026-11-28', null, 'EUR',
                                100.00, 19.00, 119.00, ''),
            'A NULL description and an empty one hash differently.');
select isnt(ingest.content_hash('ISSUED', 'INVOICE', 'C-00', date '2026-11-28', null, '1EUR',
                                100.00, 19.00, 119.00, null),
            ingest.content_hash('ISSUED', 'INVOICE', 'C-001', date '2026-11-28', null, 'EUR',
                                100.00, 19.00, 119.00, null),
            'Moving a character from one field to the next changes the hash (lengths are part of it).');
select isnt(ingest.content_hash('ISSUED', 'INVOICE', 'C-001', date '2026-11-28', null, 'EUR',
                                100.00, 20.00, 120.00, null),
            ingest.content_hash('ISSUED', 'INVOICE', 'C-001', date '2026-11-28', null, 'EUR',
                                100.00, 19.00, 119.00, null),
            'Another amount, another hash.');
select is(octet_length(ingest.content_hash('ISSUED', 'INVOICE', 'C-001', date '2026-11-28', null,
                                           'EUR', 100.00, 19.00, 119.00, null)), 32,
          'The hash is 32 bytes.');

select * from finish();
rollback;
