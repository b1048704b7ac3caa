#!/usr/bin/env bash
# docs.self_contained (ctest): the repository's documents stand on their own.
#   1. No file of the product (docs, README, CONTRIBUTING, loader, sql,
#      migrations, packaging, scripts, bench) cites a document outside the
#      repository, an issue or item number, or a working session: a reader
#      has none of those, only the reason written down.
#   2. Every relative link of a Markdown file in the repository resolves to
#      a file or directory of the repository (anchors are not checked).
#
# Usage: tests/docs_check.sh REPO
set -euo pipefail
repo=${1:?usage: tests/docs_check.sh REPO}
cd "$repo"
failed=0

pattern='CONTRACT\.md|\b(issue|item) [0-9]+|(first|second|third|[a-z]+th) session'
paths=(docs README.md CONTRIBUTING.md loader sql migrations packaging scripts bench)
existing=()
for p in "${paths[@]}"; do [[ -e $p ]] && existing+=("$p"); done
if hits=$(grep -rniIE "$pattern" "${existing[@]}"); then
  echo "not ok - outside references (write the reason itself instead):"
  printf '%s\n' "$hits" | sed 's/^/    /' | head -n 40
  failed=1
else
  echo "ok - no citation of an outside document, an issue or a session"
fi

broken=()
while IFS= read -r md; do
  dir=$(dirname "$md")
  # [text](target) and [text]: target; inline code spans are dropped first.
  while IFS= read -r target; do
    target=${target%%#*}
    [[ -z $target ]] && continue
    case $target in
      http://* | https://* | mailto:* | ftp://* | sftp://* | file://*) continue ;;
    esac
    if [[ $target == /* ]]; then resolved=.$target; else resolved=$dir/$target; fi
    [[ -e $resolved ]] || broken+=("$md: $target")
  done < <(sed -E 's/`[^`]*`//g' "$md" |
             grep -oE '\]\([^) ]+\)|^\[[^]]+\]: *[^ ]+' |
             sed -E 's/^\]\(//; s/\)$//; s/^\[[^]]+\]: *//')
done < <(git ls-files '*.md')
if [[ ${#broken[@]} -gt 0 ]]; then
  echo "not ok - relative links that resolve to nothing:"
  printf '    %s\n' "${broken[@]}"
  failed=1
else
  echo "ok - every relative Markdown link resolves"
fi
exit "$failed"
