-- ingest.publication_turn: whether a validated batch may publish now, by
-- the order of its source's business dates (a date publishes
-- only once every earlier date is published, i.e. at most the watermark + 1,
-- or, before the first publication, the source's start date when it has
-- one), and whether its publication advances the watermark (its date is
-- the next one).  waiting_for: the date that must publish first, or NULL
-- when it may publish.  Read with the source's publication lock held
-- (ingest.write_batch, ingest.publish_batch), which keeps the answer true
-- to the end of the caller's transaction; the watermark row is locked for
-- update.
-- Internal: no EXECUTE grants.
-- Errors: none.
create or replace function ingest.publication_turn(p_batch_id bigint,
                                                   out waiting_for date, out advances boolean)
language plpgsql
set search_path = ''
as $$
declare
  v_batch ingest.batch;
  v_start date;
  v_mark  ingest.source_watermark;
begin
  select * into v_batch from ingest.batch as b where b.batch_id = p_batch_id;
  select s.start_date into v_start from ingest.source as s where s.source = v_batch.source;
  select * into v_mark from ingest.source_watermark as w
   where w.source = v_batch.source for update;
  if v_mark.source is null then
    if v_start is not null and v_batch.business_date > v_start then
      waiting_for := v_start;
      advances := false;
    else
      advances := true;
    end if;
  elsif v_batch.business_date > v_mark.business_date + 1 then
    waiting_for := v_mark.business_date + 1;
    advances := false;
  else
    advances := v_batch.business_date = v_mark.business_date + 1;
  end if;
end;
$$;
comment on function ingest.publication_turn(bigint) is
  E'Whether a validated batch may publish now (waiting_for NULL) and whether it advances the watermark.\nErrors: none.';
revoke all on function ingest.publication_turn(bigint) from public;
