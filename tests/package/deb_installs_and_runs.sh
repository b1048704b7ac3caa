#!/usr/bin/env bash
# deb_installs_and_runs: the .deb that scripts/package.sh builds unpacks
# (dpkg -x, no installation) into a usable tree: the binary runs (--version
# names the package's version, --help the commands), the man page renders
# with man -l and documents the commands and the exit codes, the control
# file's Depends (from dpkg-shlibdeps) names the distribution's shared
# libraries the binary links (libpq5, libcurl4, libpqxx, Boost, Nettle,
# zlib, libzstd),
# `ldd` of the unpacked binary finds libpq.so.5 and libcurl.so.4 in the
# distribution's packages (libpq5, libcurl4), and the bash completion,
# docs, systemd units (/lib/systemd/system), the sysusers.d and tmpfiles.d
# entries, the OnFailure= script and the env conffile (mode 0600, listed in
# conffiles; the maintainer scripts set -e) are where the man page says;
# the copyright file and the changelog are there, lintian is clean, and
# systemd-analyze verify accepts the units.  Installing, upgrading and
# purging: deb_lifecycle.sh.
#
# Usage: tests/package/deb_installs_and_runs.sh DEB
set -euo pipefail
deb=${1:?usage: tests/package/deb_installs_and_runs.sh DEB}
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
echo "# Depends: $depends"
# dpkg-shlibdeps writes each as "name (>= version)", the version from the
# symbols the binary uses (none for a library without a symbols file)
for lib in libpq5 libcurl4 'libpqxx-6\.4' 'libboost-program-options1\.74\.0' \
           libnettle8 zlib1g libzstd1 'libstdc\+\+6'; do
  check "Depends lists ${lib//\\/} (linked shared)" \
    has "$work/depends" "(^|, )${lib}( \(>= [^)]+\))?(,|\$)"
done
check "Depends names no -dev package" lacks "$work/depends" '-dev( |,|$)'
check "no Static-Built-Using field (nothing is linked in statically)" \
  test -z "$(dpkg-deb -f "$deb" Static-Built-Using)"
for field in Maintainer Section Description; do
  check "control field $field is set" test -n "$(dpkg-deb -f "$deb" "$field")"
done

dpkg -x "$deb" "$work/root"
root=$work/root
bin=$root/usr/bin/invoice-loader
check "the binary is usr/bin/invoice-loader" test -x "$bin"
# ldd of the unpacked binary: each library from the file of the
# distribution's package, not a copy of its own
ldd "$bin" >"$work/ldd" 2>&1 || true
check "ldd resolves every library the binary needs" lacks "$work/ldd" 'not found'
for spec in libpq.so.5:libpq5 libcurl.so.4:libcurl4; do
  so=${spec%%:*} package=${spec#*:}
  path=$(awk -v so="$so" '$1 == so && $2 == "=>" { print $3 }' "$work/ldd")
  owner=
  [[ -z $path ]] || owner=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -n1) || owner=
  check "ldd: the binary loads $so from the package $package (${path:-none}; ${owner%%:*})" \
    test "${owner%%:*}" = "$package"
done

rc=0; "$bin" --version >"$work/version" 2>&1 || rc=$?
check "--version exits 0" test "$rc" = 0
check "--version names invoice-loader $version" has "$work/version" "invoice-loader.* $version"

rc=0; "$bin" --help >"$work/help" 2>&1 || rc=$?
check "--help exits 0" test "$rc" = 0
for cmd in migrate 'source add' load status; do
  check "--help names the command '$cmd'" has "$work/help" "^  $cmd "
done
# load --help asks libcurl for its protocols
rc=0; "$bin" load --help >"$work/load-help" 2>&1 || rc=$?
check "load --help exits 0" test "$rc" = 0
check "load --help names libcurl's URL schemes" \
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
# README.md and every page of docs/ (the source tree this test is in), in
# docs/'s folders
repo=$(cd "$here/../.." && pwd)
docs=(README.md)
while IFS= read -r page; do docs+=("docs/${page#"$repo/docs/"}"); done \
  < <(find "$repo/docs" -name '*.md' | sort)
for f in "${docs[@]}" examples/prometheus/invoice-loader.rules.yml; do
  check "usr/share/doc/invoice-loader/$f is installed" \
    test -s "$share/doc/invoice-loader/$f"
done
units=(invoice-loader-catch-up.service invoice-loader-catch-up.timer
       invoice-loader-notify.service invoice-loader-failure@.service)
for u in "${units[@]}"; do
  check "lib/systemd/system/$u is installed" test -s "$root/lib/systemd/system/$u"
done
check "no unit is shipped a second time (examples)" \
  test ! -e "$share/doc/invoice-loader/examples/systemd"
for f in usr/lib/sysusers.d/invoice-loader.conf usr/lib/tmpfiles.d/invoice-loader.conf; do
  check "$f is installed" test -s "$root/$f"
done
check "the sysusers.d entry creates the system user invoice-loader" \
  has "$root/usr/lib/sysusers.d/invoice-loader.conf" '^u invoice-loader - '
check "usr/lib/invoice-loader/record-unit-failure is executable" \
  test -x "$root/usr/lib/invoice-loader/record-unit-failure"
env_file=$root/etc/invoice-loader/env
check "etc/invoice-loader/env is installed, mode 0600" \
  test "$(stat -c %a "$env_file" 2>/dev/null)" = 600
dpkg-deb -e "$deb" "$work/control"
check "etc/invoice-loader/env is a conffile" \
  has "$work/control/conffiles" '^/etc/invoice-loader/env$'
for script in postinst prerm postrm; do
  check "the $script is executable and sets -e" \
    test -x "$work/control/$script" -a "$(sed -n '/^set -e$/p' "$work/control/$script")" = "set -e"
done
check "the postinst enables nothing (the timer is the administrator's step)" \
  lacks "$work/control/postinst" '^[^#]*(systemctl|deb-systemd-helper)[^#]*(enable|start)'

# Debian policy: the licence and the changelog, whose newest entry is the
# package's version; lintian (when installed) reports no error or warning.
check "usr/share/doc/invoice-loader/copyright is installed" \
  test -s "$share/doc/invoice-loader/copyright"
check "the copyright file names the PostgreSQL License" \
  has "$share/doc/invoice-loader/copyright" '^License: PostgreSQL$'
changelog=$share/doc/invoice-loader/changelog.gz
check "usr/share/doc/invoice-loader/changelog.gz is installed" test -s "$changelog"
check "the changelog's newest entry is version $version" \
  test "$(zcat "$changelog" 2>/dev/null | head -n1 | sed -n 's/^invoice-loader (\([^)]*\)).*/\1/p')" = "$version"
if command -v lintian >/dev/null; then
  lintian --tag-display-limit 0 "$deb" >"$work/lintian" 2>&1 || true
  if grep -qE '^[EW]: ' "$work/lintian"; then
    not_ok "lintian:"; grep -E '^[EW]: ' "$work/lintian" | sed 's/^/#   /'
  else
    ok "lintian reports no error or warning"
  fi
else
  echo "ok - # SKIP lintian not installed"
fi

# The units as systemd reads them, pointed at the unpacked binary.
if command -v systemd-analyze >/dev/null; then
  mkdir "$work/units"
  for u in "${units[@]}"; do
    sed -e "s|/usr/bin/invoice-loader|$bin|" \
        -e "s|/usr/lib/invoice-loader/|$root/usr/lib/invoice-loader/|" \
      "$root/lib/systemd/system/$u" >"$work/units/$u"
  done
  # The template as OnFailure= instantiates it, for verify to read.
  cp "$work/units/invoice-loader-failure@.service" \
    "$work/units/invoice-loader-failure@invoice-loader-catch-up.service.service"
  rc=0
  (cd "$work/units" && systemd-analyze verify --man=no ./*.service ./*.timer) \
    >"$work/verify" 2>&1 || rc=$?
  if [[ $rc == 0 && ! -s $work/verify ]]; then
    ok "systemd-analyze verify accepts the installed units"
  else
    not_ok "systemd-analyze verify:"; sed 's/^/#   /' "$work/verify"
  fi
else
  echo "ok - # SKIP systemd-analyze not installed"
fi
exit "$failed"
