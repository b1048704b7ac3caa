#!/usr/bin/env bash
# The spool keeps a delivered file only while it may be needed, and never
# grows past --spool-max-bytes.  A published batch's file (and the
# manifest's copy) is removed by its run; a quarantined one is held for the
# source's retention days; a file no batch holds goes a day after its last
# use, a hold that ran out goes too; to make room the oldest files go
# first; a spool filled by files in use refuses the download (78, nothing
# registered, nothing written).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/feed_lib.sh"

register_source acme-erp --start-date 2026-11-28 --retention-days 2
start_server
spooled() { find "$SPOOL" -maxdepth 1 -type f -regextype egrep -regex '.*/[0-9a-f]{64}' | wc -l; }
# fake NAME-CHAR BYTES AGE: a spooled file last used AGE ago (touch -d).
fake() {
  local name
  name=$(printf "%064d" 0 | tr 0 "$1")
  head -c "$2" /dev/zero >"$SPOOL/$name"
  touch -d "$3 ago" "$SPOOL/$name"
  echo "$SPOOL/$name"
}

# Published: nothing of it stays in the spool.
f=$(feed_sample 2026-11-28)
fload --source acme-erp --business-date 2026-11-28 --input "$BASE/$f"
expect_rc 0
one_published 2026-11-28 "$(sha256sum "$WWW/$f" | cut -d' ' -f1)"
expect_eq "published: spooled files" 0 "$(spooled)"
expect_output_has "spooled file removed: its batch is published"

# Quarantined (the manifest's total is wrong): held for 2 days.
g=$(feed_sample 2026-11-29)
write_manifest "$WWW/$g" 20 1.00 2026-11-29
sha=$(sha256sum "$WWW/$g" | cut -d' ' -f1)
fload --source acme-erp --business-date 2026-11-29 --input "$BASE/$g"
expect_rc 65
expect_eq "quarantined: batch" quarantined \
  "$(q "select state from ingest.batch where business_date = '2026-11-29'")"
[[ -f $SPOOL/$sha && -f $SPOOL/$sha.hold ]] || fail "the quarantined file is not held"
until=$(sed -n 's/^until=//p' "$SPOOL/$sha.hold")
now=$(date +%s)
(( until > now + 2 * 86400 - 120 && until <= now + 2 * 86400 )) \
  || fail "held until $until, not 2 days after $now"
expect_eq "watermark" 2026-11-28 "$(watermark_of acme-erp)"

# Expired: an unheld file used 25 hours ago, and a held one whose hold is
# over, go at the next download; the quarantined file stays.
old=$(fake a 1000 '25 hours')
over=$(fake b 1000 '1 hour')
echo "until=$((now - 10))" >"$over.hold"
h=$(feed_sample 2026-11-30)
fload --source acme-erp --business-date 2026-11-30 --input "$BASE/$h"
expect_rc 75   # waits for 2026-11-29, which is quarantined
[[ -e $old || -e $over || -e $over.hold ]] && fail "an expired file stayed"
[[ -f $SPOOL/$sha ]] || fail "the held file went"
expect_output_has "spool tidied"

# Old first: with room for one more input of 100000 bytes under 150000,
# the two files used 2 and 3 hours ago go, oldest first, the held one too;
# a file used within the hour stays.
rm -f "$SPOOL"/*
older=$(fake c 40000 '3 hours')
newer=$(fake d 40000 '2 hours')
inuse=$(fake e 40000 '10 minutes')
fload --source acme-erp --business-date 2026-11-30 --input "$BASE/$h" \
  --spool-max-bytes 150000 --max-input-bytes 100000
[[ -e $older || -e $newer ]] && fail "the oldest files were not removed"
[[ -f $inuse ]] || fail "a file in use was removed"

# Full: files in use fill the spool; the download is refused.
rm -f "$SPOOL"/*
fake f 150000 '1 minute' >/dev/null
batches=$(q 'select count(*) from ingest.batch')
reset_counts
fload --source acme-erp --business-date 2026-12-01 --input "$BASE/$h" \
  --spool-max-bytes 150000 --max-input-bytes 100000
expect_rc 78
expect_output_has "is full"
expect_output_has "--spool-max-bytes 150000"
expect_eq "full: requests" 0 "$(requests "/$h")"
expect_eq "full: batches" "$batches" "$(q 'select count(*) from ingest.batch')"
expect_eq "full: partial files" 0 "$(find "$SPOOL" -name '.part-*' | wc -l)"

# Room for less than the input: the download stops at the room left.
rm -f "$SPOOL"/*
fake b 149000 '1 minute' >/dev/null
fload --source acme-erp --business-date 2026-12-01 --input "$BASE/$h" \
  --spool-max-bytes 150000 --max-input-bytes 100000
expect_rc 78
expect_output_has "the room left in the spool"
expect_eq "room: batches" "$batches" "$(q 'select count(*) from ingest.batch')"
expect_eq "room: partial files" 0 "$(find "$SPOOL" -name '.part-*' | wc -l)"
expect_eq "watermark" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
