#!/bin/sh
# make demo PART=p4mp: a two-socket 64-bit Xeon MP with L3 (NetBurst) as
# the simulator models it, perf counting on its iFSB/L3 units, and numbers
# a person can check. run-guest.sh has loaded uncore_sim and uncore_pmu.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=p4mp_lib.sh
. /tests/p4mp/p4mp_lib.sh

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

p4_topo
say "The guest: family $(sed -n 's/^cpu family.*: //p' /proc/cpuinfo | head -n1) model $(sed -n 's/^model[^ ]*: //p;s/^model\t*: //p' /proc/cpuinfo | head -n1), $(nproc) CPUs in $(pkgs | wc -l) packages, L3: $(cat /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null || echo none)"
run dmesg | grep -E 'uncore_(pmu|sim)' | sed 's/^/  /'

say "PMUs: one per unit; one reading CPU per package (the HT siblings share the MSRs)"
run ls /sys/bus/event_source/devices/
run cat "$PMUS"/uncore_ibusq/cpumask "$PMUS"/uncore_ibusq/format/qual "$PMUS"/uncore_ibusq_lat/events/ibusq_latency

say "Counting: each unit's qualification half (qual) goes to MSR bits 63:32 as given"
echo "While perf counts, the command injects 1000 IBUSQ events on package 0, 2000 on"
echo "package 1 (counter 0), 70 ISNPQ events on package 1 (counter 1), and 2^33 + 5"
echo "latency cycles on package 0 (CNTR7 is 64 bits wide):"
run perf stat -a --per-socket -e uncore_ibusq/qual=0x3/,uncore_isnpq/qual=0x1/,uncore_isnpq/qual=0x2/,uncore_ibusq_lat/ibusq_latency/ -- \
	sh -c ". /tests/lib/lib.sh
	       sim_inject 'pkg=0 box=ibusq idx=0 count=1000'
	       sim_inject 'pkg=1 box=ibusq idx=0 count=2000'
	       sim_inject 'pkg=1 box=isnpq idx=1 count=70'
	       sim_inject 'pkg=0 box=lat idx=0 count=$(( (1 << 33) + 5 ))'"

say "32-bit counters, 64-bit counts: 3 s at 3.8e9 events a second"
echo "The simulator's counter runs at the fastest rate the driver allows for (one a"
echo "clock at 3.8 GHz): it wraps every 1.13 s, and the driver reads it every 0.56 s."
run perf stat -a --per-socket -e uncore_efsb/qual=0x1/ -- \
	sh -c ". /tests/lib/lib.sh; sim_inject 'pkg=0 box=efsb idx=0 rate=3800000000'; sleep 3; sim_inject 'pkg=0 box=efsb idx=0 rate=0'"
echo "The simulator's own total for that counter: $(p4_field 0 "$(msr_of efsb 0)" total)"

say "What the driver refuses"
for e in uncore_ibusq/qual=0/ uncore_ibusq_lat/config=1/; do
	echo "\$ perf stat -a -e $e -- true"
	perf stat -a -e "$e" -- true 2>&1 | grep -m1 -E 'not supported|Invalid|rror' | sed 's/^/  /'
done
