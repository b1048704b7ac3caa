#!/usr/bin/env bash
# The sender replaces a file while the loader is fetching it (a partial
# download is never registered).  Each try downloads one
# whole response into a temporary spool file that is named by its SHA-256
# only once complete, so a batch is always one version's bytes, never half
# of each: a body cut in the middle of version A, then version B served
# whole, publishes B exactly (its SHA-256, its invoices).  Data of A with
# the manifest of B (replaced between the two downloads) is detected by the
# manifest's sha256 and quarantined, never published.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/feed_lib.sh"

register_source acme-erp --start-date 2026-11-28
start_server
f=$(feed_sample 2026-11-28)
sha_a=$(sha256sum "$WWW/$f" | cut -d' ' -f1)
# Version B: the same invoices and totals, one description corrected.
sed 's/Monthly subscription/Monthly subscription (corrected)/' "$WWW/$f" >"$WWW/b.csv"
sha_b=$(sha256sum "$WWW/b.csv" | cut -d' ' -f1)
[[ $sha_a != "$sha_b" ]] || fail "version B is not different"
sed "s/$sha_a/$sha_b/" "$WWW/$f.manifest.json" >"$WWW/b.csv.manifest.json"

# Try 1 gets half of A and a cut; try 2 gets B whole (and B's manifest).
set_script "{\"/$f\": [\"cut\", \"as:b.csv\"], \"/$f.manifest.json\": [\"as:b.csv.manifest.json\"]}"
fload --source acme-erp --business-date 2026-11-28 --input "$BASE/$f" --retry-budget 60
expect_rc 0
expect_eq "requests" 2 "$(requests "/$f")"
expect_eq "batches" 1 "$(q 'select count(*) from ingest.batch')"
expect_eq "batch" "published|$sha_b" "$(q "select state || '|' || sha256 from ingest.batch")"
expect_eq "B's description published" 1 \
  "$(q "select count(*) from reporting.invoice where description = 'Monthly subscription (corrected)'")"
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "watermark" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "notifications" 1 "$(notifications batch_published)"
expect_eq "spool: only whole files" 0 "$(find "$SPOOL" -name '.part-*' | wc -l)"
# Only B was ever a whole download (A was cut), and B went from the spool
# with its publication.
grep -q "sha256=$sha_b" "$WORK/err" || fail "B's download is not logged"
grep -q "sha256=$sha_a" "$WORK/err" && fail "A was downloaded whole"
[[ -e $SPOOL/$sha_a || -e $SPOOL/$sha_b ]] && fail "the spool holds A or B: $(ls "$SPOOL")"
check_invariants

# The next day: A's data, then the manifest already replaced by B's.
g=$(feed_sample 2026-11-29)
sha_a=$(sha256sum "$WWW/$g" | cut -d' ' -f1)
sed 's/Monthly subscription/Monthly subscription (corrected)/' "$WWW/$g" >"$WWW/b2.csv"
sha_b=$(sha256sum "$WWW/b2.csv" | cut -d' ' -f1)
sed "s/$sha_a/$sha_b/" "$WWW/$g.manifest.json" >"$WWW/b2.csv.manifest.json"
set_script "{\"/$g.manifest.json\": [\"as:b2.csv.manifest.json\"]}"
fload --source acme-erp --business-date 2026-11-29 --input "$BASE/$g"
expect_rc 65
expect_eq "mixed: A quarantined" "quarantined|$sha_a" \
  "$(q "select state || '|' || sha256 from ingest.batch where business_date = '2026-11-29'")"
expect_eq "mixed: nothing of it published" "20 invoices, 4200.00 gross" "$(published_state)"
expect_eq "mixed: watermark" 2026-11-28 "$(watermark_of acme-erp)"
expect_eq "mixed: quarantine notification" 1 "$(notifications batch_quarantined)"

# B whole with its manifest: new bytes, a new batch, published.
set_script "{\"/$g\": [\"as:b2.csv\"], \"/$g.manifest.json\": [\"as:b2.csv.manifest.json\"]}"
fload --source acme-erp --business-date 2026-11-29 --input "$BASE/$g"
expect_rc 0
expect_eq "B: batches of the day" "quarantined|$sha_a published|$sha_b" \
  "$(q "select string_agg(state || '|' || sha256, ' ' order by batch_id) from ingest.batch where business_date = '2026-11-29'")"
expect_eq "B: published" "40 invoices, 8400.00 gross" "$(published_state)"
expect_eq "B: watermark" 2026-11-29 "$(watermark_of acme-erp)"
expect_eq "B: notifications" 2 "$(notifications batch_published)"
check_invariants
