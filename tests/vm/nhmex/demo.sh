#!/bin/sh
# make demo PART=nhmex: a two-socket Xeon 7500 (Nehalem-EX) as the
# simulator models it, perf counting on its boxes, and numbers a person can
# check. run-guest.sh has loaded uncore_sim and uncore_pmu.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

# perf has no JSON events for this part's uncore, and the driver's default
# lists only a few aliases (uncore_pmu.rst, "Event aliases"): the demo
# shows every manual event by name, as all_aliases=1 lists them.
unload_modules && load_modules all_aliases=1 || exit 1
nh_topo
say "The guest: family $(sed -n 's/^cpu family.*: //p' /proc/cpuinfo | head -n1) model $(sed -n 's/^model\t*: //p' /proc/cpuinfo | head -n1), $(nproc) CPUs in $(pkgs | wc -l) packages"
run dmesg | grep -E 'uncore_(pmu|sim)' | sed 's/^/  /'

say "PMUs under mainline's names; one reading CPU per package"
echo "(uncore_pmu loaded with all_aliases=1: every manual event by name; perf has no JSON for this uncore)"
run ls /sys/bus/event_source/devices/
run cat "$PMUS"/uncore_bbox_0/cpumask
run ls "$PMUS"/uncore_bbox_0/format "$PMUS"/uncore_rbox_0/format

say "Counting on every kind of box"
echo "While perf counts, the command injects: 1000 LLC misses into C-box 5 of"
echo "package 0 and 2000 into package 1; 300 B-box CONFLICTS (counter 3) into B-box 1"
echo "of package 1; 40 flits sent on R-box port 1 of package 0; and 10 ms of"
echo "uncore clock pass on the W-box's fixed counter."
echo freeze >$SIM/clock
run perf stat -a --per-socket -e uncore_cbox_5/llc_misses.s/,uncore_bbox_1/conflicts/,uncore_rbox_0/qpi1_filt_send/,uncore_wbox/clockticks/ -- \
	sh -c ". /tests/lib/lib.sh
	       sim_inject 'pkg=0 box=cbox idx=5 event=0x14 umask=0x1 count=1000'
	       sim_inject 'pkg=1 box=cbox idx=5 event=0x14 umask=0x1 count=2000'
	       sim_inject 'pkg=1 box=bbox idx=1 ctr=3 event=0x17 count=300'
	       sim_inject 'pkg=0 box=rbox port=1 iperf=0x80000000 count=40'
	       echo 'advance 10000000' > $SIM/clock"
echo run >$SIM/clock

say "Shared sub-registers: two values for one R-box port's IPERF register"
echo "The second event takes the port's other IPERF register; both count exactly:"
run perf stat -a -e uncore_rbox_0/event=0x6,iperf_cfg=0x80000000,name=flits/,uncore_rbox_0/event=0x6,iperf_cfg=0x40000000,name=idle/ -- \
	sh -c ". /tests/lib/lib.sh
	       sim_inject 'pkg=0 box=rbox port=1 iperf=0x80000000 count=19'
	       sim_inject 'pkg=0 box=rbox port=1 iperf=0x40000000 count=23'
	       grep '^pkg0 rport1 ' $SIM/state"

say "Sampling through the U-box's overflow hierarchy (mainline cannot sample these)"
echo "5000 LLC misses into C-box 3 of package 0 at a period of 1000: C-box STATUS,"
echo "S-box 0 SUMMARY and U GLOBAL_STATUS lead the PMI to them; 5 samples:"
run perf record -q -a -o /tmp/perf.data -c 1000 -e uncore_cbox_3/llc_misses.s/ -- \
	sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tests/nhmex/nhmex_lib.sh
	       sim_inject 'pkg=0 box=cbox idx=3 event=0x14 umask=0x1 count=5000' && nh_settle 0"
run perf report -i /tmp/perf.data --stdio -s cpu 2>/dev/null | grep -E '^# (Samples|Event count)|%'
run grep -E '^#|^0 ' /sys/kernel/debug/uncore_pmu/pmi

say "What the driver refuses"
for e in uncore_bbox_0/event=0x3,counter=3/ uncore_rbox_0/event=0x18,iperf_cfg=1/ uncore_sbox_0/event=0x11,umask=0x3/; do
	echo "\$ perf stat -a -e $e -- true"
	perf stat -a -e "$e" -- true 2>&1 | grep -m1 -E 'not supported|Invalid|rror' | sed 's/^/  /'
done
