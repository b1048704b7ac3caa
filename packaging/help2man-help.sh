#!/bin/sh
# help2man-help.sh: what help2man reads to write invoice-loader(1).
#
# Usage (cmake/Packaging.cmake does this with a copy named invoice-loader,
# since help2man takes the program name from it, and removes the copy after):
#   INVOICE_LOADER_BIN=build/loader/invoice-loader \
#     build/packaging/man/wrapper/invoice-loader --help | --version
#
# --version: the binary's own.  --help: the binary's --help (less its
# "Exit codes:" list), then each command's --help (the commands listed
# under "Commands:" in it), so the man page documents every option and
# follows whatever the binary prints; last the EXIT STATUS section, from
# the same exit-code table (`invoice-loader __reference man-exit-status`).
# A command whose --help fails is left out, with a warning on stderr.
set -eu
bin=${INVOICE_LOADER_BIN:?INVOICE_LOADER_BIN must name the binary}

case ${1:-} in
  --version) exec "$bin" --version ;;
  --help) ;;
  *) echo "usage: $0 --help | --version" >&2; exit 64 ;;
esac

# The exit codes: in EXIT STATUS below, with what to do about each.
"$bin" --help | awk '/^Exit codes:/ { skip = 1 } skip && /^$/ { skip = 0; next }
                     !skip { print }'
# "  source add   register or update ...": the name ends at two spaces.
"$bin" --help |
  awk '/^Commands:/ { on = 1; next }
       on && !/^  [a-z]/ { exit }
       on { sub(/^  /, ""); sub(/  .*$/, ""); print }' |
  while IFS= read -r cmd; do
    # $cmd is one or two words ("source add"): split on purpose.
    # shellcheck disable=SC2086
    if ! text=$("$bin" $cmd --help 2>/dev/null); then
      echo "help2man-help: '$cmd --help' failed; left out" >&2
      continue
    fi
    # A heading help2man makes a subsection of, the usage joined into one
    # indented line (the synopsis of the command), then the rest.
    printf '\nCommand %s:\n' "$cmd"
    printf '%s\n' "$text" |
      awk '/^Usage: / { u = substr($0, 8); inusage = 1; next }
           inusage && /^ / { sub(/^ +/, ""); u = u " " $0; next }
           inusage { print "  " u; inusage = 0 }
           /^Global options are listed by/ { next }
           { print }
           END { if (inusage) print "  " u }'
  done
printf '\n'
"$bin" __reference man-exit-status
