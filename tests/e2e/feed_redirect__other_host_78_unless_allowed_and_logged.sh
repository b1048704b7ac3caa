#!/usr/bin/env bash
# A feed's redirect is followed only to the same scheme, host and port:
# one to another host (localhost instead of 127.0.0.1) exits 78 naming the
# target and --allow-redirect-host, without a request to the target and
# with nothing spooled or registered.  --allow-redirect-host localhost
# lets the same redirect through, and the run logs it.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/feed_lib.sh"

register_source acme-erp --start-date 2026-11-28
start_server
f=$(feed_sample 2026-11-28)
set_script "{\"/moved.csv\": [\"redirect:http://localhost:$HTTP_PORT/$f\", \"redirect:http://localhost:$HTTP_PORT/$f\"]}"

fload --source acme-erp --business-date 2026-11-28 --retry-budget 30 \
  --input "$BASE/moved.csv" --manifest "$WWW/$f.manifest.json"
expect_rc 78
expect_output_has "refused"
expect_output_has "--allow-redirect-host localhost"
expect_eq "target requests" 0 "$(requests "/$f")"
expect_eq "refused redirect requests (not retried)" 1 "$(requests /moved.csv)"
expect_eq "spool" 0 "$(find "$SPOOL" -type f ! -name '*.meta' 2>/dev/null | wc -l)"
nothing_registered

fload --source acme-erp --business-date 2026-11-28 --retry-budget 30 \
  --input "$BASE/moved.csv" --manifest "$WWW/$f.manifest.json" \
  --allow-redirect-host localhost
expect_rc 0
expect_output_has "following a redirect"
expect_eq "target requests" 1 "$(requests "/$f")"
one_published 2026-11-28 "$(sha256sum "$WWW/$f" | cut -d' ' -f1)"
