# shellcheck shell=bash
# scripts/lib/help.sh: --help for the helper scripts, sourced first thing.
# Each script's documentation is its header comment; one copy, no drift.
#
#   source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
#   help_if_asked "$0" "${1:-}"   # only the first argument: a script that
#                                 # runs a command (with-tmp-pg.sh) passes
#                                 # the later ones on untouched

# script_help SCRIPT: print SCRIPT's header comment (line 2 up to the first
# line that is not a comment) without the leading "# ", and exit 0.
script_help() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$1"
  exit 0
}

# help_if_asked SCRIPT ARG: script_help SCRIPT when ARG is -h or --help.
help_if_asked() {
  case ${2:-} in
    -h | --help) script_help "$1" ;;
  esac
}
