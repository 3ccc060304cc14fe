#!/bin/sh
# Bad input through perf_event_open directly (tests/vm/bin/badinput.c): every
# reserved bit, out-of-range filter values, per-task, exclude bits,
# sampling, a box absent on the package, unschedulable groups. None of it
# may touch a register.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
# A CBo present on package 0 only, and a CPU of the other package.
only0=""
n=0
while [ $n -lt 24 ]; do
	if has_cbo 0 $n && ! has_cbo 1 $n; then only0=uncore_cbox_$n; break; fi
	n=$((n + 1))
done

before=$(grep -v '^#' /sys/kernel/debug/uncore_pmu/access | awk '{ s += $3 + $4 } END { print s }')
/tests/bin/badinput "$only0" "$(first_cpu 1)"
after=$(grep -v '^#' /sys/kernel/debug/uncore_pmu/access | awk '{ s += $3 + $4 } END { print s }')
# badinput opens every event disabled, so even accepted ones never reach
# add(): validation alone must not have touched a register.
is "$after" "$before" "no register access from opening and refusing events"
is "$(sim_violations)" 0 "no reserved-bit writes or BOX_CTL protocol violations"

unload_modules
