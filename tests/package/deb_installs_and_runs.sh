#!/usr/bin/env bash
# deb_installs_and_runs: the .deb that scripts/package.sh builds unpacks
# (dpkg -x, no installation) into a usable tree: the binary runs (--version
# names the package's version, --help the commands), the man page renders
# with man -l and documents the commands and the exit codes, the control
# file's Depends names libssl3 and libnettle8 (dpkg-shlibdeps) and libcurl4,
# libgssapi-krb5-2 and libldap-2.5-0 (opened with dlopen on first use, so
# named by hand; `load --help` opens libcurl), the binary needs neither
# libcurl, libpq, GSSAPI nor LDAP at start, nor any C++ shared library
# (INVOICE_LOADER_STATIC_CXX and INVOICE_LOADER_STATIC_LIBPQ: libpq, the
# C++ runtime, libpqxx and Boost.Program_options are linked in, for a
# faster start) and so Depends names none of them, Static-Built-Using names
# their source packages at the versions installed here (the build's), and
# the bash completion, docs and example systemd units are where the man
# page says.
# With --shared-libpq, the package of a -DINVOICE_LOADER_STATIC_LIBPQ=OFF
# build: Depends names libpq5 (which brings OpenSSL, GSSAPI and LDAP
# itself), the binary loads libpq.so.5, and Static-Built-Using names only
# the C++ sources (libpqxx, Boost, GCC), not PostgreSQL's.
#
# Usage: tests/package/deb_installs_and_runs.sh [--shared-libpq] DEB
set -euo pipefail
shared_libpq=false
if [[ ${1:-} == --shared-libpq ]]; then
  shared_libpq=true
  shift
fi
deb=${1:?usage: tests/package/deb_installs_and_runs.sh [--shared-libpq] DEB}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; failed=1; }
check() { # check DESCRIPTION CMD...
  local what=$1; shift
  if "$@"; then ok "$what"; else not_ok "$what"; fi
}
# shellcheck disable=SC2317  # called through check
has() { grep -qE -- "$2" "$1"; }
# shellcheck disable=SC2317  # called through check
lacks() { ! grep -qE -- "$2" "$1"; }

[[ -f $deb ]] || { echo "not ok - $deb does not exist"; exit 1; }
version=$(dpkg-deb -f "$deb" Version)
arch=$(dpkg-deb -f "$deb" Architecture)
check "file name is invoice-loader_<version>_<arch>.deb" \
  test "$(basename "$deb")" = "invoice-loader_${version}_${arch}.deb"
depends=$(dpkg-deb -f "$deb" Depends)
echo "$depends" >"$work/depends"
check "Depends lists libnettle8 (SHA-256; $depends)" has "$work/depends" '(^|, )libnettle8( |,|$)'
# libcurl, and libpq's GSSAPI and LDAP libraries, are opened on first use
# (dlopen), so dpkg-shlibdeps cannot see them
check "Depends lists libcurl4 (opened when a URL needs it)" \
  has "$work/depends" '(^|, )libcurl4 \(>= 7\.84\.0\)'
static_libs=(libpqxx 'libboost-program-options' 'libstdc\+\+6')
if $shared_libpq; then
  check "Depends lists libpq5 (linked shared)" has "$work/depends" '(^|, )libpq5( |,|$)'
else
  check "Depends lists libssl3 (libpq's TLS)" has "$work/depends" '(^|, )libssl3( |,|$)'
  check "Depends lists libgssapi-krb5-2 (opened when libpq calls GSSAPI)" \
    has "$work/depends" '(^|, )libgssapi-krb5-2( |,|$)'
  check "Depends lists libldap-2.5-0 (opened when libpq calls LDAP)" \
    has "$work/depends" '(^|, )libldap-2\.5-0( |,|$)'
  static_libs+=(libpq5)
fi
for lib in "${static_libs[@]}"; do
  check "Depends does not list ${lib//\\/} (linked statically)" \
    lacks "$work/depends" "(^|, )${lib}[-0-9.]*( |,|\$)"
done
# What is compiled in, by source package and exact version, as installed
# on this machine (the one that built the package; Debian 12's names)
dpkg-deb -f "$deb" Static-Built-Using >"$work/static"
devs=(libpqxx-dev libboost-program-options1.74-dev libstdc++-12-dev)
$shared_libpq || devs+=(libpq-dev postgresql-server-dev-15)
for dev in "${devs[@]}"; do
  built=$(dpkg-query -W -f '${source:Package} (= ${source:Version})' "$dev")
  check "Static-Built-Using names $built (from $dev, compiled in)" \
    grep -qF -- "$built" "$work/static"
done
if $shared_libpq; then
  check "Static-Built-Using does not name PostgreSQL (libpq is shared)" \
    lacks "$work/static" '(^|, )postgresql-15 '
fi
check "Static-Built-Using names nothing that stays shared" \
  lacks "$work/static" '(^|, )(openssl|nettle|curl|krb5|openldap) '
for field in Maintainer Section Description; do
  check "control field $field is set" test -n "$(dpkg-deb -f "$deb" "$field")"
done

dpkg -x "$deb" "$work/root"
root=$work/root
bin=$root/usr/bin/invoice-loader
check "the binary is usr/bin/invoice-loader" test -x "$bin"
readelf -d "$bin" >"$work/dynamic"
static_libs=(libstdc++ libgcc_s libpqxx libboost_program_options)
$shared_libpq || static_libs+=(libpq)
for lib in "${static_libs[@]}"; do
  check "the binary does not load $lib at run time" \
    lacks "$work/dynamic" "NEEDED.*\[$lib"
done
# (with a shared libpq, GSSAPI and LDAP come at start with libpq.so.5)
lazy_libs=(libcurl)
$shared_libpq || lazy_libs+=(libgssapi_krb5 libldap)
for lib in "${lazy_libs[@]}"; do
  check "the binary does not load $lib at start (opened on first use)" \
    lacks "$work/dynamic" "NEEDED.*\[$lib"
done
if $shared_libpq; then
  check "the binary loads libpq.so.5 at run time (shared)" \
    has "$work/dynamic" 'NEEDED.*\[libpq\.so\.5\]'
else
  check "the binary loads OpenSSL at run time (libpq's TLS, shared)" \
    has "$work/dynamic" 'NEEDED.*\[libssl\.so'
fi

rc=0; "$bin" --version >"$work/version" 2>&1 || rc=$?
check "--version exits 0" test "$rc" = 0
check "--version names invoice-loader $version" has "$work/version" "invoice-loader.* $version"

rc=0; "$bin" --help >"$work/help" 2>&1 || rc=$?
check "--help exits 0" test "$rc" = 0
for cmd in migrate 'source add' load status; do
  check "--help names the command '$cmd'" has "$work/help" "^  $cmd "
done
# load --help asks libcurl for its protocols: the library opens on demand
rc=0; "$bin" load --help >"$work/load-help" 2>&1 || rc=$?
check "load --help exits 0" test "$rc" = 0
check "load --help names libcurl's URL schemes (libcurl opened)" \
  has "$work/load-help" '^URLs: http, https.*\(libcurl/'

man_page=$root/usr/share/man/man1/invoice-loader.1.gz
check "the man page is usr/share/man/man1/invoice-loader.1.gz" test -f "$man_page"
rc=0
MANWIDTH=100 MANPAGER=cat PAGER=cat man --warnings -l "$man_page" \
  >"$work/man" 2>"$work/man.err" || rc=$?
check "man -l renders the page" test "$rc" = 0 -a -s "$work/man"
check "man -l prints no warnings" test ! -s "$work/man.err"
for section in NAME SYNOPSIS DESCRIPTION 'EXIT STATUS' FILES 'SEE ALSO'; do
  check "the man page has the section $section" has "$work/man" "^$section\$"
done
for cmd in migrate 'source add' load status; do
  check "the man page documents the command '$cmd'" has "$work/man" "Command $cmd:"
done
for code in 0 65 66 70 75 77; do
  check "the man page explains exit status $code" has "$work/man" "^ +$code([ ,]|\$)"
done
check "the man page names the package version" has "$work/man" "invoice-loader $version"

share=$root/usr/share
check "bash completion is installed" \
  test -f "$share/bash-completion/completions/invoice-loader"
if bash "$here/bash_completion.sh" "$share/bash-completion/completions/invoice-loader" \
     >"$work/completion" 2>&1; then
  ok "the installed bash completion offers the commands and options"
else
  not_ok "the installed bash completion:"; grep '^not ok' "$work/completion"
fi
for f in README.md docs/guide/recover.md docs/guide/run-nightly.md \
         docs/reference/faults.md \
         examples/systemd/invoice-loader-catch-up.service \
         examples/systemd/invoice-loader-catch-up.timer \
         examples/systemd/invoice-loader-notify.service \
         examples/systemd/env.example; do
  check "usr/share/doc/invoice-loader/$f is installed" \
    test -s "$share/doc/invoice-loader/$f"
done

# The units as systemd reads them, pointed at the unpacked binary.
if command -v systemd-analyze >/dev/null; then
  mkdir "$work/units"
  for u in invoice-loader-catch-up.service invoice-loader-catch-up.timer \
           invoice-loader-notify.service; do
    sed "s|/usr/bin/invoice-loader|$bin|" \
      "$share/doc/invoice-loader/examples/systemd/$u" >"$work/units/$u"
  done
  rc=0
  (cd "$work/units" && systemd-analyze verify --man=no ./*.service ./*.timer) \
    >"$work/verify" 2>&1 || rc=$?
  if [[ $rc == 0 && ! -s $work/verify ]]; then
    ok "systemd-analyze verify accepts the example units"
  else
    not_ok "systemd-analyze verify:"; sed 's/^/#   /' "$work/verify"
  fi
else
  echo "ok - # SKIP systemd-analyze not installed"
fi
exit "$failed"
