#!/usr/bin/env bash
# check-doc-links.sh: every relative markdown link resolves.
#
# Usage: scripts/check-doc-links.sh [FILE...]
#   default: README.md CONTRIBUTING.md docs/**/*.md sql/ERRCODES.md
#
# For each inline link [text](target) that is not a URL, the target must be
# an existing file or directory relative to the linking file, and a
# #anchor must match a heading of the target (GitHub's slugs: lower case,
# punctuation dropped, blanks as '-'). Prints one line per broken link and
# exits 1 if there was any, 0 otherwise.
set -euo pipefail

if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
cd "$(dirname "$0")/.."
if (($# == 0)); then
  shopt -s globstar nullglob
  set -- README.md CONTRIBUTING.md docs/**/*.md sql/ERRCODES.md
fi

# slugs FILE: the anchors of FILE's headings, one a line.
slugs() {
  grep -E '^#{1,6} ' "$1" | sed -E 's/^#+ +//' | python3 -c '
import re, sys
for line in sys.stdin:
    s = re.sub(r"[^\w\- ]", "", line.strip().lower())
    print(s.replace(" ", "-"))'
}

broken=0
for f in "$@"; do
  [[ -f $f ]] || continue
  dir=$(dirname "$f")
  while read -r target; do
    case $target in http://* | https://* | mailto:* | file://*) continue ;; esac
    path=${target%%#*}
    anchor=
    [[ $target == *#* ]] && anchor=${target#*#}
    if [[ -z $path ]]; then file=$f; else file=$dir/$path; fi
    if [[ ! -e $file ]]; then
      echo "$f: broken link $target"
      broken=1
    elif [[ -n $anchor && -f $file ]] &&
      ! grep -qxF -- "$anchor" <<<"$(slugs "$file")"; then
      echo "$f: no heading for #$anchor in $file"
      broken=1
    fi
  done < <(grep -oE '\]\([^)[:space:]]+\)' "$f" | sed -E 's/^\]\((.*)\)$/\1/')
done
exit "$broken"
