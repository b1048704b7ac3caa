#!/usr/bin/env bash
# Two CALL ingest.sweep() at once in two sessions, with loads before them:
# four batches validated ahead of their turn (each load exits 75) wait for
# the first date.  Sweep A stops inside publish_batch of the first waiting
# date (a third session holds the source's publication lock); sweep B runs
# meanwhile: it passes over the batch A holds, finds nothing else ready,
# and finishes without writing any of it.  Released, A publishes the four
# dates in order.  Afterwards: each batch published once, by one sweep
# attempt, one notification each, the watermark at the last date, no open
# attempt; and a source with a deadline got its deadline_missed
# notifications once although both sweeps ran the deadline part.  Then a
# sweep in chunks of 7 rows visits the day past its retention: the loader
# staged typed rows only, which publication cleared, so there is nothing
# left to delete (raw rows staged without the loader are purged in chunks:
# tests/sql/ingest.sweep_retention).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/sweep_lib.sh"
trap 'exec 7>&- 2>/dev/null || true; rm -rf "$WORK"' EXIT

register_source acme-erp --start-date 2026-11-28
today=$(q "select (now() at time zone 'UTC')::date")
operator_sql "select ingest.add_source('globex', p_start_date => date '$today' - 3,
                                       p_deadline => time '00:00')" >/dev/null

for d in 2026-11-29 2026-11-30 2026-12-01 2026-12-02; do
  load --source acme-erp --business-date "$d" --input "$(sample "$WORK/$d" "$d")"
  expect_rc 75
done
load --source acme-erp --business-date 2026-11-28 --input "$(sample "$WORK/d0" 2026-11-28)"
expect_rc 0
expect_eq "waiting batches" 4 "$(q "select count(*) from ingest.batch where state = 'validated'")"
expect_eq "watermark before the sweeps" 2026-11-28 "$(watermark_of acme-erp)"

hold_publication acme-erp
sweep_bg sweep-a
a=$SWEEP_PID
wait_for_lock_wait sweep-a
sweep_bg sweep-b
b=$SWEEP_PID
sweep_wait "$b"
expect_rc 0
expect_eq "after B, with A inside publish_batch: still validated" 4 \
  "$(q "select count(*) from ingest.batch where state = 'validated'")"
expect_eq "B wrote no attempt" 0 "$(q "select count(*) from ingest.attempt where host = 'ingest.sweep'
                                         and finished_at is not null")"
release_publication
sweep_wait "$a"
expect_rc 0

expect_eq "every batch published" 5 "$(q "select count(*) from ingest.batch where state = 'published'")"
expect_eq "watermark" 2026-12-02 "$(watermark_of acme-erp)"
expect_eq "published invoices" "100 invoices, 21000.00 gross" "$(published_state)"
expect_eq "one notification per batch" "5|5" \
  "$(q "select count(*) || '|' || count(distinct batch_id) from ingest.notification
        where kind = 'batch_published'")"
expect_eq "each waiting batch published by one sweep attempt" \
  "2026-11-29 published|2026-11-30 published|2026-12-01 published|2026-12-02 published" \
  "$(q "select string_agg(b.business_date || ' ' || a.outcome, '|' order by b.business_date)
        from ingest.attempt as a join ingest.batch as b using (batch_id)
        where a.host = 'ingest.sweep'")"
expect_eq "one sweep run published them" 1 \
  "$(q "select count(distinct run_id) from ingest.attempt where host = 'ingest.sweep'")"
expect_eq "deadline_missed once per date" \
  "$(q "select string_agg(to_char(d, 'YYYY-MM-DD'), ' ' order by d)
        from generate_series(date '$today' - 3, date '$today' - 1, interval '1 day') as d")" \
  "$(q "select string_agg(payload ->> 'business_date', ' ' order by payload ->> 'business_date')
        from ingest.notification where kind = 'deadline_missed' and payload ->> 'source' = 'globex'")"
sweep_now
expect_rc 0
expect_eq "a third sweep changes nothing" "5|3" \
  "$(q "select count(*) filter (where kind = 'batch_published') || '|'
             || count(*) filter (where kind = 'deadline_missed') from ingest.notification")"

# Retention through the procedure, in chunks of 7 rows: the first day is
# past its retention and recorded as purged; the other days are within
# their 30 days.  Nothing of a published batch is left in staging.
q "update ingest.batch set updated_at = now() - interval '31 days'
   where source = 'acme-erp' and business_date = '2026-11-28'" >/dev/null
sweep_now 'call ingest.sweep(p_chunk => 7)'
expect_rc 0
expect_eq "staging rows left (raw, typed)" "0|0" \
  "$(q "select (select count(*) from staging.invoice_line) || '|'
             || (select count(*) from staging.invoice_valid)")"
expect_eq "the purge recorded, the first day only" "2026-11-28 published 0 true" \
  "$(q "select b.business_date || ' ' || p.state_at_purge || ' ' || p.rows_deleted || ' '
             || (p.purged_at is not null)::text
        from ingest.staging_purge as p join ingest.batch as b using (batch_id)")"
expect_eq "what consumers read is untouched" "100 invoices, 21000.00 gross" "$(published_state)"
check_invariants
