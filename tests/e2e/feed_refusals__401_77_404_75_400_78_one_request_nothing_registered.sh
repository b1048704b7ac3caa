#!/usr/bin/env bash
# Answers that no retry within the run can change end it after ONE request
# (docs/reference/exit-codes.md): 401/403 exit 77 (a credential needs a person), 404/410
# exit 75 (not delivered yet: rerun later), other 4xx exit 78; nothing is
# registered and nothing is left in the spool.  A missing manifest URL is
# "not delivered" too (--wait-for-manifest asks again until it is there).  A file:// URL loads like any other.  No line names
# the URL's user.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/feed_lib.sh"

register_source acme-erp --start-date 2026-11-28
start_server
f=$(feed_sample 2026-11-28)
url=$BASE/$f
# A user name in the URL (never a password: that is refused) must not
# reach a log line or a message.
userurl=http://feeduser@127.0.0.1:$HTTP_PORT/$f

# refused STATUS EXIT: the data file answers STATUS once.
refused() {
  local status=$1 code=$2 before
  before=$(requests "/$f")
  set_script "{\"/$f\": [\"$status\"]}"
  fload --source acme-erp --business-date 2026-11-28 --input "$userurl" --retry-budget 60
  expect_rc "$code"
  expect_eq "$status: requests" $((before + 1)) "$(requests "/$f")"
  expect_eq "$status: manifest requests" 0 "$(requests "/$f.manifest.json")"
  grep -q 'step failed; retrying' "$WORK/err" && fail "$status was retried"
  grep -q feeduser "$WORK/out" "$WORK/err" && fail "$status: the URL's user is shown"
  nothing_registered
  expect_eq "$status: spool" 0 "$(find "$SPOOL" -type f -name '.part-*' | wc -l)"
}

refused 401 77
expect_output_has "HTTP 401"
refused 403 77
refused 404 75
expect_output_has "not delivered yet"
expect_output_has "nothing was registered"
refused 410 75
refused 400 78
refused 418 78

# The data is there, the manifest is not (yet): not delivered, 75.
mv "$WWW/$f.manifest.json" "$WORK/manifest.later"
fload --source acme-erp --business-date 2026-11-28 --input "$url"
expect_rc 75
expect_output_has "manifest is not there (yet)"
expect_eq "manifest 404: manifest requests" 1 "$(requests "/$f.manifest.json")"
nothing_registered

# --wait-for-manifest asks again once a second: it appears two seconds in.
( sleep 2; mv "$WORK/manifest.later" "$WWW/$f.manifest.json" ) &
mover=$!
fload --source acme-erp --business-date 2026-11-28 --input "$userurl" --wait-for-manifest 30
wait "$mover"
expect_rc 0
expect_output_has "waiting for the manifest"
manifest_requests=$(requests "/$f.manifest.json")
((manifest_requests >= 2 && manifest_requests <= 32)) \
  || fail "manifest requests while waiting: $manifest_requests (one a second, bounded by the wait)"
grep -q feeduser "$WORK/out" "$WORK/err" && fail "the URL's user is shown"
one_published 2026-11-28 "$(sha256sum "$WWW/$f" | cut -d' ' -f1)"

# file:// URLs: a missing file is not delivered (75); a present one loads.
g=$(feed_sample 2026-11-29)
fload --source acme-erp --business-date 2026-11-29 --input "file://$WWW/nope.csv"
expect_rc 75
expect_output_has "not delivered yet"
expect_eq "file:// missing: batches" 1 "$(q 'select count(*) from ingest.batch')"
fload --source acme-erp --business-date 2026-11-29 --input "file://$WWW/$g"
expect_rc 0
expect_eq "file:// batch" "published|$(sha256sum "$WWW/$g" | cut -d' ' -f1)|$g" \
  "$(q "select state || '|' || sha256 || '|' || file_name from ingest.batch where business_date = '2026-11-29'")"
expect_eq "watermark" 2026-11-29 "$(watermark_of acme-erp)"
expect_eq "notifications" 2 "$(notifications batch_published)"
check_invariants
