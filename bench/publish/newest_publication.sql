-- bench/publish/newest_publication.sql: validated->published of the newest
-- batch, in ms (the explained run's own figure).
select round(extract(epoch from
         max(at) filter (where to_state = 'published') - max(at) filter (where to_state = 'validated'))
       * 1000, 1)
from ingest.batch_event_overview
where batch_id = (select max(batch_id) from ingest.batch_overview);
