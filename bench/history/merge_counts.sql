-- bench/history/merge_counts.sql: what the merge of batch :batch_id did
-- (ingest.batch.merge_counts, JSON), to check that a load over the history
-- amended and voided what its file was built to.
-- Variables: batch_id.
select merge_counts::text from ingest.batch where batch_id = :batch_id;
