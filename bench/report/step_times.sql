-- bench/report/step_times.sql: batch_id, state, copy_ms, validation_ms,
-- publication_ms, attempt_ms of the newest batch in ingest.batch_overview
-- (the newest with sha256 = :sha256 when :sha256 is not empty), from the
-- database's own records: the checkpoint events (received->staged is the
-- COPY, staged->validated the validation, validated->published the
-- publication, up to the state change) and the attempts (first start to
-- last finish). The times users see in `status`.
-- Variables: sha256 (may be empty).
with b as (select batch_id, state from ingest.batch_overview
           where :'sha256' = '' or sha256 = :'sha256'
           order by batch_id desc limit 1),
e as (select max(e.at) filter (where e.to_state = 'received') as received,
             max(e.at) filter (where e.to_state = 'staged') as staged,
             max(e.at) filter (where e.to_state = 'validated') as validated,
             max(e.at) filter (where e.to_state = 'published') as published
      from ingest.batch_event_overview as e join b using (batch_id)),
a as (select min(a.started_at) as started, max(a.finished_at) as finished
      from ingest.attempt_overview as a join b using (batch_id))
select b.batch_id, b.state,
       round(extract(epoch from e.staged - e.received) * 1000, 1),
       round(extract(epoch from e.validated - e.staged) * 1000, 1),
       round(extract(epoch from e.published - e.validated) * 1000, 1),
       round(extract(epoch from a.finished - a.started) * 1000, 1)
from b, e, a;
