-- ingest.number_outbox_round: an outbox row belongs to the publication
-- round of its batch (ingest.batch.replays: the replays consumed so far).
-- The outbox is unique per (batch_id, kind, round), so a batch republished
-- after a revert and a replay writes a new batch_published row (and a
-- replayed batch quarantined again a new batch_quarantined row), while a
-- step repeated within a round still writes nothing twice.  From round 1
-- on, the dedupe key (the webhook's Idempotency-Key) gets the suffix
-- ':r<round>', so it is new too; round 0 keys are as before.
-- Trigger function; installed with its trigger below.
create or replace function ingest.number_outbox_round()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.batch_id is not null then
    select b.replays into new.round from ingest.batch as b where b.batch_id = new.batch_id;
    new.round := coalesce(new.round, 0);
    if new.round > 0 then
      new.dedupe_key := new.dedupe_key || ':r' || new.round;
    end if;
  end if;
  return new;
end;
$$;
comment on function ingest.number_outbox_round() is
  'Trigger: an outbox row takes its batch''s publication round (replays), and from round 1 a dedupe key of its own.';
revoke all on function ingest.number_outbox_round() from public;

create or replace trigger outbox_round
  before insert on ingest.outbox
  for each row execute function ingest.number_outbox_round();
