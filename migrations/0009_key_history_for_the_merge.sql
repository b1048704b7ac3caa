-- 0009: staging.key_version, for the merge's speed (docs/PERFORMANCE.md).
-- What history holds for the keys of a batch, read once per key by
-- ingest.reject_revision_conflicts inside validation and again inside the
-- publishing transaction (under the source's publication lock, so it is
-- exactly what the merge sees).  The merge (revision conflicts,
-- supersession, new versions, the unchanged count) then joins this small
-- table instead of probing the indexes of core.invoice_version five times
-- per record: what made publishing over a long history slower than over an
-- empty one.  Unlogged, like the rest of staging: publication always reads
-- it anew.
set local role invoice_owner;

create unlogged table staging.key_version (
  batch_id         bigint not null,
  invoice_number   text not null,
  revision         integer not null,
  is_current       boolean not null,
  content_hash     bytea not null,
  version_batch_id bigint not null
);
create index key_version_key on staging.key_version (batch_id, invoice_number, revision);
comment on table staging.key_version is
  'Published versions of the keys a batch carries, as its validation or publication read them.';
