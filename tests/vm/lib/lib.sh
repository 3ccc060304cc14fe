# shellcheck shell=sh
# Helpers for the guest-side tests (busybox sh). A test file sources this
# and prints one TAP line per check:
#
#	. /tests/lib/lib.sh
#	load_modules
#	ok "[ -d /sys/bus/event_source/devices/uncore_cbox_0 ]" "cbox 0 registered"
#	is "$(cat /sys/devices/uncore_cbox_0/type)" "$want" "type matches"
#	unload_modules
#
# The harness counts `ok - ...` / `not ok - ...` lines; anything else
# (e.g. `# ...` diagnostics) is free-form.

SIM_INJECT=/sys/kernel/debug/uncore_sim/inject
MODDIR=/modules

diag() { echo "# $*"; }

# ok COND DESC: COND is a shell command run with eval (`"[ -e /x ]"`,
# `"grep -q foo /proc/modules"`), or a bare integer taken as an exit status
# (0 passes), so `cmd; ok $? "cmd works"` also reads naturally.
ok() {
	if cond_holds "$1"; then
		echo "ok - $2"
	else
		echo "not ok - $2"
		return 1
	fi
}
cond_holds() {
	case $1 in
	''|*[!0-9]*) (eval "$1") >/dev/null ;;
	*) return "$1" ;;
	esac
}

# is GOT WANT DESC: exact string equality (integers are compared as written).
is() {
	if [ "$1" = "$2" ]; then
		echo "ok - $3"
	else
		echo "not ok - $3"
		echo "# got $1 want $2"
		return 1
	fi
}

# skip DESC REASON: a check that cannot run here; counted as skipped.
skip() { echo "ok - $1 # SKIP $2"; }

# breadth: true where a test checks every box and filter it can. The debug
# guest (uncore.breadth=0) runs each driver path once under KASAN and
# lockdep, where every perf run costs 7 s or more; the stock guests check the
# tables: the same paths on every box. Checks left out for that reason are
# not counted as skipped: the stock guest runs them.
breadth() { [ "${UNCORE_BREADTH:-1}" = 1 ]; }

# sim_inject LINE: hand one command to the simulator's debugfs interface.
sim_inject() {
	if ! echo "$1" >"$SIM_INJECT"; then
		diag "sim_inject failed: $1"
		return 1
	fi
}

module_loaded() { grep -q "^$1 " /proc/modules; }

# kmemleak_on: kmemleak runs (the debug kernel, unless its command line
# says kmemleak=off). Its debugfs file is there when it is off too, but
# refuses "stack=on", its default setting, with EPERM.
KMEMLEAK=/sys/kernel/debug/kmemleak
kmemleak_on() { echo stack=on 2>/dev/null >$KMEMLEAK; }

# load_modules [DRIVER PARAMS...]: simulator first (it provides the fake
# hardware the driver probes), then the driver with any module parameters.
# Extra uncore_pmu parameters come from the kernel command line's
# uncore.pmu_args=a=b,c=d (the Broadwell guests list mainline's aliases
# only: all_aliases=0; parameters given here come after, and win), and the
# simulator's from uncore.sim_args=a=1:2+b=3 (values of an array parameter
# separated by ':', parameters by '+'; the debug guest has fewer boxes).
load_modules() {
	_args=$(sed -n 's/.*uncore\.pmu_args=\([^ ]*\).*/\1/p' /proc/cmdline | tr ',' ' ')
	_sargs=$(sed -n 's/.*uncore\.sim_args=\([^ ]*\).*/\1/p' /proc/cmdline | tr '+:' ' ,')
	# shellcheck disable=SC2086 # one word per parameter
	insmod "$MODDIR/uncore_sim.ko" $_sargs || { diag "insmod uncore_sim failed"; return 1; }
	# shellcheck disable=SC2086 # one word per parameter
	insmod "$MODDIR/uncore_pmu.ko" $_args "$@" || { diag "insmod uncore_pmu failed"; return 1; }
}

# unload_modules: reverse order; a module that is not loaded is not an error.
unload_modules() {
	rc=0
	for m in uncore_pmu uncore_sim; do
		module_loaded "$m" || continue
		rmmod "$m" || { diag "rmmod $m failed"; rc=1; }
	done
	return $rc
}

# A test that provokes a kernel report on purpose brackets it with these, so
# the host does not count the report as a failure. The markers go through
# /dev/kmsg to stay in order with the kernel's own messages.
expect_kernel_report_begin() { echo "uncore-test: expect-report begin" >/dev/kmsg; }
expect_kernel_report_end() { echo "uncore-test: expect-report end" >/dev/kmsg; }
