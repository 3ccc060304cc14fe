# shellcheck shell=bash disable=SC2034 # variables are for the sourcing scripts
# Shared helpers for the host-side harness scripts (sourced, not run).

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${UNCORE_BUILD:-$REPO/build}

# The kernel series of the debug (KASAN/lockdep) test kernel, which
# build-kernel.sh builds from Debian's linux-source-SERIES, and of the
# static perf build-perf.sh builds from the same source for every guest of
# that series. Documentation/testing.rst, "What runs where", says why.
DEBUG_SERIES=6.12

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
die() { echo "${0##*/}: $*" >&2; exit 1; }

# series_re SERIES FLAVOUR: the regular expression of Debian's kernel
# releases of SERIES (6.1: 6.1.0-N-FLAVOUR, the ABI number N moving with
# point releases; later series: 6.12.N+debN-FLAVOUR), the flavour exactly:
# "amd64" must not pick up -rt-amd64 or -cloud-amd64.
series_re() {
	case $1 in
	6.1) echo "6\.1\.0-[0-9]+-$2" ;;
	*) echo "${1//./\\.}\.[0-9]+\+deb[0-9]+-$2" ;;
	esac
}

# newest_headers SERIES FLAVOUR: the newest Debian headers tree of SERIES
# and FLAVOUR (amd64 or rt-amd64), or a non-zero status if none.
newest_headers() {
	find /usr/src -maxdepth 1 -regextype posix-extended \
		-regex "/usr/src/linux-headers-$(series_re "$1" "$2")" -printf '%f\n' |
		sed 's/^linux-headers-//' | sort -V | tail -n1 | grep .
}

# kernel_series KERNEL: the series of a guest's kernel (guests.tsv's
# kernel column): 6.1 of 6.1 and 6.1-rt, DEBUG_SERIES of debug.
kernel_series() {
	case $1 in
	debug) echo "$DEBUG_SERIES" ;;
	*) echo "${1%-rt}" ;;
	esac
}

# kernel_version KERNEL: for KERNEL SERIES or SERIES-rt (Debian's kernel
# of that series, stock or PREEMPT_RT), the newest release that has both
# an image in /boot and a headers tree, or a non-zero status if none.
kernel_version() {
	local series=${1%-rt} flavour=amd64 v best=
	[ "$series" = "$1" ] || flavour=rt-amd64
	for v in $(find /boot -maxdepth 1 -regextype posix-extended \
		-regex "/boot/vmlinuz-$(series_re "$series" "$flavour")" -printf '%f\n' |
		sed 's/^vmlinuz-//' | sort -V); do
		[ -f "/usr/src/linux-headers-$v/Makefile" ] && best=$v
	done
	[ -n "$best" ] && echo "$best"
}

# The stock Debian 12 kernel (6.1), which make demo, bench and soak boot.
stock_version() {
	kernel_version 6.1 || die "no /boot/vmlinuz-6.1.0-*-amd64 with matching headers"
}

# Kernel problem reports (headlines) that fail a run; see parse-results.sh.
# "BUG:" takes in the reports of sleeping in atomic context ("sleeping
# function called from invalid context", "scheduling while atomic", the
# latter all PREEMPT_RT's kernel without DEBUG_ATOMIC_SLEEP can say) and
# lockdep's "Invalid wait context"; "kernel BUG at" is BUG(), which
# Debian's kernels call on list corruption (BUG_ON_DATA_CORRUPTION). An
# unknown NMI is a PMI no handler claimed: the simulator leaves the claim
# to the driver, as the part would (Documentation/simulator.rst).
REPORT_RE='NMI received for unknown reason|WARNING:|BUG:|kernel BUG at|KASAN:|UBSAN:|possible circular locking|INFO: task .* blocked|INFO: rcu|rcu: .*detected stalls|Oops|general protection fault|Kernel panic|kmemleak: [0-9]+ new suspected|Call Trace:'
