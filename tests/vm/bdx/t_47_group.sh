#!/bin/sh
# timeout: 300
# A group is scheduled as a unit (perf's transactions, Documentation/
# uncore_pmu.rst "Groups"). Four identical CBo events in one group and a
# fifth outside it need five counters of four, so perf multiplexes them,
# every millisecond here. No member of the group may count unless the whole
# group is on the box, and the members start and stop together: they count
# exactly the same, and a member plus the fifth event never count more than
# was injected. Injected from two CPUs other than the reading one, the
# events land at any moment of perf's rescheduling; injected from the
# reading CPU, never during it, and the two then add up exactly.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
CPU0=$(first_cpu 0)
pmu=$(lowest_box cbox has_cbo 24) || { echo "not ok - package 0 has a CBo"; exit 1; }
idx=${pmu##*_}
out=/tmp/stat.csv
N=$((1500 / UNCORE_TIMEOUT_SCALE))
ev="event=0x35,umask=0x08"
line="pkg=0 box=cbox idx=$idx event=0x35 umask=0x08 count=1"
EVENTS="{$pmu/$ev,name=g1/,$pmu/$ev,name=g2/,$pmu/$ev,name=g3/,$pmu/$ev,name=g4/},$pmu/$ev,name=solo/"

# Two online CPUs other than the reading one.
OTHERS=$(for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}
	[ "$n" = "$CPU0" ] && continue
	[ "$(cat "$c/online" 2>/dev/null || echo 1)" = 1 ] && echo "$n"
done | head -n2 | tr '\n' ' ')
A=${OTHERS%% *} B=${OTHERS#* }
B=${B%% *}
B=${B:-$A}

echo 1 >"$PMUS/$pmu/perf_event_mux_interval_ms"

# run CPU CPU: perf stat of EVENTS while each CPU injects N single events.
run() {
	pstat "$out" --no-scale -a -A -e "$EVENTS" -- sh -c "
		for c in $1 $2; do
			taskset -c \$c sh -c 'i=0; while [ \$i -lt $N ]; do echo \"$line\" >$SIM_INJECT; i=\$((i + 1)); done' &
		done
		wait"
}
# field EVENT COLUMN: a column of package 0's line for EVENT (2 count,
# 5 time running, 6 percentage running).
field() { awk -F, -v c="CPU$CPU0" -v n="$1" -v k="$2" '$1 == c && $4 == n { print $k }' "$out"; }
members() { echo "$(field g1 "$1") $(field g2 "$1") $(field g3 "$1") $(field g4 "$1")"; }
# shellcheck disable=SC2086 # the four words of $1
same4() { set -- $1; [ "$1" = "$2" ] && [ "$1" = "$3" ] && [ "$1" = "$4" ]; }

check() { # WHERE TOTAL
	m=$(members 2) t=$(members 5)
	g=$(field g1 2) s=$(field solo 2)
	diag "$1: members $m, solo $s; running $t and $(field solo 5); $(field g1 6)% and $(field solo 6)%"
	ok "[ ${g:-0} -gt 0 ] && [ ${s:-0} -gt 0 ]" "$1: perf multiplexed the group and the fifth event, both counted"
	ok "same4 '$m'" "$1: the four members count the same: $m"
	ok "same4 '$t'" "$1: and ran for the same time"
}

if run "$A" "$B"; then
	check "injected from CPUs $A and $B" $((2 * N))
	ok "[ $(( $(field g1 2) + $(field solo 2) )) -le $((2 * N)) ]" \
		"injected from CPUs $A and $B: a member plus the fifth event count at most the $((2 * N)) injected"
fi
if run "$CPU0" "$CPU0"; then
	check "injected from the reading CPU" $((2 * N))
	is "$(( $(field g1 2) + $(field solo 2) ))" $((2 * N)) \
		"injected from the reading CPU: a member plus the fifth event count exactly the $((2 * N)) injected"
fi
is "$(sim_violations)" 0 "no reserved bit written (box freezes included)"
unload_modules
