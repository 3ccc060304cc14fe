#!/bin/sh
# timeout: 300
# The PMI names a core (pmi_core_sel, manual Table 2-2), and both threads of
# a core have its core ID. After hotplug the reading CPU can be thread 1 of
# a core whose thread 0 is online; the simulator then delivers the PMI to
# thread 0 (the lowest online CPU of the core), as the part may. The driver
# takes the PMI on either thread and handles it on the reading CPU: three
# overflows of package 1's iMC 0 give exactly three samples, on the reading
# CPU, and leave nothing frozen. Needs a guest with two threads per core
# (make check's stocksmt guest).
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

CPUS=/sys/devices/system/cpu
sib=$(cat $CPUS/cpu0/topology/thread_siblings_list)
case $sib in
*,* | *-*) ;;
*)
	skip "PMI taken on the reading CPU's hyperthread" "no SMT in this guest"
	exit 0
	;;
esac

load_modules || exit 1
nmi_mark t_56
topo_init
DATA=/tmp/perf.data
T0=$(first_cpu 1)
# The other thread of T0's core.
T1=$(sed 's/[,-]/\n/g' "$CPUS/cpu$T0/topology/thread_siblings_list" | grep -vx "$T0" | head -n1)
diag "package 1: reading CPU $T0, its sibling $T1"

# reader PKG: package PKG's reading CPU, from uncore_imc_0's cpumask.
reader() {
	for c in $(tr ',' ' ' <"$PMUS/uncore_imc_0/cpumask"); do
		[ "$(pkg_of_cpu "$c")" = "$1" ] && echo "$c"
	done
}

echo 0 >"$CPUS/cpu$T0/online"
echo 1 >"$CPUS/cpu$T0/online"
is "$(reader 1)" "$T1" "package 1 is read by thread 1 of its core ($T1) with thread 0 ($T0) online"

b="pkg=1 box=imc idx=0 event=0x04 umask=0x01"
nmi0=$(awk '$1 == "1" { print $3 }' /sys/kernel/debug/uncore_pmu/pmi)
if perf record -q -a -o $DATA -c 1000 -e 'uncore_imc_0/event=0x04,umask=0x03,name=imc/' -- \
	sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh
		for i in 1 2 3; do sim_inject '$b count=1000' && sim_settle 1 || exit 1; done" \
	>/dev/null 2>/tmp/rec.err; then
	ok 0 "three overflows of package 1 settled (no freeze left)"
else
	ok 1 "three overflows of package 1 settled: $(cat /tmp/rec.err)"
fi
is "$(perf script -i $DATA -F cpu,event 2>/dev/null | awk -v c="[$(printf %03d "$T1")]" '$1 == c && $2 == "imc:"' | wc -l)" 3 \
	"3000 events at period 1000: three samples, on the reading CPU $T1"
is "$(( $(awk '$1 == "1" { print $3 }' /sys/kernel/debug/uncore_pmu/pmi) - nmi0 ))" 3 \
	"three PMIs claimed, each taken on thread 0"
is "$(sim_state | sed -n 's/^pkg1 global .* frozen=\([01]\).*/\1/p')" 0 "package 1 not frozen"
is "$(unknown_nmis_since t_56)" 0 "no unknown NMI"
unload_modules
