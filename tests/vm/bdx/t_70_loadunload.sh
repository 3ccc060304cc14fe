#!/bin/sh
# Load and unload 20 times (3 on the debug kernel), counting each time
# (with tests/vm/bin/uncount.c: perf's start-up would dominate the loop);
# unload is refused while an event is open; the simulator cannot go while
# the driver holds it. On the debug kernel KASAN and lockdep watch the
# rounds; kmemleak, off there, scans after debugfuzzbdx's fuzz run, which
# loads and unloads too (t_95).
# timeout: 600
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

# Each round runs the same paths: what goes wrong in one (a reference
# left, a use after free, a count carried across loads) shows in the
# first few. Fewer on the slow (debug) kernel, where a round takes ~15 s.
rounds=$((UNCORE_TIMEOUT_SCALE > 1 ? 3 : 20))
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
