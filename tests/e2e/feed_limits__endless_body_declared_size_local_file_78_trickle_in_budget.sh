#!/usr/bin/env bash
# A URL input is bounded by --max-input-bytes: a body with no declared end
# is cut as soon as it passes the limit, a declared Content-Length above it
# is refused before any body byte, and a local file above it is refused the
# same way; each exits 78 naming the limit and the URL without its
# userinfo, leaves nothing in the spool and registers nothing.  A body that
# keeps trickling (never tripping the low-speed limit) ends with the retry
# budget: a 4 s budget ends the run within one connect timeout of it.
# A source's own limit (source add --max-input-bytes) bounds its loads
# the same way, downloaded or local, unless the command gives its own.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/feed_lib.sh"

register_source acme-erp --start-date 2026-11-28
start_server
f=$(feed_sample 2026-11-28)
spool_files() { find "$SPOOL" -type f ! -name '*.meta' 2>/dev/null | wc -l; }

# An endless body (no Content-Length): cut at 1 MiB, nothing kept.
set_script "{\"/$f\": [\"endless:512\"]}"
start=$SECONDS
fload --source acme-erp --business-date 2026-11-28 --retry-budget 60 \
  --max-input-bytes 1048576 --input "http://user@127.0.0.1:$HTTP_PORT/$f"
expect_rc 78
expect_output_has "larger than the limit of 1048576 bytes"
expect_output_has "--max-input-bytes"
expect_output_has "http://127.0.0.1:$HTTP_PORT/$f"
grep -q 'user@' "$WORK/err" && fail "the message shows the URL's userinfo"
(( SECONDS - start < 30 )) || fail "the endless body was not cut at once"
expect_eq "endless requests (not retried)" 1 "$(requests "/$f")"
expect_eq "endless spool" 0 "$(spool_files)"
nothing_registered

# A declared Content-Length above the limit: refused before the body.
set_script "{\"/$f\": [\"declare:1073741824\"]}"
fload --source acme-erp --business-date 2026-11-28 --retry-budget 60 \
  --max-input-bytes 1048576 --input "$BASE/$f"
expect_rc 78
expect_output_has "larger than the limit of 1048576 bytes"
expect_eq "declared spool" 0 "$(spool_files)"
nothing_registered

# A local file above the limit: the same refusal, before it is read.
fload --source acme-erp --business-date 2026-11-28 --max-input-bytes 100 \
  --input "$WWW/$f"
expect_rc 78
expect_output_has "larger than the limit of 100 bytes (--max-input-bytes)"
nothing_registered

# A trickling body under a 4 s budget: cut by the budget, not by the
# low-speed limit (30 s), and the run ends within a connect timeout (2 s)
# of its budget.
set_script "{\"/$f\": [\"trickle:40\", \"trickle:40\", \"trickle:40\"]}"
start=$SECONDS
fload --source acme-erp --business-date 2026-11-28 --retry-budget 4 \
  --connect-timeout 2 --input "$BASE/$f"
expect_rc 75
(( SECONDS - start <= 7 )) || fail "the trickle ran $((SECONDS - start)) s with a 4 s budget"
expect_eq "trickle spool" 0 "$(spool_files)"
nothing_registered

# The source's own limit, no --max-input-bytes: an endless body is cut at
# it, a local file above it refused, both naming the source's limit.
run invoice_operator source add acme-erp --max-input-bytes 2048
expect_rc 0
expect_output_has "input limit 2048 bytes"
expect_eq "stored limit" 2048 "$(q "select max_input_bytes from ingest.source where source = 'acme-erp'")"
set_script "{\"/$f\": [\"endless:512\"]}"
fload --source acme-erp --business-date 2026-11-28 --retry-budget 60 --input "$BASE/$f"
expect_rc 78
expect_output_has "larger than the limit of 2048 bytes"
expect_output_has "(the source's limit, source add --max-input-bytes)"
expect_eq "source limit spool" 0 "$(spool_files)"
nothing_registered
fload --source acme-erp --business-date 2026-11-28 --input "$WWW/$f"
expect_rc 78
expect_output_has "larger than the limit of 2048 bytes (the source's limit"
nothing_registered
run invoice_operator source add acme-erp --max-input-bytes 0
expect_rc 64
expect_eq "a refused limit leaves the stored one" 2048 \
  "$(q "select max_input_bytes from ingest.source where source = 'acme-erp'")"

# The same file within the limit still loads (the command's limit wins
# over the source's).
reset_counts
fload --source acme-erp --business-date 2026-11-28 --max-input-bytes 1048576 \
  --input "$BASE/$f"
expect_rc 0
one_published 2026-11-28 "$(sha256sum "$WWW/$f" | cut -d' ' -f1)"
check_invariants
