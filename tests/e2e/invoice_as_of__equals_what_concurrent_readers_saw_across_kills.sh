#!/usr/bin/env bash
# reporting.invoice_as_of(ts) equals what reporting.invoice returned at ts,
# with the real binary: a reader (one session, a bounded loop) records
# clock_timestamp() before and after each read of count and sum of
# reporting.invoice, while the loader publishes five dates, killed at each
# commit boundary of the publication (after the write's commit, before and
# after the publishing COMMIT) and rerun plainly, and an operator reverts
# the last date, killed before the revert's COMMIT, then reverts it again.
# For every read whose interval [before - 100 ms, after] holds no moment a
# publication or revert became visible (ingest.history_instant; the 100 ms
# cover the commit itself, flushing the commit record on a busy machine,
# the one window the guarantee leaves out: a snapshot taken then may miss
# the change), invoice_as_of(before) and invoice_as_of(after) equal what
# the reader saw.  Reads inside a window between a write's commit and its
# publication must occur (the kill after the write keeps one open for a
# second): there a function that dated a batch by its write showed it.
source "$(dirname "$0")/lib.sh"

register_source acme-erp --start-date 2026-11-24
q "create table public.seen (n bigint generated always as identity, before timestamptz,
                             after timestamptz, invoices bigint, gross numeric);
   create table public.stop_reading (x int)"

# The reader: at most 60 s and 20,000 reads, until told to stop.
psql -X -q -v ON_ERROR_STOP=1 -d "$E2E_DB" >"$WORK/reader.log" 2>&1 <<'SQL' &
do $$
declare
  v_before timestamptz; v_after timestamptz; v_n bigint; v_g numeric;
  v_end timestamptz := clock_timestamp() + interval '60 seconds';
begin
  for i in 1 .. 20000 loop
    exit when clock_timestamp() > v_end or exists (select from public.stop_reading);
    v_before := clock_timestamp();
    select count(*), coalesce(sum(i2.gross_amount), 0) into v_n, v_g from reporting.invoice as i2;
    v_after := clock_timestamp();
    insert into public.seen (before, after, invoices, gross) values (v_before, v_after, v_n, v_g);
    perform pg_sleep(0.003);
  end loop;
end
$$;
SQL
reader=$!

dsn="dbname=$E2E_DB user=invoice_loader"
# load_killed DATE POINT: a load killed at POINT (137), a pause for the
# reader, then the plain rerun (0).
load_killed() {
  local date=$1 point=$2 input
  input=$(sample "$WORK/d$date" "$date")
  if [[ -n $point ]]; then
    set +e
    INVOICE_LOADER_FAILPOINT=$point "$INVOICE_LOADER" --dsn "$dsn" load --source acme-erp \
      --business-date "$date" --input "$input" >"$WORK/out" 2>"$WORK/err"
    RC=$?
    set -e
    expect_rc 137
    sleep 1
  fi
  load --source acme-erp --business-date "$date" --input "$input"
  expect_rc 0
  sleep 0.3
}
sleep 0.5
load_killed 2026-11-24 ""
load_killed 2026-11-25 after_write_commit
load_killed 2026-11-26 before_publish_commit
load_killed 2026-11-27 after_publish_commit
load_killed 2026-11-28 after_write_commit
last=$(q "select batch_id from ingest.batch where business_date = '2026-11-28'")
set +e
INVOICE_LOADER_FAILPOINT=before_revert_commit "$INVOICE_LOADER" --dsn "dbname=$E2E_DB user=invoice_operator" \
  revert --batch "$last" --reason "checking time travel" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
expect_rc 137
sleep 0.5
run invoice_operator revert --batch "$last" --reason "checking time travel"
expect_rc 0
sleep 0.5
q "insert into public.stop_reading values (1)"
wait "$reader" || fail "the reader failed: $(cat "$WORK/reader.log")"

# The database afterwards: four dates published, the fifth reverted.
expect_eq "published" "80 invoices, 16800.00 gross" "$(published_state)"
expect_eq "watermark" 2026-11-27 "$(watermark_of acme-erp)"
expect_eq "states" "published published published published reverted" \
  "$(q "select string_agg(state, ' ' order by business_date) from ingest.batch")"
expect_eq "notifications" "5 published, 1 reverted" \
  "$(q "select count(*) filter (where kind = 'batch_published') || ' published, '
          || count(*) filter (where kind = 'batch_reverted') || ' reverted' from ingest.notification")"
expect_eq "instants: one per publication and revert" "5 1" \
  "$(q "select count(*) filter (where kind = 'published') || ' ' || count(*) filter (where kind = 'reverted')
        from ingest.history_instant")"
check_invariants

q "create table public.checked as
   select s.*, exists (select from ingest.history_instant as h
                       where h.kind = 'published' and h.stamp <= s.before and h.at > s.after) as in_window
   from public.seen as s
   where not exists (select from ingest.history_instant as h
                     where h.at between s.before - interval '100 milliseconds' and s.after)"
reads=$(q "select count(*) from public.seen")
checked=$(q "select count(*) from public.checked")
in_window=$(q "select count(*) from public.checked where in_window")
echo "reads $reads, compared $checked, inside a write-to-publication window $in_window"
(( checked > 100 )) || fail "only $checked reads to compare (of $reads)"
(( in_window > 50 )) || fail "only $in_window reads between a write and its publication"
expect_eq "reads that saw the states as_of reports" "" \
  "$(q "select string_agg(c.n || ': saw ' || c.invoices || '/' || c.gross || ', as_of ' || a.v || ', ' || b.v
                          || ' (' || (select min(c.before - h.at) from ingest.history_instant as h where h.at < c.before)
                          || ' after an instant)', '; ')
        from public.checked as c,
        lateral (select count(*) || '/' || coalesce(sum(gross_amount), 0) as v
                 from reporting.invoice_as_of(c.before)) as a,
        lateral (select count(*) || '/' || coalesce(sum(gross_amount), 0) as v
                 from reporting.invoice_as_of(c.after)) as b
        where a.v <> c.invoices || '/' || c.gross or b.v <> c.invoices || '/' || c.gross")"
# What a function dating each batch by its write would have said inside
# those windows: the batch, which no reader saw then.
expect_eq "inside the windows the written batch's versions carry an earlier time" 0 \
  "$(q "select count(*) from public.checked as c
        where c.in_window and not exists (
          select from core.invoice_version as v
          join ingest.history_instant as h on h.source = v.source and h.stamp = v.published_at
          where h.stamp <= c.before and h.at > c.after)
          and not exists (
          select from core.invoice_version_reverted as v
          join ingest.history_instant as h on h.source = v.source and h.stamp = v.published_at
          where h.stamp <= c.before and h.at > c.after)")"
