#!/usr/bin/env bash
# packaging.bash_completion (ctest): packaging/invoice-loader.bash-completion
# offers the commands and options of CONTRACT.md section 6.  The
# bash-completion helpers it calls (_init_completion, _filedir) are stubbed,
# so the test needs no bash-completion package.
#
# Usage: tests/package/bash_completion.sh COMPLETION_FILE
set -uo pipefail
file=${1:?usage: tests/package/bash_completion.sh COMPLETION_FILE}

# shellcheck disable=SC2034,SC2317  # what the completion function reads
_init_completion() {
  cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]:-}
  words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
}
# shellcheck disable=SC2317
_filedir() { COMPREPLY=(FILES); }
# shellcheck source=/dev/null
source "$file" || { echo "not ok - $file does not load"; exit 1; }
complete -p invoice-loader >/dev/null ||
  { echo "not ok - no completion registered for invoice-loader"; exit 1; }

failed=0
# expect "WORDS BEFORE THE CURSOR|CURRENT WORD" "WORDS THAT MUST BE OFFERED"
expect() {
  local line=$1 want=$2 w
  read -r -a COMP_WORDS <<<"invoice-loader ${line%|*}"
  COMP_WORDS+=("${line#*|}")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _invoice_loader
  for w in $want; do
    if [[ " ${COMPREPLY[*]} " != *" $w "* ]]; then
      echo "not ok - [$line]: $w not offered (got: ${COMPREPLY[*]})"
      failed=1
      return
    fi
  done
  echo "ok - [$line] offers $want"
}
expect_none() {
  local line=$1 unwanted=$2
  read -r -a COMP_WORDS <<<"invoice-loader ${line%|*}"
  COMP_WORDS+=("${line#*|}")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _invoice_loader
  if [[ " ${COMPREPLY[*]} " == *" $unwanted "* ]]; then
    echo "not ok - [$line]: $unwanted offered"; failed=1
  else
    echo "ok - [$line] does not offer $unwanted"
  fi
}

expect "|" "migrate source load catch-up status replay revert notify schedule"
expect "|--" "--dsn --log-format --help --version"
expect "--dsn dbname=x|" "migrate load status"
expect "-v --log-format|" "text json"
expect "--log-format json|l" "load"
expect "source|" "add"
expect "source add acme-erp|--" "--policy --max-rejected-share --start-date --feed-url --allow-unknown-columns --deadline --retention-days"
expect "source add acme-erp --policy|" "all-or-nothing partial"
expect "load|--" "--source --business-date --input --manifest --expect-count --expect-total --dry-run --wait-for-manifest"
expect "load --input|" "FILES"
expect "load|--" "--spool-dir --netrc-file --cacert --connect-timeout --low-speed-time --retry-attempts --retry-budget"
expect "load --cacert|" "FILES"
expect "catch-up|--" "--source --until --spool-dir --netrc-file --cacert --connect-timeout --low-speed-time --retry-attempts --retry-budget"
expect "catch-up --netrc-file|" "FILES"
expect_none "catch-up|--" "--business-date"
expect "status|--" "--source --batch --format --state --since --limit"
expect "status --format|" "text json prometheus"
expect "replay|--" "--batch --reason"
expect "revert|--" "--batch --reason"
expect "notify|" "resolve"
expect "notify|--" "--once --follow --webhook-url --smtp-url --mail-from --mail-to --config"
expect "notify resolve|--" "--notification --as --reason"
expect "notify resolve --as|" "dispatched pending"
expect "schedule|" "install remove"
expect "schedule install|--" "--cron-database --schedule"
expect_none "load|--" "--notification"
expect_none "notify resolve|--" "--once"
exit "$failed"
