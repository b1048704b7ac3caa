-- bench/publish/revert.sql: the revert of the batch just published, as the
-- invoice_operator login, one statement in autocommit, timed by the client
-- (psql \timing: the whole transaction, commit included). Its versions
-- move to core.invoice_version_reverted, the watermark goes back, the
-- later-publication check reads the source's batches; it restores nothing
-- (the batch is all new invoices, as it must be to be the same revert over
-- both histories). Prints reverted_versions, then psql's "Time: N ms".
-- Variables: batch_id.
\timing on
select reverted_versions from ingest.revert_batch(:batch_id, 'bench');
