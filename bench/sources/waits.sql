-- bench/sources/waits.sql: the lock-wait samples of a run, counted by
-- waiter, blocker and lock (harness/sources.py).
select waiter, blocker, lock, count(*)
from public.bench_lock_wait
group by waiter, blocker, lock
order by waiter, blocker, lock;
