#!/bin/sh
# run-guest.sh MODE: what the guest does once /init has mounted everything,
# for the part uncore.part= names (tools/vm/parts.tsv, copied to
# /tests/parts.tsv), whose tests are in the folders its row lists
# (/tests/bdx and /tests/common for the Broadwell).
#   check: (debug kernel) load every KUnit module, which prints its KTAP on
#          the console, then run the t_*.sh files of the part's folders in
#          number order.
#   demo:  load the simulator and the driver, then run the part's demo.sh.
#   bench: the same, then the part's bench.sh (register accesses per
#          operation).
#   sampling: the same, then its bench_sample.sh (perf record throughput).
#   load:  its bench_load.sh (load time and memory; it loads the modules).
#   startup: common/bench_startup.sh (perf's start-up with the driver's
#          aliases; it loads the modules).
# Test output is TAP on stdout; the host parses it (tools/vm/parse-results.sh).
set -u
# shellcheck source=lib.sh
. /tests/lib/lib.sh

# Per-file limit; a file may raise it with a `# timeout: SECS` line. The
# host scales all limits for slow kernels (uncore.timeout_scale=N on the
# command line: the KASAN/lockdep kernel under TCG is ~20x slower); tests
# see the factor as UNCORE_TIMEOUT_SCALE, e.g. to do fewer rounds.
DEFAULT_TIMEOUT=300
scale=$(sed -n 's/.*uncore\.timeout_scale=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
export UNCORE_TIMEOUT_SCALE="${scale:-1}"
# uncore.breadth=0 (the debug guest): each driver path once, not every box
# and filter (lib.sh breadth()).
breadth=$(sed -n 's/.*uncore\.breadth=\([01]\).*/\1/p' /proc/cmdline)
export UNCORE_BREADTH="${breadth:-1}"

# Markers in the kernel log let the host attribute kernel reports to a test.
kmsg() { echo "uncore-test: $*" >/dev/kmsg 2>/dev/null || true; }

run_kunit() {
	for ko in /kunit/*.ko; do
		[ -e "$ko" ] || continue
		m=$(basename "$ko" .ko)
		echo "# kunit: $m"
		kmsg "begin $m"
		# modprobe, not insmod: a suite may use symbols of uncore_pmu.ko,
		# and modules.dep (built on the host) knows that.
		modprobe "$m" || echo "not ok - load KUnit module $m"
		modprobe -r "$m" || echo "not ok - unload KUnit module $m"
		kmsg "end $m"
	done
	unload_modules >/dev/null 2>&1
}

file_timeout() {
	t=$(sed -n 's/^# timeout: *\([0-9][0-9]*\).*/\1/p' "$1" | head -n1)
	echo $((${t:-$DEFAULT_TIMEOUT} * UNCORE_TIMEOUT_SCALE))
}

# run_limited SECS FILE: run FILE, killing it and everything it started
# after SECS. busybox timeout would kill only the shell: a leftover child
# (perf, sleep) would keep the output pipe open and the run hanging.
run_limited() {
	setsid sh "$2" 2>&1 &
	pid=$!
	(sleep "$1"; kill -TERM -- "-$pid"; sleep 2; kill -KILL -- "-$pid") >/dev/null 2>&1 &
	watcher=$!
	wait "$pid"
	rc=$?
	kill "$watcher" 2>/dev/null
	return $rc
}

# run_test FILE: run one test file with a time limit, and turn an abnormal
# end (timeout, crash, no result at all) into a failing TAP line.
run_test() {
	name=$(basename "$1")
	limit=$(file_timeout "$1")
	echo "# test: $name"
	kmsg "begin $name"
	rm -f "$KMEMLEAK_DONE"
	start=$(date +%s)
	run_limited "$limit" "$1" | tee /tmp/out
	rc=$?
	took=$(($(date +%s) - start))
	if [ "$took" -ge "$limit" ]; then
		echo "not ok - $name timed out after ${limit}s"
	elif [ "$rc" -ne 0 ] && ! grep -q '^not ok' /tmp/out; then
		echo "not ok - $name exited with status $rc"
		# What it said last (a shell error, usually) as diagnostics.
		grep -v '^\(not \)\{0,1\}ok\|^#' /tmp/out | tail -n 5 | sed 's/^/# /'
	elif ! grep -q '^\(not \)\{0,1\}ok' /tmp/out; then
		echo "not ok - $name reported no results"
	fi
	# A failed test may leave the driver loaded; do not let it spill over.
	if module_loaded uncore_pmu || module_loaded uncore_sim; then
		diag "$name left modules loaded; unloading"
		unload_modules
	fi
	kmsg "end $name"
	echo "# end: $name (${took}s)"
}

# kmemleak reports objects unreferenced for 5 s in two scans; clear what
# boot left behind first so only our leaks remain. Absent on the stock
# kernel; on the debug kernel, on only where the command line says
# kmemleak=on (check.sh). A test that unloads the modules and scans for
# itself (t_95) leaves KMEMLEAK_DONE; when it was the last, a second pair
# of scans (a minute under TCG) would find the same.
export KMEMLEAK_DONE=/tmp/kmemleak-scanned
kmemleak_clear() { kmemleak_on && echo clear >$KMEMLEAK; }
kmemleak_report() {
	kmemleak_on || return 0
	if [ -e $KMEMLEAK_DONE ]; then
		echo "# kmemleak: the last test scanned after unloading the modules"
		return 0
	fi
	sleep 6
	echo scan >$KMEMLEAK
	echo scan >$KMEMLEAK
	cat $KMEMLEAK
}

# part_dirs: the folders of the part's tests, the first its own (demo.sh,
# bench scripts), from its row of /tests/parts.tsv.
part_dirs() {
	part=$(sed -n 's/.*uncore\.part=\([a-z0-9-]*\).*/\1/p' /proc/cmdline)
	awk -F'\t' -v p="${part:-bdx}" '!/^#/ && $1 == p {
		n = split($5, d, ",")
		for (i = 1; i <= n; i++)
			print "/tests/" d[i]
	}' /tests/parts.tsv
}
part_dir() { part_dirs | head -n 1; }

# part_tests: the t_*.sh files of the part's folders, in number order
# across them (a number names one file among them: tests/host/layout.sh).
part_tests() {
	for d in $(part_dirs); do
		for t in "$d"/t_*.sh; do
			[ -e "$t" ] && echo "${t##*/} $t"
		done
	done | sort | cut -d' ' -f2
}

check() {
	# busybox ash has pipefail: the status of a test is that of timeout, not tee.
	# shellcheck disable=SC3040
	set -o pipefail
	# kmemleak slows every process a test starts (it records a stack
	# trace per allocation), and the debug kernel has it on unless told
	# otherwise: a guest that runs with it must have asked.
	want=off have=off
	grep -q 'kmemleak=on' /proc/cmdline && want=on
	kmemleak_on && have=on
	is "$have" "$want" "kmemleak is $want, as the kernel command line asks"
	kmemleak_clear
	run_kunit
	# uncore.tests=t_10,t_25 (kernel command line) runs only those tests,
	# uncore.skip=t_85 all but those.
	only=$(sed -n 's/.*uncore\.tests=\([^ ]*\).*/\1/p' /proc/cmdline)
	skip=$(sed -n 's/.*uncore\.skip=\([^ ]*\).*/\1/p' /proc/cmdline)
	for t in $(part_tests); do
		n=${t##*/}
		pre=${n%"${n#????}"}	# "t_25" of "t_25_pci.sh"
		if [ -n "$only" ]; then
			case ",$only," in *",$pre,"*) ;; *) continue ;; esac
		fi
		case ",$skip," in *",$pre,"*) echo "# skipped here: $n"; continue ;; esac
		run_test "$t"
	done
	kmemleak_report
}

demo() {
	load_modules || return 1
	sh "$(part_dir)/demo.sh"
}

# QEMU 7.2's multi-threaded TCG can keep a stale translation of kernel text
# the kernel is patching: a vCPU that translates a block while text_poke_bp()
# has its int3 in place, and links the block after the final write has
# invalidated the page's blocks, runs that int3 ever after. The kernel then
# dies ("Oops: int3" at __schedule+0x407 in the idle task, 6.12 guests).
# perf patches the scheduler each time the first task event opens and after
# the last one closes (the static key perf_sched_events): a task event held
# open for the guest's life keeps the key on, so perf runs do not patch
# kernel text, and the one patch, as it opens, is made with the other CPUs
# offline, so that no other vCPU is translating (2026-12-02: a guest that
# flipped the key in a loop with every CPU online died in its first 30 s
# in one of two tries; 100 loops of offline, flip twice, online did not; the
# CI run of 7d6e362 lost nhmex4-6.12 to it at boot, in this very flip).
#
# Its event must be open before anything loads or unloads a module: on
# 6.1, perf_pmu_unregister() waits for pmus_srcu's readers with pmus_lock
# held, and perf_event_open() of a software event (this dummy) takes
# pmus_lock inside a pmus_srcu read section: an rmmod at that moment
# deadlocks both (seen: make demo PART=nhmex, whose demo reloads the
# driver; uncore_pmu.rst, "Kernel series"). perf stat starts its workload
# once the events are open, so the workload's marker says it is.
#
# QEMU numbers a core's threads next to each other: offlining in
# descending order breaks CPU 0's SMT pair last and onlining in ascending
# order makes it first, so the scheduler's own static key
# (sched_smt_present) flips with only CPU 0 and its sibling up.
secondary_cpus() {
	for _c in /sys/devices/system/cpu/cpu[1-9]*; do
		[ -e "$_c/online" ] && [ "$(cat "$_c/online")" = 1 ] && echo "${_c##*/cpu}"
	done | sort -n
}

hold_sched_key() {
	_cpus=$(secondary_cpus)
	for _c in $(echo "$_cpus" | sort -rn); do
		echo 0 >"/sys/devices/system/cpu/cpu$_c/online" ||
			echo "# could not offline CPU $_c before flipping perf_sched_events"
	done
	rm -f /tmp/sched-key-held
	perf stat -e dummy -o /dev/null -- \
		sh -c ': >/tmp/sched-key-held; exec sleep 2147483647' </dev/null >/dev/null 2>&1 &
	_i=0
	while [ ! -e /tmp/sched-key-held ] && [ $_i -lt 600 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -e /tmp/sched-key-held ] || echo "# perf_sched_events holder did not start in 60 s"
	for _c in $_cpus; do
		echo 1 >"/sys/devices/system/cpu/cpu$_c/online" ||
			echo "not ok - CPU $_c back online after perf_sched_events flipped"
	done
}

hold_sched_key
case ${1:-} in
check) check ;;
demo) demo ;;
bench) load_modules && sh "$(part_dir)/bench.sh" ;;
sampling) load_modules && sh "$(part_dir)/bench_sample.sh" ;;
load) sh "$(part_dir)/bench_load.sh" ;;
startup) sh /tests/common/bench_startup.sh ;;
*) echo "usage: $0 check|demo|bench|sampling|load|startup" >&2; exit 2 ;;
esac
