#!/bin/sh
# The Xeon MP L3 units (NetBurst, family 0Fh model 04h) on a 2-socket guest
# with 2 threads per core: the PMUs and their format, exact counts on every
# counter of every unit on every package, the control half written as
# given and nothing else, the 64-bit latency counter, and bad input with
# the errno perf conventions give it.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=p4mp_lib.sh
. /tests/p4mp/p4mp_lib.sh

load_modules || exit 1
p4_topo
out=/tmp/stat.csv

is "$(cat $SIM/part)" p4mp "the simulator models the Xeon MP L3"
for u in ibusq isnpq efsb ibusq_lat; do
	ok "[ -d $PMUS/uncore_$u ]" "uncore_$u registered"
done
n=0; for d in "$PMUS"/uncore_*; do [ -e "$d" ] && n=$((n + 1)); done
is $n 4 "no other uncore PMU"
for u in ibusq isnpq efsb; do
	is "$(cat $PMUS/uncore_$u/format/qual)" config:0-31 "uncore_$u format: qual is config:0-31"
	is "$(ls $PMUS/uncore_$u/format)" qual "uncore_$u format: qual only"
	is "$(cat $PMUS/uncore_$u/counter_width)" 32 "uncore_$u counters are 32 bits wide"
done
is "$(cat $PMUS/uncore_ibusq_lat/counter_width)" 64 "the latency counter is 64 bits wide"
is "$(cat $PMUS/uncore_ibusq_lat/events/ibusq_latency)" config=0 "latency alias"
# One reading CPU per package: the HT siblings share the registers.
is "$(cat $PMUS/uncore_ibusq/cpumask)" "$FIRST_0,$FIRST_1" "cpumask: one CPU per package ($FIRST_0,$FIRST_1)"
dbg=/sys/kernel/debug/uncore_pmu
is "$(awk '!/^#/ { printf "%s:%s:%s ", $1, $2, $5 }' $dbg/packages)" "0:$FIRST_0:1 1:$FIRST_1:1 " \
	"debugfs packages: both up, read by their first CPUs"
# A part without a PMI lists its packages there too, none routing one.
is "$(awk '!/^#/ { printf "%s ", $2 }' $dbg/pmi)" "-1 -1 " "debugfs pmi: no package routes a PMI"

# Both counters of each unit on each package, a distinct count each. The
# first event of a unit takes counter 0; the state dump taken while they
# count shows each MSR's control half is the event's qual, verbatim.
events="" cmds=""
for u in $UNITS; do
	events="$events${events:+,}uncore_$u/qual=0x1,name=${u}0/,uncore_$u/qual=0x4000002,name=${u}1/"
	for p in $PKGS; do
		for i in 0 1; do
			cmds="$cmds inject 'pkg=$p box=$u idx=$i count=$((100 + 1000 * p + 10 * i + ${#u}))';"
		done
	done
done
events="$events,uncore_ibusq_lat/ibusq_latency,name=lat/"
for p in $PKGS; do
	cmds="$cmds inject 'pkg=$p box=lat idx=0 count=$(( (1 << 33) + 7 + p ))';"
done
pstat "$out" -a -A -e "$events" -- sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; $cmds cat $SIM/state > /tmp/during"
for u in $UNITS; do
	for p in $PKGS; do
		for i in 0 1; do
			is "$(val_cpu "$out" "$(first_cpu "$p")" "$u$i")" $((100 + 1000 * p + 10 * i + ${#u})) \
				"$u counter $i, package $p: exact"
		done
		for i in 0 1; do
			v=$(p4_field "$p" "$(msr_of "$u" $i)" val /tmp/during)
			want=0x00000001
			[ $i = 0 ] || want=0x04000002
			is "${v%????????}" $want "$u counter $i, package $p: control half is the qual, verbatim"
			is "$(p4_field "$p" "$(msr_of "$u" $i)" counting)" 0 "$u counter $i, package $p: stopped after perf"
		done
	done
done
for p in $PKGS; do
	is "$(val_cpu "$out" "$(first_cpu "$p")" lat)" $(( (1 << 33) + 7 + p )) \
		"latency package $p: 2^33 + $((7 + p)) counted in one go (64-bit counter)"
done

# The driver's own writes: none of an MSR it does not have, and the sim
# saw no access fault.
for p in $PKGS; do
	is "$(p4_stat "$p" faults)" 0 "package $p: no access to a missing MSR"
done

# Bad input, straight through perf_event_open (tests/vm/bin/badinput.c).
/tests/bin/badinput p4mp

# perf's own view of the same refusals.
ok "refused uncore_ibusq/qual=0/" "perf: qual=0 refused"
ok "refused uncore_ibusq/qual=0x8000001/" "perf: qual with Saturate (bit 27, MSR bit 59) refused"
ok "refused uncore_ibusq_lat/config=1/" "perf: a config bit on the latency pair refused"

unload_modules
