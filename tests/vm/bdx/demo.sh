#!/bin/sh
# make demo: a two-socket Xeon E5 v4 as the simulator models it, perf
# counting on it, and the numbers a person can check against what was
# injected. run-guest.sh has loaded uncore_sim and uncore_pmu.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

module_loaded uncore_pmu || load_modules || exit 1
topo_init

say "The guest: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(nproc) CPUs in $(pkgs | wc -l) packages"
run dmesg | grep -E 'uncore_(pmu|sim)' | sed 's/^/  /'

say "PMUs the driver registered (CBos from each package's CAPID5, SBos from CAPID4,
PCI boxes from the devices on each package's bus)"
run ls /sys/bus/event_source/devices/
for p in $PKGS; do
	echo "  package $p: CAPID5 = $(sim_reg capid5 "$p")  CAPID4 = $(sim_reg capid4 "$p")"
done
run cat "$PMUS"/uncore_cbox_3/cpumask "$PMUS"/uncore_cbox_0/cpumask "$PMUS"/uncore_cbox_4/cpumask
run grep . "$PMUS"/uncore_cbox_3/format/umask "$PMUS"/uncore_cbox_3/format/filter_opc

say "Counting: perf stat on CBo 3 (TOR_INSERTS.MISS_OPCODE of DRd) and the UBox UCLK counter"
echo "filter_opc=0x182 is the Demand Data Read opcode (manual Table 2-20): the event"
echo "counts demand data reads that miss the LLC slice. While perf counts, the command"
echo "below injects into the simulator:"
echo "  package 0: 1234 TOR inserts on CBo 3 that miss, with opcode 0x182 (DRd)"
echo "  package 1: 5678 of them, and 99 with opcode 0x180 (RFO, not counted)"
echo "  and advances simulated time by exactly 2 ms (UCLK at $(cat "$SIMPARAM"/uclk_khz) kHz)"
echo freeze > "$SIM"/clock
run perf stat -a --per-socket -e uncore_cbox_3/event=0x35,umask=0x3,filter_opc=0x182/,uncore_ubox/clockticks/ -- \
	sh -c ". /tests/lib/lib.sh
	       sim_inject 'pkg=0 box=cbox idx=3 event=0x35 umask=0x03 opc=0x182 count=1234'
	       sim_inject 'pkg=1 box=cbox idx=3 event=0x35 umask=0x03 opc=0x182 count=5678'
	       sim_inject 'pkg=1 box=cbox idx=3 event=0x35 umask=0x03 opc=0x180 count=99'
	       echo 'advance 2000000' > $SIM/clock"
echo run > "$SIM"/clock
echo "Expected: S0 1234 and S1 5678 TOR inserts; $(( $(cat "$SIMPARAM"/uclk_khz) * 2 )) UCLK ticks per socket."

say "An OPCODE subevent without filter_opc opens, but not silently"
echo "perf cannot tell filter_opc=0 from no filter_opc: the driver programs opcode 0,"
echo "which no request carries (Table 2-20), so on the part the event counts nothing."
echo "It still opens, and the kernel log says so once per PMU. The command injects"
echo "300 DRd and 999 RFO misses on package 0:"
run perf stat -a -A -e uncore_cbox_3/event=0x35,umask=0x3/ -- \
	sh -c ". /tests/lib/lib.sh
	       sim_inject 'pkg=0 box=cbox idx=3 event=0x35 umask=0x03 opc=0x182 count=300'
	       sim_inject 'pkg=0 box=cbox idx=3 event=0x35 umask=0x03 opc=0x180 count=999'"
echo "Expected: 0 on both packages' CPUs, and this in the kernel log:"
echo "\$ dmesg | grep 'without filter_opc'"
dmesg | grep 'without filter_opc' | sed 's/^/  /'

say "PCI boxes: memory traffic in MiB (iMC) and QPI packets by match/mask"
for p in $PKGS; do
	echo "  package $p: iMC channels $(sim_reg imc "$p") (bit n = uncore_imc_n)"
done
echo "The command injects 16384 read CAS on package 0's iMC0 channel 0 (1 MiB at"
echo "64 bytes each) and 8192 on package 1's, and QPI port 0 receives 40 DRS data"
echo "packets (message class 1110b) and 25 others; CTO_COUNT matches MC = DRS."
run perf stat -a --per-socket -e uncore_imc_0/cas_count_read/,uncore_qpi_0/event=0x138,match_mc=0xe,mask_mc=0xf/ -- \
	sh -c ". /tests/lib/lib.sh
	       sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=16384'
	       sim_inject 'pkg=1 box=imc idx=0 event=0x04 umask=0x01 count=8192'
	       sim_inject 'pkg=0 box=qpi idx=0 event=0x138 pkt0=0x1c00 count=40'
	       sim_inject 'pkg=0 box=qpi idx=0 event=0x138 pkt0=0x1800 count=25'"
echo "Expected: S0 1.00 MiB and 40 packets, S1 0.50 MiB and 0."

say "Sampling: perf record on an iMC event (PMI) and a CBo event (timer)"
echo "The command injects 3500 read CAS on package 0's iMC0 channel 0, then 2500;"
echo "at -c 1000 that is 6 samples, from the overflow interrupt the UBox routes to"
echo "CPU $(first_cpu 0). CBo 0 cannot interrupt: the driver's timer samples it."
echo "An overflow freezes every counter of the package until the handler is done,"
echo "as on the part: the script waits for that (sim_settle) before injecting more."
run perf record -q -a -P -c 1000 -o /tmp/demo.data \
	-e uncore_imc_0/cas_count_read/,uncore_cbox_0/event=0x35,umask=0x8/ -- \
	sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh
	       sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=3500'
	       sim_settle 0
	       sim_inject 'pkg=0 box=cbox idx=0 event=0x35 umask=0x08 opc=0x182 count=2000'
	       sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=2500'
	       sim_settle 0; sleep 0.1"
run perf script -i /tmp/demo.data -F cpu,time,event,period | cat
echo "Expected: 6 uncore_imc_0 samples and 2 uncore_cbox_0 samples, on CPU $(first_cpu 0)."
run cat /sys/kernel/debug/uncore_pmu/pmi
run grep -E '^#|^uncore_(imc_0|cbox_0) 0 ' /sys/kernel/debug/uncore_pmu/samples

say "Bad input gets a clear error, not a different event"
echo "\$ perf stat -a -e uncore_cbox_3/event=0x35,umask=0x1,filter_opc=0x100/ -- true"
perf stat -a -e uncore_cbox_3/event=0x35,umask=0x1,filter_opc=0x100/ -- true 2>&1 |
	grep -v '^ *$' | head -n 4
echo "The driver refused it (EINVAL, which perf shows as <not supported>): 0x100 is"
echo "not an opcode, Table 2-19 wants the top two of its 9 bits set."

say "Register traffic so far (debugfs)"
run grep -E '^#|^uncore_(cbox_3|imc_0|qpi_0) ' /sys/kernel/debug/uncore_pmu/access
