#!/usr/bin/env bash
# install-deps.sh: install the Debian 12 packages that building and testing
# invoice-loader need: compiler and CMake, PostgreSQL 15 with pgTAP and
# pg_cron and pg_auto_failover (the HA test), libpqxx/libpq, Boost.Program_options and the Boost headers
# (UUID, Algorithm), nlohmann-json, Catch2 v2, pg_prove, libcurl, Nettle
# (SHA-256); for the upgrade test's previous release
# (tests/e2e/previous_release.sh builds that commit's tree with its own
# defaults, and a tree of before the shared libpq compiles libpq in):
# postgresql-server-dev-15 (libpq.a's helper archives, of the same release
# as libpq-dev: both are named, so apt takes one release of each), the
# OpenSSL, GSSAPI and LDAP headers (libssl-dev, libkrb5-dev, libldap-dev);
# zlib and libzstd (compressed deliveries); zstd(1) (the tests compress
# their fixtures with it); curl(1), openssl(1) and python3 (the transport tests' loopback
# servers, tests/tools/README.md), python3-paramiko (the loopback SFTP
# server of the sftp:// test; a library, no SSH service), locales (the connection tests make a
# German server locale); for the benchmarks (bench/run.py, behind
# scripts/bench.sh): python3 and pgloader, the baseline it measures the
# loader against; for the package (scripts/package.sh, tests/package/):
# clang-format (scripts/format.sh --check, the style of the C++), help2man
# (the man page), man-db (man -l), dpkg-dev (dpkg-shlibdeps: the
# .deb's Depends) and file (which dpkg-shlibdeps and CPack use to find the
# ELF files), lintian (the package checked against Debian policy),
# prometheus (its promtool checks the metrics status writes and the
# shipped alert rules).
#
# Usage: scripts/install-deps.sh          (no arguments)
#        scripts/install-deps.sh --help   (this text; installs nothing)
#
# Idempotent: asks dpkg-query first, so a machine that has every package
# makes no network access at all. Otherwise: apt-get update, then
# apt-get install -y --no-install-recommends of the missing packages
# (noninteractive), as root, or through sudo when not root. Without root
# and without sudo it prints what to install and exits 1.
set -euo pipefail
# shellcheck source=scripts/lib/help.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/help.sh"
help_if_asked "$0" "${1:-}"
if [[ $# -gt 0 ]]; then
  echo "install-deps: takes no arguments (see --help)" >&2
  exit 64
fi

packages=(
  build-essential
  cmake
  pkg-config
  postgresql-15
  postgresql-client-15
  postgresql-15-pgtap
  postgresql-15-cron
  postgresql-15-auto-failover
  postgresql-15-plpgsql-check
  libpqxx-dev
  libpq-dev
  postgresql-server-dev-15
  libssl-dev
  libkrb5-dev
  libldap-dev
  libboost-program-options-dev
  libboost-dev
  nlohmann-json3-dev
  catch2
  libtap-parser-sourcehandler-pgtap-perl
  libcurl4-openssl-dev
  nettle-dev
  zlib1g-dev
  libzstd-dev
  ca-certificates
  curl
  zstd
  openssl
  python3
  python3-paramiko
  locales
  pgloader
  help2man
  clang-format
  lintian
  prometheus
  man-db
  dpkg-dev
  file
)

missing=()
for p in "${packages[@]}"; do
  # shellcheck disable=SC2016  # ${Status} is dpkg-query's, not the shell's
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  if [[ $status != "install ok installed" ]]; then
    missing+=("$p")
  fi
done

# libpq.a and the helper archives must be of one release (the previous
# release's build checks): when either is missing, ask for both, which
# brings libpq-dev up to the release the server's package has.
if [[ " ${missing[*]} " == *" libpq-dev "* ||
      " ${missing[*]} " == *" postgresql-server-dev-15 "* ]]; then
  for p in libpq-dev postgresql-server-dev-15; do
    [[ " ${missing[*]} " == *" $p "* ]] || missing+=("$p")
  done
fi

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi
echo "install-deps: missing: ${missing[*]}"

if [[ $EUID -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: not root and no sudo; as root, run:" >&2
  echo "  apt-get update && apt-get install -y --no-install-recommends" \
    "${missing[*]}" >&2
  exit 1
fi

"${as_root[@]}" apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
echo "install-deps: installed ${missing[*]}"
