#!/bin/sh
# Load and unload 50 times (10 on the debug kernel), counting each time
# (with tests/vm/bin/uncount.c: perf's start-up would dominate the loop);
# unload is refused while an event is open; the simulator cannot go while
# the driver holds it. Leaks are caught by kmemleak at the end of the run
# (debug kernel).
# timeout: 600
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

# Fewer rounds on a slow (debug) kernel: kmemleak and KASAN find a leak or
# a use after free of one round as well in 10 rounds as in 50.
rounds=$((UNCORE_TIMEOUT_SCALE > 1 ? 10 : 50))
good=0
i=0
while [ $i -lt $rounds ]; do
	load_modules || break
	got=$(/tests/bin/uncount uncore_cbox_3 0x0835 -- \
		sh -c ". /tests/lib/lib.sh; sim_inject 'pkg=0 box=cbox idx=3 event=0x35 umask=0x08 count=$i'") || break
	[ "$got" = "$i" ] || { diag "round $i: got $got"; break; }
	unload_modules || break
	good=$((good + 1))
	i=$((i + 1))
done
is $good $rounds "$rounds load/count/unload rounds, each count exact"

load_modules
ok "! rmmod uncore_sim 2>/dev/null" "simulator cannot be unloaded under the driver"
perf stat -a -e 'uncore_cbox_3/event=0x35,umask=0x8/' -- sleep 30 >/dev/null 2>&1 &
perf_pid=$!
# The open events hold the module: wait until perf has opened them, for as
# long as perf runs (on a loaded host its start-up took over 10 s).
refs() { awk '$1 == "uncore_pmu" { print $3 }' /proc/modules; }
while [ "$(refs)" = 0 ] && kill -0 $perf_pid 2>/dev/null; do sleep 0.1; done
diag "uncore_pmu references with perf running: $(refs)"
ok "! rmmod uncore_pmu 2>/dev/null" "driver cannot be unloaded with an event open"
kill $perf_pid 2>/dev/null
wait $perf_pid
unload_modules
ok "! grep -q '^uncore_' /proc/modules" "both modules unloaded"
