#!/bin/sh
# timeout: 600
# 32-bit counters counted into 64-bit totals: 10^4 wraps at the highest
# rate the driver allows for (3.8 GHz, one per clock), read between steps
# of sim time; steps of just under a whole wrap; the poll timer alone
# across wraps in real time, at a period under a second. Then the latency
# counter's enable bit in both of the digest's readings, and unloading
# with events open.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=p4mp_lib.sh
. /tests/p4mp/p4mp_lib.sh

load_modules || exit 1
p4_topo
out=/tmp/stat.csv
RATE=3800000000
WRAP=4294967296

# wraps UNIT IDX STEPS STEP_NS NAME [WRAPS]: count with /tests/bin/wrapcount
# while the frozen sim clock moves on in steps, the counter in rate mode;
# the count must be the simulator's unwrapped total, exactly, across at
# least WRAPS wraps of 2^32.
wraps() {
	_m=$(msr_of "$1" "$2")
	_pmu=uncore_$1 _cfg=0x1
	[ "$1" = lat ] && _pmu=uncore_ibusq_lat _cfg=0
	echo freeze >$SIM/clock
	_t0=$(p4_field 0 "$_m" total)
	sim_inject "pkg=0 box=$1 idx=$2 rate=$RATE" || return 1
	_c=$(/tests/bin/wrapcount "$_pmu" "$_cfg" "$3" "$4" | sed -n 's/^count=//p')
	sim_inject "pkg=0 box=$1 idx=$2 rate=0"
	echo run >$SIM/clock
	_t=$(( $(p4_field 0 "$_m" total) - _t0 ))
	is "$_c" "$_t" "$5: count equals the simulator's total ($_t)"
	ok "[ $((_t / WRAP)) -ge ${6:-0} ]" "$5: $((_t / WRAP)) wraps"
}
# 0.5 s steps: 1.9e9 counts each, 22700 of them are 10042 wraps.
wraps ibusq 0 22700 500000000 "10^4 wraps, read every half wrap" 10000
# 1.13 s at 3.8 GHz is 4294000000, 967296 short of a wrap.
wraps isnpq 0 1000 1130000000 "1000 reads, each just under a wrap apart" 260

# The poll timer alone: no read from perf until the end, rate mode in real
# time for 10 s at 10^9 per second, a wrap every 4.3 s. The rate stops
# before perf does: the part loses what counts between the stop's read and
# its write (p4mp.c), and the simulator's total would have it.
m=$(msr_of efsb 1)
t0=$(p4_field 1 "$m" total)
pstat "$out" -a -e uncore_efsb/qual=0x5,name=e0/,uncore_efsb/qual=0x5,name=e1/ -- sh -c \
	". /tests/lib/lib.sh; sim_inject 'pkg=1 box=efsb idx=1 rate=1000000000'; sleep 10;
	 grep '^uncore_efsb 1 ' /sys/kernel/debug/uncore_pmu/boxes > /tmp/box; sim_inject 'pkg=1 box=efsb idx=1 rate=0'"
t=$(( $(p4_field 1 "$m" total) - t0 ))
ok "[ $t -gt $((2 * WRAP)) ]" "efsb counter 1 wrapped twice in 10 s ($t)"
is "$(val_total "$out" e1)" "$t" "efsb counter 1: the poll timer's reads keep the count exact"
poll=$(awk '{ print $5 }' /tmp/box)
ok "[ $poll -gt 0 ] && [ $poll -lt 1000000000 ]" "poll period under a second: ${poll} ns"
ok "[ $poll -lt $((WRAP * 1000000000 / RATE / 2 + 1)) ]" "poll period at most half the wrap time at 3.8 GHz"

# Across a move (review pmi-protocol N22): package 1's reading CPU goes
# offline while its counter counts at the highest rate the driver allows
# for, a wrap every 1.13 s. perf moves the event a grace period later;
# the counter counts on meanwhile, read by nobody. The driver counts the
# carry and whether it was unread for half a wrap or more (then the next
# read may come a whole wrap after the last, and 2^32 may be lost).
# With no late carry the count must be exact; with one, short by a
# multiple of 2^32.
m=$(msr_of ibusq 0)
t0=$(p4_field 1 "$m" total)
c1=$(first_cpu 1)
# shellcheck disable=SC2046 # two numbers
set -- $(awk '$1 == 1 { print $6, $8 }' /sys/kernel/debug/uncore_pmu/packages)
carries0=$1 late0=$2
pstat "$out" -a -e uncore_ibusq/qual=0x1,name=mv/ -- sh -c \
	". /tests/lib/lib.sh; sim_inject 'pkg=1 box=ibusq idx=0 rate=$RATE'; sleep 1;
	 echo 0 >/sys/devices/system/cpu/cpu$c1/online; sleep 2;
	 echo 1 >/sys/devices/system/cpu/cpu$c1/online; sleep 1; sim_inject 'pkg=1 box=ibusq idx=0 rate=0'"
t=$(( $(p4_field 1 "$m" total) - t0 ))
# shellcheck disable=SC2046 # three numbers
set -- $(awk '$1 == 1 { print $6, $7, $8 }' /sys/kernel/debug/uncore_pmu/packages)
diag "package 1's move: $(($1 - carries0)) carries, the longest unread for $2 ns, $(($3 - late0)) late"
ok "[ $(($1 - carries0)) -ge 1 ]" "the move carried the ibusq counter"
got=$(val_total "$out" mv)
if [ $(($3 - late0)) = 0 ]; then
	is "$got" "$t" "across a move at 3.8 GHz, no carry late: the count is exact ($t)"
else
	ok "[ $(( (t - got) % WRAP )) = 0 ] && [ $got -le $t ]" \
		"a carry late (the grace period took half a wrap): short by a multiple of 2^32 ($got of $t)"
fi

unload_modules

# CNTR7's width: 64 bits in the SDM's prose [EXT], 32 in 003:27-29, which
# lists the low halves of all eight MSRs as 32-bit counters. The driver
# must count exactly under either reading (p4mp.c, p4mp_lat_read()): the
# simulator takes both (p4mp_cntr7_bits). Reads between steps of frozen
# sim time, then the poll timer alone in real time: 2 10^9 a second for
# 5 s wraps a 32-bit CNTR7 twice.
cntr7_try() { # BITS
	insmod "$MODDIR/uncore_sim.ko" p4mp_cntr7_bits="$1" || return 1
	insmod "$MODDIR/uncore_pmu.ko" || return 1
	wraps lat 0 2300 500000000 "CNTR7 of $1 bits, read every half wrap of 2^32" 1000
	m=$(msr_of lat 0)
	t0=$(p4_field 0 "$m" total)
	pstat "$out" -a -e uncore_ibusq_lat/ibusq_latency,name=lat/ -- sh -c \
		". /tests/lib/lib.sh; sim_inject 'pkg=0 box=lat rate=2000000000'; sleep 5;
		 grep '^uncore_ibusq_lat 0 ' /sys/kernel/debug/uncore_pmu/boxes > /tmp/box; sim_inject 'pkg=0 box=lat rate=0'"
	t=$(( $(p4_field 0 "$m" total) - t0 ))
	ok "[ $t -gt $((2 * WRAP)) ]" "CNTR7 of $1 bits: more than 2^33 in 5 s ($t)"
	is "$(val_total "$out" lat)" "$t" "CNTR7 of $1 bits: the poll timer's reads keep the count exact"
	ok "[ $(awk '{ print $5 }' /tmp/box) -lt $((WRAP * 1000000000 / RATE / 2 + 1)) ]" \
		"CNTR7 of $1 bits: polled at least every half 32-bit wrap at 3.8 GHz"
	unload_modules
}
cntr7_try 32
cntr7_try 64

# CNTR7's enable: "bit 26" of CTL6 [EXT], which may be MSR bit 58. The
# simulator takes either reading; the driver's parameter must match it.
lat_try() { # SIM_BIT DRIVER_BIT WANT NAME
	insmod "$MODDIR/uncore_sim.ko" p4mp_lat_bit="$1" || return 1
	insmod "$MODDIR/uncore_pmu.ko" p4mp_latency_enable_bit="$2" || return 1
	pstat "$out" -a -e uncore_ibusq_lat/ibusq_latency,name=lat/ -- sh -c \
		". /tests/lib/lib.sh; sim_inject 'pkg=0 box=lat idx=0 count=100'; cat $SIM/state > /tmp/during"
	is "$(val_total "$out" lat)" "$3" "$4"
	is "$(p4_field 0 "$(msr_of ctl6 0)" val /tmp/during)" "$(printf '0x%016x' $((1 << $2)))" \
		"driver bit $2: CTL6 holds that bit alone while counting"
	is "$(p4_field 0 "$(msr_of ctl6 0)" val)" 0x0000000000000000 "driver bit $2: CTL6 cleared after"
	unload_modules
}
lat_try 26 26 100 "CTL6 bit 26 on a part that reads it so: 100 counted"
lat_try 58 58 100 "CTL6 bit 58 on a part that reads it so: 100 counted"
lat_try 58 26 0 "bit 26 on a part that wants 58: nothing counted (the parameter is what to change)"
insmod "$MODDIR/uncore_sim.ko"
ok "! insmod $MODDIR/uncore_pmu.ko p4mp_latency_enable_bit=27" "p4mp_latency_enable_bit=27 refused"

# Unloading with events open: the driver stays while perf holds them.
insmod "$MODDIR/uncore_pmu.ko"
perf stat -a -e uncore_ibusq/qual=1/ -o /tmp/bg.txt -- sleep 4 &
bg=$!
until_true "grep -q '^uncore_ibusq 0 [0-9]* 1 ' /sys/kernel/debug/uncore_pmu/boxes"
ok "! rmmod uncore_pmu 2>/dev/null" "rmmod refused while an event is open"
ok "! rmmod uncore_sim 2>/dev/null" "the simulator stays while the driver uses it"
wait $bg
ok "grep -q uncore_ibusq /tmp/bg.txt" "perf stat finished"
unload_modules
ok "! module_loaded uncore_pmu && ! module_loaded uncore_sim" "both unload once perf is done"

# A driver for the Xeon MP refuses a simulator of another part.
insmod "$MODDIR/uncore_sim.ko" part=bdx
ok "! insmod $MODDIR/uncore_pmu.ko" "driver refuses a Broadwell simulator on a Xeon MP"
ok "dmesg | grep -q \"uncore_sim models part 'bdx', this CPU is a 'p4mp'\"" "and says why"
unload_modules
