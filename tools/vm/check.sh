#!/bin/bash
# `make check`: build everything, boot the debug test kernel (KUnit +
# integration tests) and the stock Debian kernel (integration tests) under
# QEMU, and end with one line "N passed, M failed". A step that cannot run
# (a build error, a guest that never finishes) counts as a failure, so the
# summary line is always printed and the exit status is non-zero on failure.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tools=$REPO/tools/vm

# Wall-clock limits per guest, at least twice what each takes on a quiet
# 2-core machine with the two lanes of guests running (README.md, "What
# runs where"). The KASAN/lockdep kernel
# under TCG is about 20 times slower than the stock one (boot alone takes
# ~2 min), so it gets more time, and its per-test-file limits are scaled
# up too.
STOCK_TIMEOUT=${UNCORE_STOCK_TIMEOUT:-3600}
DEBUG_TIMEOUT=${UNCORE_DEBUG_TIMEOUT:-7200}
DEBUG_SCALE=${UNCORE_DEBUG_SCALE:-10}
# Guest topologies, SOCKETS:CORE-IDS (run-qemu.sh --topo). The stock guest
# is the part as the issue describes it (2 sockets, 4 cores each). The
# debug guest keeps 2 sockets with 2 cores each: 8 TCG vCPUs on a 2-core
# host mostly wait for each other, and KASAN makes that worse. Core IDs are
# sparse, as on a real E5/E7 v4, and every package has one, core 19, that
# pmi_core_sel (cores 0-17) cannot reach: t_55 moves reading CPUs there.
STOCK_TOPO=2:0,1,2,19
# The Broadwell guests of the stock kernels load the driver with
# mainline's aliases only, as the debug guests do (common.sh): perf reads
# every PMU's events/ at start-up, one file and one parse per alias, and
# with all 6516 of them a perf run took 10-19 s in the stock guest
# against 1.6-2.2 s with the 149 of all_aliases=0 (2026-11-27, perf stat
# -e task-clock, one boot). The tests of the aliases themselves (t_85
# opens every one, t_87's uncore-top uses them) load with all_aliases=1.
STOCK_PMU_ARGS=${UNCORE_STOCK_PMU_ARGS:-all_aliases=0}
# Tests the stock guest leaves out: t_95, the fuzzer, whose Broadwell run
# debugfuzzbdx has (with KASAN and lockdep). The guests that fuzz run QEMU
# in one thread (TCG_SINGLE below), and the stock guest's timed tests
# (t_48) need a thread per vCPU.
STOCK_SKIP=${UNCORE_STOCK_SKIP:-t_95}
# The guests that run the fuzzer (t_95): QEMU runs their vCPUs in one
# thread, where its multi-threaded TCG ran stale code after the guest
# patched its text (tools/vm/run-qemu.sh --tcg-thread). The others keep a
# thread per vCPU: the debug guest took up to twice as long in one.
TCG_SINGLE=${UNCORE_TCG_SINGLE:-p4mp nhmex2 k8e debugfuzzbdx debugfuzznh debugfuzzp4 debugfuzzk8}
# Which guests to run; `UNCORE_KERNELS=stock make check` for a quick loop.
# stock4 and stock8 are the stock kernel with 4 and 8 sockets, running the
# tests in MULTI_TESTS. Only stock8 runs by default: its packages 0-3 are
# what the 4-socket guest has (every CAPID4 encoding, CBo and iMC sets,
# node IDs in the UBox map's first four fields), and 4-7 add to them.
# What more packages change is discovery (the node-ID map, CAPID4/5 per
# package) and which boxes each has: the sysfs, counting and PCI tests.
# Unbinding (t_27) and PMI routing (t_55) are per package, and the stock
# guest's two already run them.
KERNELS=${UNCORE_KERNELS:-stock stock8 stocksmt rt p4mp nhmex2 nhmex4 k8e k8f k8d refuse debug debugfuzzbdx debugfuzznh debugfuzzp4 debugfuzzk8}
MULTI_TESTS=${UNCORE_MULTI_TESTS:-t_10,t_20,t_25}
# rt: Debian's PREEMPT_RT build of the stock kernel (rt_guest()).
RT_TESTS=${UNCORE_RT_TESTS:-t_20,t_27,t_28,t_35,t_36,t_47,t_48,t_50,t_57,t_58,t_59,t_92}
# p4mp: the 64-bit Xeon MP with L3 (NetBurst), 2 sockets of one core with
# 2 threads, on the stock kernel, running tests/vm/p4mp. refuse: two short
# boots as parts the driver must not bind (tests/vm/refuse).
REFUSE_PARTS=${UNCORE_REFUSE_PARTS:-p4mp-nol3 xeon7100}
# nhmex2, nhmex4: the Xeon 7500 (Nehalem-EX) with 2 and 4 sockets, core
# IDs sparse as on parts with cores disabled, running tests/vm/nhmex; the
# 4-socket guest runs the tests in NHMEX_MULTI_TESTS (what more packages
# change: which CPU reads each, every box of every package counting).
NHMEX2_TOPO=${UNCORE_NHMEX2_TOPO:-2:0,2,5}
NHMEX4_TOPO=${UNCORE_NHMEX4_TOPO:-4:0,6}
NHMEX_MULTI_TESTS=${UNCORE_NHMEX_MULTI_TESTS:-t_10,t_20}
# k8e, k8f, k8d: the K8 (Athlon 64 / Opteron) northbridge, running
# tests/vm/k8 (tools/vm/parts.sh says what each part is). k8e, the dual-core
# rev E, runs them all; k8f, the rev F, what depends on the revision and
# the node's shape (sysfs, counting); k8d, the single-core rev D, the
# revision gating.
K8F_TESTS=${UNCORE_K8F_TESTS:-t_10,t_20}
K8D_TESTS=${UNCORE_K8D_TESTS:-t_10}
# stocksmt: 2 sockets of 2 cores of 2 threads, running the SMT test.
SMT_TOPO=smp=8,sockets=2,cores=2,threads=2
SMT_TESTS=${UNCORE_SMT_TESTS:-t_56}
# Tests the debug guest leaves out: t_85 opens each of thousands of aliases
# with perf, an ABI check the stock guests do in minutes and KASAN under TCG
# in hours; t_62 checks the CBo opcode notice and refusals (7 minutes under
# KASAN); t_46 and t_92 check throttle and sample-read bookkeeping (3
# minutes each), whose paths t_90 runs there too; t_48's sampling storm
# locks the stock guest up without the driver's time budget already, and
# under KASAN only takes longer; t_51 (a package's events parked while it
# is offline) and t_59 (an open held across a move) go through the same
# hotplug callbacks as t_50 and t_58, which run there. None exercises a
# driver path the other tests do not. t_97 (stress) repeats the hotplug,
# load, unbind and multiplexing paths t_50, t_70, t_27 and t_40 run there.
# t_25 (PCI discovery box by box, 5 minutes there) and t_64 (who may open
# what, 2 minutes) check outcomes whose paths every load and open there
# runs: the debug guest, the longest of `make check`, took over an hour
# beside the other lane with them (2026-11-27). t_95, the fuzzer, runs in
# debugfuzzbdx, which QEMU runs in one thread (TCG_SINGLE). t_87 checks
# tools/uncore-top's arithmetic, with the aliases all_aliases=0 leaves out;
# its driver path, counting under perf stat -I, is t_40's. t_10 checks
# what sysfs lists (3 minutes there): every perf run of the other files
# reads each PMU's type, cpumask, format/ and events/ under KASAN, and
# what t_10 reads besides (num_counters, counter_width) are sysfs_emit()s
# of a table's constants.
DEBUG_SKIP=${UNCORE_DEBUG_SKIP:-t_85,t_62,t_46,t_92,t_48,t_51,t_59,t_97,t_25,t_64,t_95,t_87,t_10}
# DEBUG_TOPO, DEBUG_PMU_ARGS, DEBUG_SIM_ARGS and DEBUGNH_TOPO, which the
# fuzzer's guests share with `make fuzz`, are in common.sh.
# Every perf run there costs 7 s or more, every process a shell starts
# a few hundred ms (exec, page faults and exit under KASAN and lockdep):
# the debug guest runs each driver path once rather than on every box and
# filter (tests/vm/lib.sh breadth()). 1 checks breadth there too.
DEBUG_BREADTH=${UNCORE_DEBUG_BREADTH:-0}
# `UNCORE_TESTS=t_35,t_90 make check` runs only those test files in the stock
# and debug guests (KUnit still runs in full); for iterating on one test.
ONLY=()
[ -z "${UNCORE_TESTS:-}" ] || ONLY=("uncore.tests=$UNCORE_TESTS")

passed=0 failed=0 skipped=0
fail_step() { echo "  FAIL $*"; failed=$((failed + 1)); }

# Guests run in two lanes at once (main()); UNCORE_JOBS=1 runs one at a time.
JOBS=${UNCORE_JOBS:-2}
LANE_TAG=""

# Only our markers, TAP lines and report headlines, as the guest runs;
# tagged with the guest's name ($1) when two guests run at once.
progress() {
	local tag=""
	[ -z "$LANE_TAG" ] || tag="$1| "
	sed -u 's/\r$//' | grep --line-buffered -E \
		"^(uncore-guest:|# test:|# end:|# kunit:|ok |not ok |UNCORE-GUEST-END)|^\[[ 0-9.]+\] +(not )?ok [0-9]+ |$REPORT_RE" |
		sed -u "s/^/$tag/" || true
}

# guest NAME KERNEL KVER MODDIR TIMEOUT TOPO KUNITDIR [CMDLINE...] (KUNITDIR may
# be ""; TOPO is SOCKETS:CORE-IDS or smp=SPEC for a Broadwell guest of that
# shape, or part=NAME for another part of tools/vm/parts.sh as it describes
# it, whose tests the guest then runs, or part=NAME:SOCKETS:CORE-IDS for
# that part in that shape)
guest() {
	local name=$1 kernel=$2 kver=$3 moddir=$4 limit=$5 topo=$6 kunitdir=${7:-} rc
	local shape part tcg=multi
	case " $TCG_SINGLE " in *" $name "*) tcg=single ;; esac
	topo_shape "$topo"
	shape=("${SHAPE[@]}") part=("${PART_ARG[@]}")
	shift 7
	local initrd=$BUILD/$name.cpio.gz logs=$BUILD/logs
	mkdir -p "$logs"
	"$tools/mkinitramfs.sh" "$kver" "$moddir" "$initrd" "$kunitdir" || { fail_step "$name: initramfs"; return; }
	# A TCG guest can hang in early boot (secondary CPU bring-up) when the
	# host is loaded: before /init, so before any code of ours has run. Such
	# a boot is retried; a guest that reached /init is never run again.
	local try
	for try in 1 2 3; do
		log "booting $name ($kver), limit ${limit}s, try $try"
		set +e
		"$tools/run-qemu.sh" --timeout "$limit" "${shape[@]}" --tcg-thread "$tcg" \
			--log "$logs/$name.log" --tap "$logs/$name.tap" "$kernel" "$initrd" check \
			"${part[@]}" "$@" | progress "$name"
		rc=${PIPESTATUS[0]}
		set -e
		grep -q '^uncore-guest:' "$logs/$name.log" && break
		cp "$logs/$name.log" "$logs/$name.boot-hang-$try.log"
	done
	[ "$rc" -eq 124 ] && echo "  guest $name killed after ${limit}s"
	"$tools/parse-results.sh" "$name" "$logs/$name.log" "$logs/$name.tap" "$logs/$name.counts"
	local p f s
	read -r p f s <"$logs/$name.counts"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

# build_once NAME KDIR [--kunit]: build-modules.sh, once per `make check`
# for each NAME (and KUnit step), however many guests use the build. The
# two lanes may ask for the same build at once: the second waits for the
# first, whose make would otherwise share build/NAME with its own, and
# then finds it done. A failed build is tried again by the next guest.
build_once() {
	local mark=$BUILD/logs/built-$1${3:+-kunit}
	(
		flock 8
		[ -e "$mark" ] && exit 0
		"$tools/build-modules.sh" "$@" && : >"$mark"
	) 8>"$BUILD/logs/build-$1.lock"
}

# stock_guest NAME TOPO CMDLINE...: the stock Debian kernel as guest NAME.
# The stock guest also gets uncore_pmu.ko as dkms builds it against the
# stock headers (build-dkms.sh), which t_12 loads with modprobe.
stock_guest() {
	local name=$1 topo=$2 v ko=""
	shift 2
	v=$(stock_version)
	build_once stock "/usr/src/linux-headers-$v" || { fail_step "$name: module build"; return; }
	if [ "$name" = stock ]; then
		ko=$("$tools/build-dkms.sh" "$v") || fail_step "$name: dkms build"
	fi
	UNCORE_DKMS_KO=$ko guest "$name" "/boot/vmlinuz-$v" "$v" "$BUILD/stock" "$STOCK_TIMEOUT" \
		"$topo" "" loglevel=7 "$@"
}

# rt_guest: Debian's PREEMPT_RT kernel of the stock kernel's ABI, as the
# stock guest's Broadwell-EP (2 sockets), running RT_TESTS: the paths whose
# context PREEMPT_RT changes (spinlock_t sleeps; interrupts, irq_work and
# timers not marked hard run in threads). Counting reads and the poll timer
# (t_20), groups under perf's context lock (t_47), PMIs and NMIs not ours
# (t_35, t_36), sampling by PMI and by timer, at full rate too (t_48, t_92),
# hotplug and moves (t_50, t_57, t_58, t_59), unbind (t_27, t_28); each
# path once (breadth=0). Left out: t_90, whose paths run in those and
# which alone would double the guest's time, and t_46, whose count of
# throttles in 3 s falls below its bound when the host is loaded (53 of
# 100 once; the RT guest's counts ran lower than the stock guest's).
# Documentation/uncore_pmu.rst, "PREEMPT_RT".
rt_guest() {
	local v
	v=$(rt_version) || { fail_step "rt: no PREEMPT_RT kernel (tools/setup-deps.sh)"; return; }
	build_once rt "/usr/src/linux-headers-$v" || { fail_step "rt: module build"; return; }
	# UNCORE_TESTS, if given, comes last and wins (run-guest.sh takes the
	# last uncore.tests=).
	guest rt "/boot/vmlinuz-$v" "$v" "$BUILD/rt" "$STOCK_TIMEOUT" "$STOCK_TOPO" "" loglevel=7 \
		uncore.breadth=0 "uncore.pmu_args=$STOCK_PMU_ARGS" "uncore.tests=$RT_TESTS" "${ONLY[@]}"
}

# debugnh: the Xeon 7500 on the debug kernel (KASAN, lockdep), 2 sockets
# of 2 cores: the sampling path, whose NMI reads the S-box SUMMARY through
# the simulator, and the auxiliary registers (KUnit runs in the debug
# guest). Not in the default list: it took 20 minutes (t_30 7, t_40 11),
# more than `make check`'s budget has left; `UNCORE_KERNELS=debugnh make
# check` runs it.
DEBUGNH_TESTS=${UNCORE_DEBUGNH_TESTS:-t_30,t_40}

# debugk8: the K8 northbridge on the debug kernel, every tests/vm/k8 file:
# the forwarding path (event_init handing events to the stand-in core PMU)
# and hotplug under KASAN and lockdep. Not in the default list, to keep
# `make check` in its budget; `UNCORE_KERNELS=debugk8 make check` runs it.

# debugfuzzbdx, debugfuzznh, debugfuzzp4, debugfuzzk8: the uncore fuzzer
# (t_95) alone on the debug kernel as the Broadwell (the debug guest's
# shape, boxes and aliases), the Xeon 7500 (debugnh's shape), the Xeon MP
# and the K8 rev E, for FUZZ_SECONDS: about 3 minutes each with the boot
# and the leak scans. UNCORE_FUZZ_SEED=N sets the seed (default: the
# guest's date). Documentation/fuzzing.rst.
FUZZ_SECONDS=${UNCORE_FUZZ_SECONDS:-45}
FUZZ_ARGS=("uncore.tests=t_95" "uncore.fuzz_seconds=$FUZZ_SECONDS")
[ -z "${UNCORE_FUZZ_SEED:-}" ] || FUZZ_ARGS+=("uncore.fuzz_seed=$UNCORE_FUZZ_SEED")

# debug_build NAME: for guest NAME, the debug kernel's build tree in KDIR,
# its modules built, and in DPERF the perf its guests run (build-perf.sh:
# Debian's perf costs seconds per run there in loading its libraries). A
# perf that does not build is a failure, but the guest still runs, with
# Debian's perf.
debug_build() {
	KDIR=$("$tools/build-kernel.sh") || { fail_step "$1: kernel build"; return 1; }
	build_once debug "$KDIR" || { fail_step "$1: module build"; return 1; }
	DPERF=$("$tools/build-perf.sh") || { fail_step "$1: perf build"; DPERF=""; }
}

# debug_guest NAME TOPO KUNITDIR CMDLINE...: the debug kernel as guest NAME,
# with kmemleak.
debug_guest() {
	local name=$1 topo=$2 kunit=$3
	shift 3
	debug_build "$name" || return
	UNCORE_PERF=$DPERF guest "$name" "$KDIR/arch/x86/boot/bzImage" \
		"$(cat "$KDIR/include/config/kernel.release")" "$BUILD/debug" "$DEBUG_TIMEOUT" \
		"$topo" "$kunit" loglevel=7 kmemleak=on "uncore.timeout_scale=$DEBUG_SCALE" "$@"
}

# fuzz_debug_guest NAME PART: the fuzzer alone on the debug kernel as PART,
# in the shape and with the module arguments `make fuzz` uses (fuzz_guest()).
fuzz_debug_guest() {
	fuzz_guest "$2"
	debug_guest "$1" "$FUZZ_TOPO" "" "${FUZZ_ARGS[@]}" "${FUZZ_MODARGS[@]}"
}

# A suite that does not build is a failure, but the integration tests still
# run on the debug kernel. Without kmemleak (kmemleak=off: the kernel's
# default is on), unlike the fuzzer's guests (debug_guest()): it records
# a stack trace for every allocation, and every process the tests start
# pays for it (2026-11-27, one boot each: perf stat of one event 15-17 s
# with it, 7 s without). The leak oracle runs where leaks are looked for:
# t_95 on each part, which loads, fuzzes every path (open, close,
# hotplug, unbind, parameters, overflows) and unloads, then scans;
# syzbot, too, looks for leaks in instances of their own.
check_debug() {
	local kunit=$BUILD/debug/tests/kunit
	debug_build debug || return
	build_once debug "$KDIR" --kunit || { fail_step "debug: KUnit build"; kunit=""; }
	UNCORE_PERF=$DPERF guest debug "$KDIR/arch/x86/boot/bzImage" \
		"$(cat "$KDIR/include/config/kernel.release")" "$BUILD/debug" "$DEBUG_TIMEOUT" \
		"$DEBUG_TOPO" "$kunit" loglevel=7 kmemleak=off \
		"uncore.timeout_scale=$DEBUG_SCALE" "uncore.skip=$DEBUG_SKIP" \
		"uncore.pmu_args=$DEBUG_PMU_ARGS" "uncore.sim_args=$DEBUG_SIM_ARGS" \
		"uncore.breadth=$DEBUG_BREADTH" "${ONLY[@]}"
}

# Host-side tests: the event-table generator's (tests/gen/run.sh) and
# tests/host/*.sh (uncore-top --plot, which the guests cannot run: they
# have no gnuplot). TAP lines, counted as the guests' are.
host_tests() {
	local t out p f
	for t in "$REPO/tests/gen/run.sh" "$REPO"/tests/host/*.sh; do
		out=$("$t" 2>&1) || true
		p=$(grep -c '^ok ' <<<"$out" || true)
		f=$(grep -c '^not ok ' <<<"$out" || true)
		grep '^not ok\|^#' <<<"$out" | sed 's/^/  /' || true
		echo "== host: ${t#"$REPO"/}: $p passed, $f failed"
		[ "$p" -gt 0 ] || fail_step "host: ${t#"$REPO"/} did not run"
		passed=$((passed + p)) failed=$((failed + f))
	done
}

# run_kernel K: one entry of UNCORE_KERNELS.
run_kernel() {
	local p
	case $1 in
	stock) stock_guest stock "$STOCK_TOPO" "uncore.pmu_args=$STOCK_PMU_ARGS" \
		"uncore.skip=$STOCK_SKIP" "${ONLY[@]}" ;;
	# More packages (E7 v4 goes to 8): discovery through the node-ID
	# map, CAPID4 variants and every box of every package.
	stock4 | stock8) stock_guest "$1" "${1#stock}:0,19" "uncore.pmu_args=$STOCK_PMU_ARGS" \
		"uncore.tests=$MULTI_TESTS" ;;
	# Two threads per core (the parts have Hyper-Threading): the PMI
	# names a core, and may reach the thread that does not read.
	stocksmt) stock_guest stocksmt "$SMT_TOPO" "uncore.pmu_args=$STOCK_PMU_ARGS" \
		"uncore.tests=$SMT_TESTS" ;;
	rt) rt_guest ;;
	p4mp) stock_guest p4mp part=p4mp "${ONLY[@]}" ;;
	nhmex2) stock_guest nhmex2 "part=nhmex:$NHMEX2_TOPO" "${ONLY[@]}" ;;
	nhmex4) stock_guest nhmex4 "part=nhmex:$NHMEX4_TOPO" "uncore.tests=$NHMEX_MULTI_TESTS" ;;
	k8e) stock_guest k8e part=k8e "${ONLY[@]}" ;;
	k8f) stock_guest k8f part=k8f "uncore.tests=$K8F_TESTS" ;;
	k8d) stock_guest k8d part=k8d "uncore.tests=$K8D_TESTS" ;;
	refuse) for p in $REFUSE_PARTS; do stock_guest "$p" "part=$p"; done ;;
	debug) check_debug ;;
	debugk8) debug_guest debugk8 part=k8e "" ;;
	debugfuzzbdx) fuzz_debug_guest debugfuzzbdx bdx ;;
	debugfuzznh) fuzz_debug_guest debugfuzznh nhmex ;;
	debugfuzzp4) fuzz_debug_guest debugfuzzp4 p4mp ;;
	debugfuzzk8) fuzz_debug_guest debugfuzzk8 k8e ;;
	debugnh) debug_guest debugnh "part=nhmex:$DEBUGNH_TOPO" "" "uncore.tests=$DEBUGNH_TESTS" \
		"uncore.pmu_args=$DEBUG_PMU_ARGS" ;;
	*) die "unknown kernel '$1' in UNCORE_KERNELS" ;;
	esac
}

# The guests still to run, one a line, shared by the lanes.
QUEUE=$BUILD/logs/queue
# next_guest: take the first guest off the queue and print it; nothing once
# the queue is empty.
next_guest() {
	local k
	{
		flock 9
		k=$(head -n 1 "$QUEUE")
		sed -i 1d "$QUEUE"
	} 9>"$QUEUE.lock"
	echo "$k"
}

# lane NAME: run guests from the queue, one after the other, until it is
# empty, and leave their totals in $BUILD/logs/lane-NAME.counts. Each lane
# is a subshell: the counters it adds to are its own.
lane() {
	local name=$1 k
	passed=0 failed=0 skipped=0
	while k=$(next_guest) && [ -n "$k" ]; do run_kernel "$k"; done
	echo "$passed $failed $skipped" >"$BUILD/logs/lane-$name.counts"
}

main() {
	local start=$SECONDS
	"$REPO/tools/setup-deps.sh"
	"$tools/build-helpers.sh" || fail_step "test helpers build"
	host_tests
	mkdir -p "$BUILD/logs"
	rm -f "$BUILD"/logs/lane-*.counts "$BUILD"/logs/built-*
	# A guest keeps about one host CPU busy (QEMU's vCPU threads mostly
	# wait in HLT: the tests sleep while the simulator counts), so on two
	# cores two lanes take guests from one queue, each the next one as it
	# finishes the last. The debug guest goes first: a lane builds the
	# debug kernel for it (tens of minutes with an empty cache) while the
	# other runs the stock kernel's guests; the other debug kernel guests
	# go last, when it is built, to whichever lane is free.
	# UNCORE_JOBS=1 runs them one at a time, as for timing a guest.
	local first=() rest=() late=() k l p f s lanes=1
	for k in $KERNELS; do
		case $k in
		debug) first+=("$k") ;;
		debug*) late+=("$k") ;;
		*) rest+=("$k") ;;
		esac
	done
	printf '%s\n' "${first[@]}" "${rest[@]}" "${late[@]}" | grep . >"$QUEUE" || true
	if [ "$JOBS" -gt 1 ] && [ "$(wc -l <"$QUEUE")" -gt 1 ]; then
		lanes=2 LANE_TAG=1
		lane 1 &
		lane 2 &
		wait
	else
		(lane all)
	fi
	for l in "$BUILD"/logs/lane-*.counts; do
		[ -e "$l" ] || continue
		read -r p f s <"$l"
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
		lanes=$((lanes - 1))
	done
	# A lane that died before writing its totals (set -e) is a failure.
	[ "$lanes" -eq 0 ] || fail_step "$lanes lane(s) of guests did not finish"
	log "check took $((SECONDS - start))s; logs in $BUILD/logs"
	[ "$skipped" -eq 0 ] || echo "($skipped skipped)"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

main "$@"
