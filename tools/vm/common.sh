# shellcheck shell=bash disable=SC2034 # variables are for the sourcing scripts
# Shared helpers for the host-side harness scripts (sourced, not run).

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${UNCORE_BUILD:-$REPO/build}

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
die() { echo "${0##*/}: $*" >&2; exit 1; }

# newest_kernel FLAVOUR: the newest Debian 6.1.0-N-FLAVOUR kernel that has
# both an image in /boot and a headers tree (the ABI number N moves with
# point releases, so it is never hard-coded). The pattern names the flavour
# exactly: "amd64" must not pick up 6.1.0-N-rt-amd64 or -cloud-amd64.
newest_kernel() {
	local v best=
	for v in $(find /boot -maxdepth 1 -regextype posix-extended \
		-regex "/boot/vmlinuz-6\.1\.0-[0-9]+-$1" -printf '%f\n' |
		sed 's/^vmlinuz-//' | sort -V); do
		[ -f "/usr/src/linux-headers-$v/Makefile" ] && best=$v
	done
	[ -n "$best" ] || die "no /boot/vmlinuz-6.1.0-*-$1 with matching headers"
	echo "$best"
}

# newest_headers SERIES FLAVOUR: the newest Debian headers tree of kernel
# series SERIES (6.1: 6.1.0-N-FLAVOUR; 6.12: 6.12.N+debN-FLAVOUR), the
# flavour exactly (amd64 or rt-amd64), or a non-zero status if none.
newest_headers() {
	local re
	case $1 in
	6.1) re="6\.1\.0-[0-9]+-$2" ;;
	*) re="${1//./\\.}\.[0-9]+\+deb[0-9]+-$2" ;;
	esac
	find /usr/src -maxdepth 1 -regextype posix-extended \
		-regex "/usr/src/linux-headers-$re" -printf '%f\n' |
		sed 's/^linux-headers-//' | sort -V | tail -n1 | grep .
}

# The stock Debian kernel, and its PREEMPT_RT build (tools/setup-deps.sh
# installs the one of the stock kernel's ABI).
stock_version() { newest_kernel amd64; }
rt_version() { newest_kernel rt-amd64; }

# Kernel problem reports (headlines) that fail a run; see parse-results.sh.
# "BUG:" takes in the reports of sleeping in atomic context ("sleeping
# function called from invalid context", "scheduling while atomic", the
# latter all PREEMPT_RT's kernel without DEBUG_ATOMIC_SLEEP can say) and
# lockdep's "Invalid wait context"; "kernel BUG at" is BUG(), which
# Debian's kernels call on list corruption (BUG_ON_DATA_CORRUPTION).
REPORT_RE='WARNING:|BUG:|kernel BUG at|KASAN:|UBSAN:|possible circular locking|INFO: task .* blocked|INFO: rcu|rcu: .*detected stalls|Oops|general protection fault|Kernel panic|kmemleak: [0-9]+ new suspected|Call Trace:'
