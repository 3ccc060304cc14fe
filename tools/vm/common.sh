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

# The debug guests' Broadwell (check.sh): 2 sockets of 2 cores. perf reads
# every alias file at startup: with all 6516 of them a perf run takes
# minutes under KASAN and TCG, so the debug guests list mainline's aliases
# only (as the stock kernels' do, except in the tests of the aliases:
# check.sh STOCK_PMU_ARGS). For the same reason the
# Broadwell's simulated packages have fewer boxes: CBos 0 and 3 on package
# 0, 3 and 4 on package 1 (CAPID5), iMC channels 0-2 and 0-1, which are the
# boxes its tests name. Values are separated by ':', parameters by '+'
# (tests/vm/lib.sh load_modules()). The Xeon 7500's debug guests: 2
# sockets of 2 cores.
DEBUG_TOPO=${UNCORE_DEBUG_TOPO:-2:0,19}
DEBUG_PMU_ARGS=${UNCORE_DEBUG_PMU_ARGS:-all_aliases=0}
DEBUG_SIM_ARGS=${UNCORE_DEBUG_SIM_ARGS:-capid5=0x9:0x18+imc_mask=0x7:0x3}
DEBUGNH_TOPO=${UNCORE_DEBUGNH_TOPO:-2:0,5}

# fuzz_guest PART: the fuzzer's guest for PART, the same for check.sh's
# debugfuzz guests and `make fuzz`: FUZZ_TOPO, a shape as topo_shape()
# takes it, and FUZZ_MODARGS, the modules' arguments. The Broadwell and
# the Xeon 7500 as the debug guests have them; the Xeon MP and the K8 rev E
# as the stock guests, with every alias: the K8's table refuses nearly
# every config drawn from its format alone (without its aliases, `make
# fuzz` opened 14 events in 30 minutes).
fuzz_guest() {
	case $1 in
	bdx) FUZZ_TOPO=$DEBUG_TOPO FUZZ_MODARGS=("uncore.pmu_args=$DEBUG_PMU_ARGS" "uncore.sim_args=$DEBUG_SIM_ARGS") ;;
	nhmex) FUZZ_TOPO=part=nhmex:$DEBUGNH_TOPO FUZZ_MODARGS=("uncore.pmu_args=$DEBUG_PMU_ARGS") ;;
	p4mp | k8e) FUZZ_TOPO=part=$1 FUZZ_MODARGS=() ;;
	*) die "PART=$1: the fuzzer runs on bdx, nhmex, p4mp or k8e" ;;
	esac
}

# topo_shape SPEC: run-qemu.sh's shape options (SHAPE) and the guest's
# uncore.part= argument (PART_ARG, none for the Broadwell) for SPEC:
# SOCKETS:CORE-IDS or smp=SPEC for a Broadwell of that shape, part=NAME for
# a part of parts.sh as it describes it, part=NAME:SOCKETS:CORE-IDS for
# that part in that shape.
topo_shape() {
	local p
	SHAPE=(--topo "$1") PART_ARG=()
	case $1 in
	smp=*) SHAPE=(--smp "${1#smp=}") ;;
	part=*:*)
		p=${1#part=}
		SHAPE=(--part "${p%%:*}" --topo "${p#*:}") PART_ARG=("uncore.part=${p%%:*}")
		;;
	part=*) SHAPE=(--part "${1#part=}") PART_ARG=("uncore.part=${1#part=}") ;;
	esac
}
