# shellcheck shell=bash disable=SC2034 # variables are for the sourcing scripts
# Shared helpers for the host-side harness scripts (sourced, not run).

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${UNCORE_BUILD:-$REPO/build}

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
die() { echo "${0##*/}: $*" >&2; exit 1; }

# The stock Debian kernel: the newest 6.1.0-*-amd64 that has both an image
# in /boot and a headers tree (the version moves with point releases, so it
# is never hard-coded).
stock_version() {
	local v best=
	for v in $(find /boot -maxdepth 1 -name 'vmlinuz-6.1.0-*-amd64' -printf '%f\n' |
		sed 's/^vmlinuz-//' | sort -V); do
		[ -f "/usr/src/linux-headers-$v/Makefile" ] && best=$v
	done
	[ -n "$best" ] || die "no /boot/vmlinuz-6.1.0-*-amd64 with matching headers"
	echo "$best"
}

# Kernel problem reports (headlines) that fail a run; see parse-results.sh.
REPORT_RE='WARNING:|BUG:|KASAN:|UBSAN:|possible circular locking|INFO: task .* blocked|INFO: rcu|rcu: .*detected stalls|Oops|general protection fault|Kernel panic|kmemleak: [0-9]+ new suspected|Call Trace:'
