#!/usr/bin/env bash
# format.sh: format the C++ sources with clang-format and the repository's
# .clang-format (the style of loader/ and tests/).
#
# Usage: scripts/format.sh           rewrite every file that is not formatted
#        scripts/format.sh --check   change nothing; list the files that are
#                                    not formatted and exit 1 if there are any
#        scripts/format.sh --help    (this text)
#
# Files: the tracked *.cpp and *.hpp under loader/ and tests/.
# The style is pinned to Debian 12's clang-format (14): another major
# version may format some lines differently, so CI runs that one
# (scripts/install-deps.sh installs it).
set -euo pipefail
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
help_if_asked "$0" "${1:-}"

cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode=fix
case ${1:-} in
  --check) mode=check ;;
  '') ;;
  *) echo "usage: scripts/format.sh [--check]" >&2; exit 64 ;;
esac
command -v clang-format >/dev/null ||
  { echo "format.sh: clang-format is not installed (scripts/install-deps.sh)" >&2; exit 69; }

mapfile -t files < <(git ls-files -- 'loader/*.cpp' 'loader/*.hpp' \
  'tests/*.cpp' 'tests/*.hpp')
if [[ $mode == fix ]]; then
  clang-format -i --style=file "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror --style=file "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [[ ${#bad[@]} -gt 0 ]]; then
  printf 'not formatted: %s\n' "${bad[@]}"
  echo "format.sh: ${#bad[@]} of ${#files[@]} files differ from .clang-format; run scripts/format.sh" >&2
  exit 1
fi
echo "format.sh: ${#files[@]} files formatted as .clang-format says"
