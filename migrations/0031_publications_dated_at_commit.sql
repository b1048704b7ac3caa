-- 0031: publications and reverts dated by their commit.  A batch's
-- versions carry the time of the transaction that wrote them
-- (ingest.write_batch: published_at, and superseded_at on what they
-- replace), and a revert's rows the time it took the source's lock
-- (reverted_at, current_since).  Readers see neither until the
-- publishing or reverting transaction commits, which may be hours after
-- the write when the loader died between the two.  This table maps each
-- such time (the stamp the rows carry) to the moment the change became
-- visible: the clock read by a deferred trigger when the transaction
-- commits (the last reading the transaction can make).
-- reporting.invoice_as_of dates every row through it; a stamp that has
-- no row here is a publication or revert from before this migration
-- (dated by its stamp, as then) or a written batch not published yet
-- (ingest.pending_publication: not shown at any time).
-- Cost: one row per publication and per revert; the readers look up the
-- few whose stamp and instant straddle the time asked for (index on at).
set local role invoice_owner;

create table ingest.history_instant (
  source   text not null references ingest.source,
  stamp    timestamptz not null,
  batch_id bigint not null references ingest.batch,
  kind     text not null check (kind in ('published', 'reverted')),
  at       timestamptz not null,
  primary key (source, stamp)
);
create index history_instant_at on ingest.history_instant (at);
create index history_instant_batch on ingest.history_instant (batch_id);
comment on table ingest.history_instant is
  'When each publication and revert became visible: the stamp its rows carry (published_at, superseded_at, current_since, reverted_at) and the clock at its commit.';
comment on column ingest.history_instant.stamp is
  'The time the rows carry: the write''s (ingest.pending_publication.published_at) for a publication, the revert''s lock time for a revert.';
comment on column ingest.history_instant.at is
  'The clock when the publishing or reverting transaction committed (a deferred trigger): from then on readers see the change.';
grant select on ingest.history_instant to invoice_loader, invoice_operator;

-- The trigger's function is in sql/ (applied after the migrations): a
-- placeholder that refuses to run until then (as in migration 0011).
do $do$
begin
  if pg_catalog.to_regprocedure('ingest.history_instant_at_commit()') is null then
    create function ingest.history_instant_at_commit() returns trigger
    language plpgsql set search_path = '' as $b$
    begin
      raise exception 'ingest.history_instant_at_commit is a placeholder: migrate applies sql/ after the migrations'
        using errcode = 'feature_not_supported';
    end
    $b$;
    revoke all on function ingest.history_instant_at_commit() from public;
  end if;
end
$do$;

create constraint trigger history_instant_at_commit
  after insert on ingest.history_instant
  deferrable initially deferred
  for each row execute function ingest.history_instant_at_commit();

-- Replay and revert name the attempt that failed (ingest.attempt_that_left),
-- and status shows which attempt used each replay's authorization: the
-- operator reads the authorizations.
comment on column ingest.operator_action.superseded_attempt_no is
  'The attempt the action supersedes: the one that quarantined the batch, or published the reverted publication (ingest.attempt_that_left).';
grant select on ingest.replay_authorization to invoice_loader, invoice_operator;
