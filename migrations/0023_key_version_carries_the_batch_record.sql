-- 0023: staging.key_version carries, beside each published version of a
-- batch's key, the batch's own record of that key, when the batch's
-- records have distinct invoice numbers (one record per key; NULL
-- otherwise): its record number, revision, content hash and gross amount,
-- as the history read (ingest.key_history) joined them anyway.  The
-- revision-conflict check and the supersession then read this small table
-- alone instead of joining it with a million typed rows
-- (docs/PERFORMANCE.md "The batch index, the statistics sample and the key
-- history's record").
-- The table is staging (unlogged, rewritten by every read), so nothing is
-- filled in for rows already there; instead, a batch validated before this
-- migration forgets its history stamp, and its publication reads its keys'
-- history again (as when something was published meanwhile), which writes
-- the new columns.
-- ingest.key_history returns the four columns too; its old form goes
-- (sql/ creates the new one; on a new database it does not exist yet).
set local role invoice_owner;

alter table staging.key_version
  add column batch_record_no    integer,
  add column batch_revision     integer,
  add column batch_content_hash bytea,
  add column batch_gross_amount numeric;
comment on column staging.key_version.batch_revision is
  'The revision of the batch''s record of this key, when the batch has one record per key (else NULL); with batch_record_no, batch_content_hash and batch_gross_amount.';

drop function if exists ingest.key_history(bigint, text, text, text, boolean);

-- (Only where there is such a batch: the statement triggers of
-- ingest.batch are placeholders on a new database until sql/ is applied.)
do $$
begin
  if exists (select from ingest.batch as b
             where b.state = 'validated' and b.history_stamp is not null) then
    update ingest.batch as b set history_stamp = null
     where b.state = 'validated' and b.history_stamp is not null;
  end if;
end;
$$;
