#!/usr/bin/env bash
# docs.self_contained (ctest): the repository's documents stand on their own.
#   1. No file of the product (docs, README, CONTRIBUTING, loader, sql,
#      migrations, packaging, scripts, bench) cites a document outside the
#      repository, an issue or item number, or a working session: a reader
#      has none of those, only the reason written down.
#   2. Every relative link of the documents resolves, anchors included
#      (scripts/check-doc-links.sh).
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

if bash scripts/check-doc-links.sh; then
  echo "ok - every relative Markdown link and its anchor resolves"
else
  echo "not ok - relative links that resolve to nothing (above)"
  failed=1
fi
exit "$failed"
