#!/usr/bin/env bash
# Progress: on a terminal, one updating line (\r) for the
# download and one for the COPY; none when stderr is not a TTY (cron, CI),
# none with -q, none with --log-format json.  The terminal is script(1)'s
# pty (util-linux, Debian's bsdutils, which is essential).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/feed_lib.sh"

register_source acme-erp --start-date 2026-11-28
start_server
dsn="dbname=$E2E_DB user=invoice_loader"

# on_tty FILE ARGS...: the loader under a pty, everything it wrote in FILE.
on_tty() {
  local file=$1 cmd; shift
  cmd=$(printf '%q ' "$INVOICE_LOADER" --dsn "$dsn" "$@")
  set +e
  script -qec "$cmd" "$file" </dev/null >/dev/null
  RC=$?
  set -e
}
loading() { echo load --spool-dir "$SPOOL" --source acme-erp --business-date "$1" --input "$BASE/$2"; }

f=$(feed_sample 2026-11-28)
# shellcheck disable=SC2046  # the words of loading
on_tty "$WORK/tty" $(loading 2026-11-28 "$f")
expect_rc 0
grep -qa $'\rdownload acme-erp_2026-11-28.csv: 2.3 KiB' "$WORK/tty" || fail "no download line: $(cat -v "$WORK/tty")"
grep -qa $'\rCOPY: .* of 20 records' "$WORK/tty" || fail "no COPY line: $(cat -v "$WORK/tty")"
expect_eq "published" "20 invoices, 4200.00 gross" "$(published_state)"

# Not a TTY: the same load of the next day writes no progress at all.
g=$(feed_sample 2026-11-29)
fload --source acme-erp --business-date 2026-11-29 --input "$BASE/$g"
expect_rc 0
grep -qa $'\r' "$WORK/err" && fail "a carriage return on a non-TTY stderr"
grep -qa 'COPY:\|download acme' "$WORK/err" && fail "progress on a non-TTY stderr"

# -q and --log-format json on a TTY: none either.
for d in 2026-11-30 2026-12-01; do feed_sample "$d" >/dev/null; done
# shellcheck disable=SC2046
on_tty "$WORK/tty-q" -q $(loading 2026-11-30 acme-erp_2026-11-30.csv)
expect_rc 0
grep -qa 'COPY:\|download acme' "$WORK/tty-q" && fail "progress with -q"
# shellcheck disable=SC2046
on_tty "$WORK/tty-json" --log-format json $(loading 2026-12-01 acme-erp_2026-12-01.csv)
expect_rc 0
grep -qa 'COPY:\|download acme' "$WORK/tty-json" && fail "progress with --log-format json"
expect_eq "batches" 4 "$(q "select count(*) from ingest.batch where state = 'published'")"
expect_eq "watermark" 2026-12-01 "$(watermark_of acme-erp)"
expect_eq "notifications" 4 "$(notifications batch_published)"
check_invariants
