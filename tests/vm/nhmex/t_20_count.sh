#!/bin/sh
# timeout: 600
# Every box of every package counts exactly what the simulator was made to
# see: the U counter, C-boxes 0-7 (whose MSR blocks are interleaved), a
# B-box event on its own counter, the S-boxes, M-boxes, both R-box halves,
# the W-box's general counters and its fixed uncore-clock counter. Then
# the counters are stopped, and nothing was written that the part would
# fault on or that sets a reserved bit.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh

load_modules || exit 1
nh_topo
out=/tmp/stat.csv

# NAME PMU EVENT INJECT...: an event, its name in perf's output (never
# r<hex>, which perf parses as a raw event), and the injection (without
# pkg= and count=) it must count; one per line.
LIST="u ubox event=0x50 box=ubox event=0x50
b0 bbox_0 event=0x17,counter=3 box=bbox idx=0 ctr=3 event=0x17
b1 bbox_1 event=0x02,counter=3 box=bbox idx=1 ctr=3 event=0x02
s0 sbox_0 event=0x09 box=sbox idx=0 event=0x09
s1 sbox_1 event=0x60,umask=0x1 box=sbox idx=1 event=0x60 umask=0x1
m0 mbox_0 inc_sel=0x1b box=mbox idx=0 sel=0x1b
m1 mbox_1 flag_mode=1,set_flag_sel=0x3 box=mbox idx=1 flag=1 sel=0x3
rx0 rbox_0 event=0x6,iperf_cfg=0x80000000 box=rbox port=1 iperf=0x80000000
rx1 rbox_1 event=0x12,iperf_cfg=0x1 box=rbox port=7 iperf=0x1
w wbox event=0x2,umask=0x1 box=wbox event=0x2 umask=0x1"
for i in 0 1 2 3 4 5 6 7; do
	u=0x$((1 << (i % 4)))
	LIST="$LIST
c$i cbox_$i event=0x14,umask=$u box=cbox idx=$i event=0x14 umask=$u"
done

# Package p, event number k: 1000 (p + 1) + k, distinct everywhere.
events="" cmds="" k=0
while read -r name pmu cfg inj; do
	k=$((k + 1))
	events="$events${events:+,}uncore_$pmu/$cfg,name=$name/"
	for p in $PKGS; do
		cmds="$cmds inject 'pkg=$p $inj count=$((1000 * (p + 1) + k))';"
	done
done <<EOT
$LIST
EOT
events="$events,uncore_wbox/clockticks,name=wclk/"

# The clock is frozen and moves 10 ms inside the run: the fixed counter
# counts exactly the uncore clocks of that time.
echo freeze >$SIM/clock
for p in $PKGS; do eval "W0_$p=$(nh_total "$p" wbox fixed)"; done
pstat "$out" -a -A -e "$events" -- sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; $cmds echo 'advance 10000000' > $SIM/clock; cat $SIM/state > /tmp/during"
echo run >$SIM/clock

k=0
while read -r name pmu cfg inj; do
	k=$((k + 1))
	for p in $PKGS; do
		is "$(val_cpu "$out" "$(first_cpu "$p")" "$name")" $((1000 * (p + 1) + k)) \
			"uncore_$pmu ($cfg), package $p: exact"
	done
done <<EOT
$LIST
EOT
w0=0
hz=$(sed -n 's/^pkg0 info .*uclk_hz=\([0-9]*\).*/\1/p' $SIM/state)
for p in $PKGS; do
	eval "w0=\$W0_$p"
	is "$(val_cpu "$out" "$(first_cpu "$p")" wclk)" $(( $(nh_total "$p" wbox fixed) - w0 )) \
		"W fixed counter, package $p: the simulator's uncore clocks"
	is "$(( $(nh_total "$p" wbox fixed) - w0 ))" $((hz / 100)) \
		"W fixed counter, package $p: 10 ms of a ${hz} Hz clock"
done

# While counting, each box's GLOBAL_CTL has every ctr_en bit and U
# GLOBAL_CTL en_all with the U counter's enable; afterwards no counter of
# any box counts.
for p in $PKGS; do
	is "$(nh_field "$p" global - ctl /tmp/during)" 0x10000001 "package $p: U GLOBAL_CTL en_all | U enable while counting"
	is "$(nh_field "$p" cbox6 - ctl /tmp/during)" 0x0000003f "package $p: C-box 6 ctr_en bits all set"
	is "$(nh_field "$p" wbox - ctl /tmp/during)" 0x8000000f "package $p: W-box ctr_en and fixed_en set"
	is "$(sim_state | awk -v p="pkg$p" '$1 == p && / counting=1/' | wc -l)" 0 "package $p: no counter counts after perf"
done
is "$(nh_bad_writes)" 0 "no reserved bit written, no faulting access, no #GP'd match write"

unload_modules
