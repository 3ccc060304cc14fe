#!/bin/sh
# make demo PART=k8e: a two-node dual-core Opteron (K8 rev E) as the
# simulator models it, perf counting its northbridge events through
# uncore_nb, and numbers a person can check. run-guest.sh has loaded
# uncore_sim (with its stand-in core PMU: QEMU under TCG has none) and
# uncore_pmu.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=k8_lib.sh
. /tests/k8/k8_lib.sh

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

# perf has no JSON events for this part's uncore, and the driver's default
# lists only a few aliases (uncore_pmu.rst, "Event aliases"): the demo
# shows every manual event by name, as all_aliases=1 lists them.
unload_modules && load_modules all_aliases=1 || exit 1
k8_topo
say "The guest: family $(sed -n 's/^cpu family.*: //p' /proc/cpuinfo | head -n1) model $(sed -n 's/^model\t*: //p' /proc/cpuinfo | head -n1), $(nproc) CPUs in $(pkgs | wc -l) nodes"
run dmesg | grep -E 'uncore_(pmu|sim)|Performance Events' | sed 's/^/  /'

say "One PMU for the northbridge of every node, one reading CPU per node"
echo "(uncore_pmu loaded with all_aliases=1: every manual event by name; perf has no JSON for this uncore)"
run ls /sys/bus/event_source/devices/
run cat "$PMUS"/uncore_nb/cpumask
run ls "$PMUS"/uncore_nb/format
n=0
for f in "$PMUS"/uncore_nb/events/*; do case $f in *.scale | *.unit) ;; *) n=$((n + 1)) ;; esac; done
echo "$n named events, for example:"
run cat "$PMUS"/uncore_nb/events/dram_accesses.all "$PMUS"/uncore_nb/events/dram_accesses.all.scale

say "Counting each node once"
echo "While perf counts, the command injects 16384 DRAM page hits into node 0 and"
echo "32768 into node 1 (1 and 2 MiB of 64-byte blocks), and 1000 data dwords"
echo "sent on HT link 1 of node 1. uncore_nb counts each node once; the raw core"
echo "event of the same code (cpu/event=0xe0,umask=0x1/) counts it on every core:"
run perf stat -a --per-socket -e uncore_nb/dram_accesses.all/,uncore_nb/event=0xf7,umask=0x2,name=ht1_data/,cpu/event=0xe0,umask=0x1,name=raw_dram/ -- \
	sh -c ". /tests/lib/lib.sh
	       sim_inject 'pkg=0 event=0xe0 umask=0x1 count=16384'
	       sim_inject 'pkg=1 event=0xe0 umask=0x1 count=32768'
	       sim_inject 'pkg=1 event=0xf7 umask=0x2 count=1000'"

say "Beside a core event, on the core PMU that owns the counters"
run perf stat -a -e cycles,uncore_nb/dram_accesses.page_miss/ -- \
	sh -c ". /tests/lib/lib.sh
	       sim_inject 'cpu=0 event=0x76 count=5000000'
	       sim_inject 'pkg=0 event=0xe0 umask=0x2 count=123'"

say "What the BKDG does not allow is refused before the core PMU sees it"
for ev in "event=0xe9,umask=0x68" "event=0xe0,umask=0x1,cmask=4" "event=0xe0,umask=0x8" "event=0x76"; do
	echo "\$ perf stat -a -e uncore_nb/$ev/ -- true"
	perf stat -a -e "uncore_nb/$ev/" -- true 2>&1 | grep -E 'not supported|Invalid|Error' | head -n 1 | sed 's/^/  /'
done
say "The simulator saw no reserved bit, no clobber, no fault: $(k8_bad_writes)"
