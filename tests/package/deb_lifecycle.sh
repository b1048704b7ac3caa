#!/usr/bin/env bash
# deb_lifecycle: the .deb installs, upgrades, is removed and purged as
# Debian policy asks, its maintainer scripts included, in throwaway roots
# (dpkg --root DIR --force-script-chrootless: the scripts run on this
# machine with DPKG_ROOT=DIR and must touch nothing outside it).
#   upgrade  (with PREVIOUS_DEB, the previous release's .deb; see
#            previous_release_deb.sh): the previous release installed, an
#            env file written by hand as its documentation said, then DEB:
#            that file kept (--force-confold, the answer an administrator
#            gives dpkg's question), the units and the sysusers.d entry in
#            place; an edit of the conffile survives reinstalling DEB.
#   install  DEB into an empty root: the files in place, the env conffile
#            registered, mode 0600 root; the user and group invoice-loader
#            in DIR/etc/passwd and DIR/etc/group (systemd-sysusers --root)
#            and its home (systemd-tmpfiles --root); nothing enabled;
#            systemd-analyze verify accepts the installed units;
#            `systemctl --root DIR enable --now`'s offline half enables the
#            timer (the documentation's second step).
#   remove   the conffile kept, the binary and units gone (config-files).
#   purge    the conffile, /etc/invoice-loader, the cache
#            /var/cache/invoice-loader and the timer's enable link gone;
#            dpkg says not-installed.
# Every check prints ok/not ok; exits 1 when any failed.
#
# Usage: tests/package/deb_lifecycle.sh DEB [PREVIOUS_DEB]
set -euo pipefail
deb=${1:?usage: tests/package/deb_lifecycle.sh DEB [PREVIOUS_DEB]}
previous=${2:-}

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

[[ -f $deb ]] || { echo "not ok - $deb does not exist"; exit 1; }
version=$(dpkg-deb -f "$deb" Version)

new_root() { # new_root NAME: an empty root with dpkg's database, echoes it
  local root=$work/$1
  mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/etc"
  : >"$root/var/lib/dpkg/status"
  : >"$root/var/lib/dpkg/available"
  echo "$root"
}
# dpkg on ROOT.  --force-depends: the throwaway root has none of the
# package's dependencies (libpq5, libcurl4, adduser, ...) installed, and
# installing them there would test Debian's packages, not this one.
# --force-not-root: so that it also runs as a user who owns the root.
in_root() { # in_root ROOT DPKG-ARGS...
  local root=$1; shift
  dpkg --root="$root" --admindir="$root/var/lib/dpkg" --log=/dev/null \
    --force-script-chrootless --force-not-root --force-depends "$@" \
    </dev/null >>"$work/dpkg.log" 2>&1
}
run_dpkg() { # run_dpkg DESCRIPTION ROOT DPKG-ARGS...
  local what=$1; shift
  if in_root "$@"; then ok "$what"; else
    not_ok "$what:"; tail -n 20 "$work/dpkg.log" | sed 's/^/#   /'
  fi
}
# shellcheck disable=SC2317  # called through status_is
status_of() { # status_of ROOT: "<status> <version>", or not-installed
  dpkg-query --admindir="$1/var/lib/dpkg" -W -f='${db:Status-Status} ${Version}' \
    invoice-loader 2>/dev/null || echo not-installed
}
# shellcheck disable=SC2317  # called through check
status_is() { # status_is ROOT EXPECTED
  local got; got=$(status_of "$1")
  [[ $got == "$2" || ($2 == not-installed && $got == "not-installed "*) ]] ||
    { echo "#   dpkg says: $got"; return 1; }
}
units=(invoice-loader-catch-up.service invoice-loader-catch-up.timer
       invoice-loader-notify.service invoice-loader-failure@.service)
env_rel=etc/invoice-loader/env
# shellcheck disable=SC2317  # called through check
units_present() { local u; for u in "${units[@]}"; do test -s "$1/lib/systemd/system/$u" || return 1; done; }

# --- upgrade from the previous release --------------------------------
if [[ -n $previous ]]; then
  old_version=$(dpkg-deb -f "$previous" Version)
  root=$(new_root upgrade)
  run_dpkg "install the previous release $old_version" "$root" -i "$previous"
  check "dpkg says $old_version is installed" status_is "$root" "installed $old_version"
  # Its documentation had the administrator write the env file by hand.
  mkdir -p "$root/etc/invoice-loader"
  printf 'PGDATABASE=edited-by-hand\nINVOICE_LOADER_SOURCE=acme-erp\n' >"$root/$env_rel"
  run_dpkg "upgrade to $version (--force-confold)" "$root" --force-confold -i "$deb"
  check "dpkg says $version is installed" status_is "$root" "installed $version"
  check "the env file written by hand is kept" has "$root/$env_rel" '^PGDATABASE=edited-by-hand$'
  check "the units are in lib/systemd/system" units_present "$root"
  check "the sysusers.d entry is in place" test -s "$root/usr/lib/sysusers.d/invoice-loader.conf"
  echo 'PGPORT=5433' >>"$root/$env_rel"
  run_dpkg "reinstall $version over an edited conffile (no --force-conf*)" "$root" -i "$deb"
  check "the edited conffile is kept" has "$root/$env_rel" '^PGPORT=5433$'
else
  echo "ok - # SKIP upgrade: no PREVIOUS_DEB given"
fi

# --- fresh install, remove, purge ----------------------------------------
root=$(new_root fresh)
run_dpkg "install $version into an empty root" "$root" -i "$deb"
check "dpkg says $version is installed" status_is "$root" "installed $version"
check "the binary is usr/bin/invoice-loader" test -x "$root/usr/bin/invoice-loader"
check "the units are in lib/systemd/system" units_present "$root"
for f in usr/lib/sysusers.d/invoice-loader.conf usr/lib/tmpfiles.d/invoice-loader.conf; do
  check "$f is in place" test -s "$root/$f"
done
check "usr/lib/invoice-loader/record-unit-failure is executable" \
  test -x "$root/usr/lib/invoice-loader/record-unit-failure"
check "$env_rel is in place, mode 0600, owner root" \
  test "$(stat -c '%a %u' "$root/$env_rel" 2>/dev/null)" = "600 0"
check "$env_rel is registered as a conffile" \
  test -n "$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Conffiles}' invoice-loader |
    awk '$1 == "/etc/invoice-loader/env"')"
if command -v systemd-sysusers >/dev/null; then
  check "the postinst created the user invoice-loader (DPKG_ROOT/etc/passwd)" \
    has "$root/etc/passwd" '^invoice-loader:x:[0-9]+:[0-9]+:[^:]*:/var/lib/invoice-loader:/usr/sbin/nologin$'
  check "and the group invoice-loader" has "$root/etc/group" '^invoice-loader:x:[0-9]+:'
  uid=$(awk -F: '$1 == "invoice-loader" { print $3 }' "$root/etc/passwd")
  check "its home var/lib/invoice-loader is its, mode 0750" \
    test "$(stat -c '%a %u' "$root/var/lib/invoice-loader" 2>/dev/null)" = "750 ${uid:-none}"
  check "the host has no user invoice-loader (nothing left the root)" \
    test -z "$(awk -F: '$1 == "invoice-loader"' /etc/passwd)"
else
  echo "ok - # SKIP systemd-sysusers not installed"
fi
check "nothing is enabled on install" \
  test -z "$(find "$root/etc" -path '*/systemd/system/*.wants/invoice-loader*' 2>/dev/null)"

if command -v systemd-analyze >/dev/null; then
  # The installed units as systemd reads them, pointed at the root's files
  # (verify checks that ExecStart= exists).
  mkdir "$work/units"
  for u in "${units[@]}"; do
    sed -e "s|/usr/bin/invoice-loader|$root/usr/bin/invoice-loader|" \
        -e "s|/usr/lib/invoice-loader/|$root/usr/lib/invoice-loader/|" \
      "$root/lib/systemd/system/$u" >"$work/units/$u"
  done
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
timer_link=$root/etc/systemd/system/timers.target.wants/invoice-loader-catch-up.timer
if command -v systemctl >/dev/null; then
  check "systemctl --root enable invoice-loader-catch-up.timer (step 2, offline)" \
    systemctl --root="$root" --quiet enable invoice-loader-catch-up.timer
  check "the timer is enabled (timers.target.wants)" test -L "$timer_link"
else
  echo "ok - # SKIP systemctl not installed"
fi
# What the units would have made: the spool (CacheDirectory=).
mkdir -p "$root/var/cache/invoice-loader/spool"
echo 'a spooled feed file' >"$root/var/cache/invoice-loader/spool/2026-11-30.csv"
echo 'PGDATABASE=edited' >>"$root/$env_rel"

run_dpkg "remove" "$root" -r invoice-loader
check "dpkg says config-files" status_is "$root" "config-files $version"
check "the edited conffile is kept" has "$root/$env_rel" '^PGDATABASE=edited$'
check "the binary is gone" test ! -e "$root/usr/bin/invoice-loader"
check "the units are gone" test ! -e "$root/lib/systemd/system/invoice-loader-catch-up.service"

run_dpkg "purge" "$root" -P invoice-loader
check "dpkg says not-installed" status_is "$root" not-installed
check "the conffile is gone" test ! -e "$root/$env_rel"
check "etc/invoice-loader is gone" test ! -e "$root/etc/invoice-loader"
check "the cache var/cache/invoice-loader is gone" test ! -e "$root/var/cache/invoice-loader"
check "the timer's enable link is gone" test ! -L "$timer_link"
exit "$failed"
