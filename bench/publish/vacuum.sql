-- bench/publish/vacuum.sql: the empty history as the planner sees it once
-- its statistics were taken while it was empty (--analyzed-empty).
vacuum (freeze, analyze);
