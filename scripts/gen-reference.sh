#!/usr/bin/env bash
# gen-reference.sh: rewrite the files generated from the binary's command
# and exit-code tables: docs/reference/commands.md,
# docs/reference/exit-codes.md, packaging/invoice-loader.bash-completion and
# the README.md blocks between "<!-- BEGIN GENERATED: commands -->" /
# "<!-- END GENERATED: commands -->" and the same for "exit-codes".
#
# Usage: scripts/gen-reference.sh [--check] [--out DIR]
#   --out DIR  write the tree under DIR instead of the checkout (README.md
#              is copied there first, so its blocks are replaced in the copy)
#   --check    write into a temporary directory and compare with the
#              checkout; exit 1 naming each file that differs (the ctest
#              docs.reference_is_generated)
# The binary: $INVOICE_LOADER, default build/loader/invoice-loader (build it
# first: scripts/build.sh).
set -euo pipefail
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
for arg in "$@"; do help_if_asked "$0" "$arg"; done

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${INVOICE_LOADER:-$repo/build/loader/invoice-loader}
check=0 out=$repo
while (($#)); do
  case $1 in
    --check) check=1; shift ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    *) echo "usage: $0 [--check] [--out DIR]" >&2; exit 64 ;;
  esac
done
[[ -x $bin ]] ||
  { echo "gen-reference: no binary at $bin (scripts/build.sh)" >&2; exit 66; }
if ((check)); then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi

# gen KIND FILE: the text of `invoice-loader __reference KIND` into FILE.
gen() {
  mkdir -p "$(dirname "$2")"
  "$bin" __reference "$1" >"$2.tmp" && mv "$2.tmp" "$2"
}
# splice NAME KIND FILE: replace the lines between FILE's BEGIN/END
# GENERATED: NAME markers with the text of KIND.
splice() {
  local text
  text=$("$bin" __reference "$2")
  if ! grep -q "^<!-- BEGIN GENERATED: $1 -->\$" "$3" ||
     ! grep -q "^<!-- END GENERATED: $1 -->\$" "$3"; then
    echo "gen-reference: $3 lacks the $1 markers" >&2
    exit 65
  fi
  TEXT=$text awk -v name="$1" '
    $0 == "<!-- BEGIN GENERATED: " name " -->" {
      print; print ENVIRON["TEXT"]; skip = 1; next
    }
    $0 == "<!-- END GENERATED: " name " -->" { skip = 0 }
    !skip { print }' "$3" >"$3.tmp" && mv "$3.tmp" "$3"
}

gen commands "$out/docs/reference/commands.md"
gen exit-codes "$out/docs/reference/exit-codes.md"
gen completion "$out/packaging/invoice-loader.bash-completion"
[[ $out == "$repo" ]] || cp "$repo/README.md" "$out/README.md"
splice commands readme-commands "$out/README.md"
splice exit-codes readme-exit-codes "$out/README.md"

if ((check)); then
  status=0
  for f in docs/reference/commands.md docs/reference/exit-codes.md \
           packaging/invoice-loader.bash-completion README.md; do
    if ! diff -u "$repo/$f" "$out/$f"; then
      echo "not ok - $f is not what the binary generates" >&2
      status=1
    fi
  done
  ((status == 0)) ||
    echo "The generated reference drifted: run scripts/gen-reference.sh" \
      "and commit the result." >&2
  exit "$status"
fi
