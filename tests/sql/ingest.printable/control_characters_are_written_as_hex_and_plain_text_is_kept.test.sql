-- ingest.printable: a supplier's text with control characters (a terminal
-- escape, a forged log line) is stored and printed with them as \xNN;
-- plain text, quotes and non-ASCII letters are kept as they are.
begin;
select plan(6);

select is(ingest.printable(E'INV\x1b[31m-1'), 'INV\x1b[31m-1', 'ESC becomes \x1b.');
select is(ingest.printable(E'a\nERROR forged\tline\r'), 'a\x0aERROR forged\x09line\x0d',
          'Newline, tab and carriage return become \x0a, \x09, \x0d.');
select is(ingest.printable(E'bell\x07 del\x7f'), 'bell\x07 del\x7f', 'BEL and DEL too.');
select is(ingest.printable(E'c1\u0085'), 'c1\u0085', 'A C1 control becomes \u0085.');
select is(ingest.printable('Währung "EUR" – ok'), 'Währung "EUR" – ok',
          'Text without control characters is unchanged.');
select is(ingest.printable(null), null, 'NULL stays NULL.');

select * from finish();
rollback;
