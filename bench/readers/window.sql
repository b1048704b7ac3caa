-- bench/readers/window.sql: the publication interval of batch :batch_id on
-- the server's clock, as Unix epoch seconds: its validated checkpoint event
-- (the publication step starts after it), the end of the write of its
-- versions (ingest.write_batch; written_at in the published event's
-- detail: the publishing transaction starts after it), and its published
-- event (written in the publishing transaction, last), from
-- ingest.batch_event_overview.
-- Variables: batch_id.
select extract(epoch from max(e.at) filter (where e.to_state = 'validated')),
       extract(epoch from max((e.detail ->> 'written_at')::timestamptz)
                            filter (where e.to_state = 'published')),
       extract(epoch from max(e.at) filter (where e.to_state = 'published'))
from ingest.batch_event_overview as e
where e.batch_id = :batch_id;
