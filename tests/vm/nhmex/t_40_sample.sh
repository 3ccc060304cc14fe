#!/bin/sh
# timeout: 900
# perf record through the Xeon 7500's overflow hierarchy (box STATUS,
# S-box SUMMARY, U GLOBAL_STATUS; 000:73-93, 129-137): the number of
# samples equals the injected count divided by the period, exactly, on a
# box of every kind that can raise a PMI; two counters of one box, and
# two boxes under different S-box summaries, overflowing before one PMI are
# served by it; counting events elsewhere stay exact while
# sampling keeps freezing the package; the W-box fixed counter, which
# cannot interrupt, is sampled by the timer. Mainline samples none of
# these.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh

load_modules || exit 1
nh_topo
DATA=/tmp/perf.data
CPU0=$FIRST_0

# rec PERF-RECORD-ARGS... -- [INJECTION-LINES...]: record with the
# injections (with none given, the lines of stdin), each followed by
# nh_settle, as the workload, on CPU0.
rec() {
	args=""
	while [ "$1" != -- ]; do args="$args $1"; shift; done
	shift
	cmds=""
	if [ $# -gt 0 ]; then printf '%s\n' "$@"; else cat; fi >/tmp/rec.inj
	while IFS= read -r l; do cmds="$cmds sim_inject '$l' && nh_settle 0 || exit 1;"; done </tmp/rec.inj
	# shellcheck disable=SC2086 # one word per argument
	perf record -q -a -o $DATA $args -- taskset -c "$CPU0" \
		sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tests/nhmex/nhmex_lib.sh; $cmds" \
		>/dev/null 2>/tmp/rec.err || { diag "perf record$args failed: $(cat /tmp/rec.err)"; return 1; }
}

# samples EVENT-NAME [CPU]: samples of an event in $DATA (on CPU if given).
samples() {
	perf_script $DATA cpu,event
	awk -v e="$1:" -v c="$2" '$2 == e && (c == "" || $1 == "[" sprintf("%03d", c) "]") { n++ } END { print n + 0 }' /tmp/script
}

# One box of each kind, each reporting through another summary bit, all
# in one recording: on each box bursts of 3500, 1 and 2499 events against
# a period of 1000 give 3, 0 and 3 samples, from two PMIs. The bursts go
# round the boxes (every box's 3500, then every box's 1, ...), each
# settled.
NAMES="" BOXES="" EVS=""
rm -f /tmp/inj.1 /tmp/inj.2 /tmp/inj.3
box() { # NAME PMU EVENT-TERMS INJECTION
	NAMES="$NAMES $1" BOXES="$BOXES uncore_$2" EVS="$EVS${EVS:+,}uncore_$2/$3,name=$1/"
	echo "pkg=0 $4 count=3500" >>/tmp/inj.1
	echo "pkg=0 $4 count=1" >>/tmp/inj.2
	echo "pkg=0 $4 count=2499" >>/tmp/inj.3
}
box cb cbox_3 event=0x14,umask=0x1 "box=cbox idx=3 event=0x14 umask=0x1"
box cl cbox_4 event=0x14,umask=0x1 "box=cbox idx=4 event=0x14 umask=0x1"
box bb bbox_1 event=0x17,counter=3 "box=bbox idx=1 ctr=3 event=0x17"
box sb sbox_0 event=0x09 "box=sbox idx=0 event=0x09"
box mb mbox_1 inc_sel=0x1b "box=mbox idx=1 sel=0x1b"
box rx rbox_1 event=0x0,iperf_cfg=0x80000000 "box=rbox port=4 iperf=0x80000000"
box wb wbox event=0x2,umask=0x1 "box=wbox event=0x2 umask=0x1"
box ub ubox event=0x50 "box=ubox event=0x50"
nmi0=$(pmi_stat 3)
if cat /tmp/inj.1 /tmp/inj.2 /tmp/inj.3 | rec -e "$EVS" -c 1000 --; then
	is $(( $(pmi_stat 3) - nmi0 )) 16 "8 boxes: 16 PMIs, two a box (the 1-event burst overflows nothing)"
	for n in $NAMES; do
		is "$(samples "$n" "$CPU0")" 6 "$n: 6000 events at period 1000 give 6 samples, on CPU $CPU0"
		is "$(samples "$n")" 6 "$n: no samples from other packages"
	done
	for p in $BOXES; do
		is "$(box_stat "$p" 3)" pmi "$p: sampled through the PMI"
	done
fi

# Two counters of one box overflow on the same event: one PMI, a sample
# for each.
b="pkg=0 box=cbox idx=6 event=0x14 umask=0x2"
nmi0=$(pmi_stat 3)
if rec -e "uncore_cbox_6/event=0x14,umask=0x2,name=ca/,uncore_cbox_6/event=0x14,umask=0x2,name=cz/" -c 1000 -- "$b count=1000"; then
	is "$(samples ca):$(samples cz)" 1:1 "two counters overflowing together: a sample each"
	is $(( $(pmi_stat 3) - nmi0 )) 1 "one PMI for both"
fi

# Two boxes that overflow before one PMI: the freeze is held back long
# enough for both injections (the guide's skew between overflow and
# freeze, 000:247-251), and one PMI serves a C-box (S-box 0's SUMMARY) and
# an R-box half (S-box 1's).
echo 200000000 >"$SIMPARAM/nhmex_freeze_delay_ns"
nmi0=$(pmi_stat 3)
if perf record -q -a -o $DATA -c 1000 \
	-e 'uncore_cbox_3/event=0x14,umask=0x1,name=two_c/,uncore_rbox_1/event=0x0,iperf_cfg=0x1,name=two_r/' -- \
	taskset -c "$CPU0" sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tests/nhmex/nhmex_lib.sh
		sim_inject 'pkg=0 box=cbox idx=3 event=0x14 umask=0x1 count=2100' &&
		sim_inject 'pkg=0 box=rbox port=4 iperf=0x1 count=1500' && nh_settle 0" \
	>/dev/null 2>/tmp/rec.err; then
	is "$(samples two_c):$(samples two_r)" 2:1 "C-box and R-box overflowing together: 2 and 1 samples"
	is $(( $(pmi_stat 3) - nmi0 )) 1 "one PMI for both, through both S-box summaries"
else
	ok false "perf record of two boxes: $(cat /tmp/rec.err)"
fi
echo 1000 >"$SIMPARAM/nhmex_freeze_delay_ns"

# An unrelated NMI between an overflow and its freeze (review pmi-protocol
# N7): with the freeze a second away, the backtrace NMIs of sysrq l claim
# the overflow's status and the pass runs while the package still counts.
# It stops the package itself (en_all clear) before it reloads the
# counter, so nothing counts between the read and the reload
# (live_writes), and the late PMI of the freeze still ends it. Another
# CPU sends them: the sender dumps its own stack without one.
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}
	[ "$n" != "$CPU0" ] && [ "$(cat "$c/online" 2>/dev/null || echo 1)" = 1 ] && { OTHER=$n; break; }
done
echo 1000000000 >"$SIMPARAM/nhmex_freeze_delay_ns"
live0=$(nh_stat 0 live_writes)
b="pkg=0 box=cbox idx=3 event=0x14 umask=0x1"
expect_kernel_report_begin
if perf record -q -a -o $DATA -c 1000 -e uncore_cbox_3/event=0x14,umask=0x1,name=early/ -- \
	taskset -c "$OTHER" sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tests/nhmex/nhmex_lib.sh
		sim_inject '$b count=1000' && echo l >/proc/sysrq-trigger && sleep 2 && nh_settle 0" \
	>/dev/null 2>/tmp/rec.err; then
	is "$(samples early)" 1 "a backtrace NMI before the freeze: 1000 events at period 1000, one sample"
	is "$(( $(nh_stat 0 live_writes) - live0 ))" 0 "a backtrace NMI before the freeze: no counter reloaded while it counted"
	is "$(nh_field 0 global - frozen)" 0 "a backtrace NMI before the freeze: the package is not left frozen"
else
	ok false "perf record with a backtrace NMI before the freeze: $(cat /tmp/rec.err)"
fi
expect_kernel_report_end
echo 1000 >"$SIMPARAM/nhmex_freeze_delay_ns"

# Counting beside sampling: the sampled C-box freezes the package at each
# overflow; the counted events on other boxes lose nothing, since every
# injection waits for the package to run again.
out=/tmp/stat.csv
s="pkg=0 box=cbox idx=3 event=0x14 umask=0x1"
c="pkg=0 box=bbox idx=0 ctr=3 event=0x17"
r="pkg=0 box=rbox port=2 iperf=0x1"
pstat "$out" -C "$CPU0" -e uncore_bbox_0/event=0x17,counter=3,name=cnt/,uncore_rbox_0/event=0xc,iperf_cfg=0x1,name=rbx/ -- \
	perf record -q -a -o $DATA -c 500 -e uncore_cbox_3/event=0x14,umask=0x1,name=smp/ -- taskset -c "$CPU0" sh -c \
	". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tests/nhmex/nhmex_lib.sh
	 for i in 1 2 3 4; do sim_inject '$s count=700' && nh_settle 0 && sim_inject '$c count=100' && sim_inject '$r count=10' || exit 1; done"
is "$(samples smp)" 5 "sampled C-box: 2800 events at period 500, 5 samples"
is "$(val_total "$out" cnt):$(val_total "$out" rbx)" 400:40 "counted B-box and R-box events beside it: exact"

# The W fixed counter has no pmi_en [EXT]: its timer samples it, one
# sample per period of uncore clocks that sim time moved.
echo freeze >$SIM/clock
hz=$(sed -n 's/^pkg0 info .*uclk_hz=\([0-9]*\).*/\1/p' $SIM/state)
s0=$(box_stat uncore_wbox 4)
nmi0=$(pmi_stat 3)
perf record -q -a -o $DATA -c $((hz / 1000)) -e uncore_wbox/clockticks,name=wclk/ -- taskset -c "$CPU0" sh -c \
	". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; echo 'advance 5000000' > $SIM/clock
	 until_true '[ \$(box_stat uncore_wbox 4) -ge $((s0 + 5)) ]'" >/dev/null 2>/tmp/rec.err
echo run >$SIM/clock
is "$(samples wclk "$CPU0")" 5 "W fixed counter: 5 ms of uncore clock at a period of 1 ms, 5 samples"
is $(( $(pmi_stat 3) - nmi0 )) 0 "W fixed counter: sampled by the timer, no PMI"

is "$(nh_bad_writes)" 0 "no reserved bit written, no faulting access"
# The PMI path goes with the module; pkg_exit's GLOBAL_CTL = 0 must stay
# (review N20: the last write of unload re-enabled every package).
rmmod uncore_pmu
is "$(sim_state | sed -n 's/^pkg[0-9]* global ctl=\(0x[0-9a-f]*\) .*/\1/p' | sort -u)" 0x00000000 \
	"after unload every package's U GLOBAL_CTL is 0: nothing enabled, routed or frozen"
unload_modules
