-- bench/report/huge_pages.sql: the server's huge_pages setting and the huge
-- pages its shared memory needs (PostgreSQL 15; -1 where the platform has
-- none): bench/harness/common.py huge_pages_in_use().
select current_setting('huge_pages'),
       current_setting('shared_memory_size_in_huge_pages');
