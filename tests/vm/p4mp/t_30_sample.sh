#!/bin/sh
# timeout: 600
# Sampling without an interrupt: the box's timer takes one sample per
# period that the count has passed, exactly, on a qual unit and on the
# latency pair. Then the reading CPU goes offline: its HT sibling, which
# shares the registers, reads on, and no count is lost or doubled.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=p4mp_lib.sh
. /tests/p4mp/p4mp_lib.sh

load_modules || exit 1
p4_topo
DATA=/tmp/perf.data
out=/tmp/stat.csv
CPU0=$FIRST_0

samples() { # EVENT-NAME: samples of it in $DATA, and on which CPUs
	perf script -i $DATA -F cpu,event 2>/dev/null | awk -v e="$1:" '$2 == e { n++; c[$1] = 1 }
		END { printf "%d", n + 0; for (k in c) printf " %s", k; print "" }'
}

timer_try() { # NAME PMU EVENT-TERMS SIMBOX
	b="pkg=0 box=$4 idx=0"
	s0=$(box_stat "$2" 4)
	if perf record -q -a -o $DATA -c 1000 -e "$2/$3,name=$1/" -- \
		taskset -c "$CPU0" sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh
			sim_inject '$b count=3500' && sim_inject '$b count=1' && sim_inject '$b count=2499' &&
			until_true '[ \$(box_stat $2 4) -ge $((s0 + 6)) ]'" \
		>/dev/null 2>/tmp/rec.err; then
		is "$(samples "$1")" "6 [$(printf '%03d' "$CPU0")]" "$1: 6000 events at period 1000, 6 samples, all on CPU $CPU0"
		is "$(box_stat "$2" 3)" timer "$1 is sampled by the timer"
	else
		ok false "perf record on $2: $(cat /tmp/rec.err)"
	fi
}
timer_try ib uncore_ibusq qual=0x3 ibusq
timer_try lat uncore_ibusq_lat ibusq_latency lat

# Package 1's reading CPU goes offline and comes back while an event
# counts: the sibling reads on (cpumask follows), then the first CPU again.
c1=$FIRST_1
pstat "$out" -a -e uncore_isnpq/qual=0x10,name=sn/ -- sh -c \
	". /tests/lib/lib.sh; sim_inject 'pkg=1 box=isnpq idx=0 count=100' &&
	 echo 0 > /sys/devices/system/cpu/cpu$c1/online &&
	 cat $PMUS/uncore_isnpq/cpumask > /tmp/mask_off &&
	 sim_inject 'pkg=1 box=isnpq idx=0 count=200' &&
	 echo 1 > /sys/devices/system/cpu/cpu$c1/online &&
	 sim_inject 'pkg=1 box=isnpq idx=0 count=300'"
is "$(val_total "$out" sn)" 600 "isnpq package 1: 100 + 200 + 300 across its reading CPU's offline and online"
# One core per package: the package's other CPU is the sibling.
sib=""
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}
	[ "$n" != "$c1" ] && [ "$(pkg_of_cpu "$n")" = 1 ] && sib=$n
done
is "$(cat /tmp/mask_off)" "$FIRST_0,$sib" "while CPU $c1 is offline its sibling $sib reads package 1"
is "$(cat $PMUS/uncore_isnpq/cpumask)" "$FIRST_0,$sib" "and keeps reading after CPU $c1 is back"
unload_modules
