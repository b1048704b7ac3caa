-- ingest.finish_attempt: close the loader's attempt with its outcome.  A
-- finished attempt is never reopened (compare-and-set on finished_at).
-- 'already_published' from an attempt that itself published the batch (its
-- COMMIT reply was lost, and it found the batch published on resuming) is
-- recorded as 'published': the event log says which attempt published.
-- Errors: none; closing an attempt twice keeps the first outcome.
create or replace function ingest.finish_attempt(
  p_attempt_id  bigint,
  p_outcome     text,
  p_error_class text,
  p_sqlstate    text,
  p_message     text)
returns void
language sql
security definer
set search_path = ''
as $$
  update ingest.attempt as a
     set finished_at = clock_timestamp(),
         outcome = case when p_outcome = 'already_published'
                         and exists (select from ingest.batch_event as e
                                     where e.batch_id = a.batch_id and e.to_state = 'published'
                                       and e.attempt_id = a.attempt_id)
                        then 'published' else p_outcome end,
         error_class = p_error_class,
         sqlstate = p_sqlstate, message = left(p_message, 2000),
         state_at_end = (select b.state from ingest.batch as b where b.batch_id = a.batch_id)
   where a.attempt_id = p_attempt_id and a.finished_at is null;
$$;
comment on function ingest.finish_attempt(bigint, text, text, text, text) is
  'Close an attempt with its outcome (first close wins).';
revoke all on function ingest.finish_attempt(bigint, text, text, text, text) from public;
grant execute on function ingest.finish_attempt(bigint, text, text, text, text) to invoice_loader;
