#!/bin/sh
# perf's multiplexing timer across the end of a pmu (review pmi-protocol
# N18). A write of a pmu's perf_event_mux_interval_ms starts that pmu's
# rotation timer on every online CPU, events or not, for one interval;
# perf_pmu_unregister() frees the CPU contexts that hold the timers without
# cancelling them (6.1 and 6.12 alike). A pmu unregistered inside the
# interval, by unload or by the unbind of its last box, would leave a
# queued timer in freed memory: the next registration initialises a timer
# there (debug objects: "init active object"), and the timer's expiry
# unlinks a node its rbtree no longer holds. The driver cancels them: the
# tests below fail the run through the kernel's report if it does not.
# timeout: 300
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

EV=/sys/bus/event_source/devices
# A long interval (ms): the timers are still queued when the pmus go.
LONG=4000

# set_intervals PMU...: each pmu's timers started, LONG ms from now.
set_intervals() {
	for p in "$@"; do
		echo $LONG >"$EV/$p/perf_event_mux_interval_ms" || return 1
	done
}

# One counted event, exact, after the pmus came back.
counts() {
	got=$(/tests/bin/uncount uncore_cbox_3 0x0835 -- \
		sh -c ". /tests/lib/lib.sh; sim_inject 'pkg=0 box=cbox idx=3 event=0x35 umask=0x08 count=777'")
	is "$got" 777 "$1: uncore_cbox_3 counts 777 of 777"
}

# Unload: every pmu goes with its timers queued; a reload allocates the
# new pmus' contexts where the old ones were, and the timers expire after.
load_modules || exit 1
# shellcheck disable=SC2046 # one word per pmu
ok "set_intervals $(cd $EV && echo uncore_*)" "every uncore pmu's mux interval set to $LONG ms"
unload_modules
load_modules || exit 1
counts "reloaded inside the interval"
sleep $((LONG / 1000 + 1))
counts "after the old timers' expiry"

# Unbind: iMC 0 channel 0's pmu goes with its last box, and comes back
# with the first; the same pmu's timers in between.
topo_init
DRV=/sys/bus/pci/drivers/uncore_pmu
imc0_init
devs=""
for p in $PKGS; do has_imc "$p" 0 && devs="$devs $(imc0_dev "$p")"; done
if [ -z "$devs" ]; then
	skip "unbind with the mux timer queued" "no iMC 0 channel 0"
else
	ok "set_intervals uncore_imc_0" "uncore_imc_0's mux interval set to $LONG ms"
	for d in $devs; do echo "$d" >$DRV/unbind; done
	ok "[ ! -e $EV/uncore_imc_0 ]" "uncore_imc_0 unregistered with its last box"
	for d in $devs; do echo "$d" >$DRV/bind; done
	ok "[ -e $EV/uncore_imc_0 ]" "uncore_imc_0 registered again"
	sleep $((LONG / 1000 + 1))
	got=$(/tests/bin/uncount uncore_imc_0 0x0304 -- \
		sh -c ". /tests/lib/lib.sh; sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x03 count=555'")
	is "$got" 555 "rebound uncore_imc_0 counts 555 of 555 after the old timers' expiry"
fi
unload_modules
