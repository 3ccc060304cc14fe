#!/bin/sh
# CPU hotplug: the reading CPU of a package goes offline while counting and
# the count goes on exactly on another CPU of the package; a package that
# loses every CPU stops its boxes cleanly and counts again when it returns.
#
# perf stat's -A and --per-socket output cannot place a CPU that is offline
# when it prints (it shows "<not counted>" though the count is there), so
# the events here are on a CBo only package 1 has, and counts aggregated.
# timeout: 300
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
out=/tmp/stat.csv
cpu_online() { echo "$2" > "/sys/devices/system/cpu/cpu$1/online"; }

n=0 cbo=""
while [ $n -lt 24 ]; do
	if has_cbo 1 $n && ! has_cbo 0 $n; then cbo=$n; break; fi
	n=$((n + 1))
done
ok "[ -n '$cbo' ]" "package 1 has a CBo package 0 lacks (CBo $cbo)"
pmu=uncore_cbox_$cbo

r1=$(first_cpu 1)
others=$(for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}; [ "$(pkg_of_cpu "$n")" = 1 ] && [ "$n" != "$r1" ] && echo "$n"; done | sort -n | tr '\n' ' ')
next=${others%% *}
inj="sim_inject 'pkg=1 box=cbox idx=$cbo event=0x35 umask=0x08"

pstat $out -a -e "$pmu/event=0x35,umask=0x8,name=hp/" -- \
	sh -c ". /tests/lib/lib.sh; $inj count=100'; echo 0 > /sys/devices/system/cpu/cpu$r1/online; $inj count=200'"
is "$(val_total "$out" hp)" 300 "package 1 counts across the offlining of its reading CPU $r1"
is "$(cat "$PMUS"/$pmu/cpumask)" "$next" "cpumask moved to CPU $next"
is "$(cat "$PMUS"/uncore_cbox_3/cpumask)" "$(first_cpu 0),$next" "every package-1 box moved (cbox_3: $(first_cpu 0),$next)"
cpu_online "$r1" 1
# A reading CPU stays when another comes back, unless the PMI cannot reach
# it (core IDs 18 and up; t_55) and can reach the one that came.
if [ "$(cat "/sys/devices/system/cpu/cpu$next/topology/core_id")" -lt 18 ]; then
	is "$(cat "$PMUS"/$pmu/cpumask)" "$next" "reading CPU stays $next when $r1 returns"
else
	is "$(cat "$PMUS"/$pmu/cpumask)" "$r1" "reading CPU $next, beyond the PMI's reach, gives way to $r1"
fi

# Package 1 loses every CPU while an event is open on it. Its event is
# parked, off, for the rest of the run: perf would scale its count up.
pstat "$out" --no-scale -a -e "$pmu/event=0x35,umask=0x8,name=gone/" -- \
	sh -c ". /tests/lib/lib.sh; $inj count=7'; for c in $r1 $others; do echo 0 > /sys/devices/system/cpu/cpu\$c/online; done; $inj count=1000'"
is "$(val_total "$out" gone)" 7 "package 1 keeps what it counted before its last CPU left"
is "$(cat "$PMUS"/$pmu/cpumask)" "" "$pmu cpumask empty with package 1 offline"
is "$(cat "$PMUS"/uncore_cbox_3/cpumask)" "$(first_cpu 0)" "cbox_3 cpumask without package 1"

for c in $r1 $others; do cpu_online "$c" 1; done
is "$(cat "$PMUS"/uncore_cbox_3/cpumask)" "$(first_cpu 0),$r1" "package 1 back: first CPU to return reads it"
pstat "$out" -a -e "$pmu/event=0x35,umask=0x8,name=back/" -- sh -c ". /tests/lib/lib.sh; $inj count=42'"
is "$(val_total "$out" back)" 42 "package 1 counts exactly again"

unload_modules
