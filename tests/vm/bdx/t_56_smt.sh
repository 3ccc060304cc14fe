#!/bin/sh
# timeout: 300
# The PMI names a core (pmi_core_sel, manual Table 2-2), and both threads of
# a core have its core ID. After hotplug the reading CPU can be thread 1 of
# a core whose thread 0 is online; the simulator then delivers the PMI to
# thread 0 (the lowest online CPU of the core), as the part may. The driver
# takes the PMI on either thread and handles it on the reading CPU: three
# overflows of package 1's iMC 0 give exactly three samples, on the reading
# CPU, and leave nothing frozen. Then a pass run on thread 0 itself
# beside a PCI box's removal (review N12, below). Needs a guest with two
# threads per core (make check's stocksmt guests; debugsmt under KASAN).
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

# Review N12: the walk of status no sampling event claims
# (uncore_clear_stale()) must not load PCI boxes, which removal frees, an
# eventless one as soon as its kill IPI to the reading CPU returns. A
# walk on the reading CPU holds that IPI off; one on the sibling that
# took the NMI does not. The sibling runs a pass itself only during a
# move, under the hotplug lock that removal also takes: a test hook
# (forward_unreachable) makes it do so here, outside one. Another holds
# the walk once it has loaded uncore_imc_0's box (stale_delay_*), while
# package 1's channel 0 is unbound. With boxes loaded before their type
# is tested (the order before ebd67da), the held walk reads the box
# freed, and the check that it loaded none fails. The status is an
# overflow no event of the driver's has: UBox counter 0 of package 1,
# programmed through the simulator's "msr" with ov_en (event 0x42,
# umask 0x08) and preloaded to wrap at the next event. CTL0 0x705,
# BOX_STATUS 0x708, CTR0 0x709: BDX manual Table 2-5, as in t_35.
DBG=/sys/kernel/debug/uncore_pmu
DRV=/sys/bus/pci/drivers/uncore_pmu
imc0_init
dev=$(imc0_dev 1)
umsr() { printf 'pkg=1 msr=%s value=%s\n' "$1" "$2" >"$SIM/msr"; }
umsr 0x709 $(((1 << 48) - 1))
umsr 0x705 0x500842
cat "$PMUS/uncore_imc_0/type" >$DBG/stale_delay_type
# The hold ends when the box is gone; its bound, for a run in which this
# script is too slow to unbind it, keeps well below RCU's stall timeout
# (21 s; a debug guest's vCPU that spins makes its clock run fast).
echo $((UNCORE_TIMEOUT_SCALE > 3 ? 6000 : 2000 * UNCORE_TIMEOUT_SCALE)) >$DBG/stale_delay_ms
echo 1 >$DBG/forward_unreachable
nmi_mark t_56_stale
since() { dmesg | sed -n "/nmi-mark t_56_stale\$/,\$p" | grep -c "$1"; }
sim_inject 'pkg=1 box=ubox event=0x42 umask=0x08 count=1'
ok "until_true '[ \$(since \"pass runs on CPU $T0,\") = 1 ]'" \
	"an overflow no event claims: its PMI's pass on thread 0 ($T0), the test hook's"
echo "$dev" >$DRV/unbind
ok "sim_settle 1" "package 1 settled, $dev unbound"
is "$(since "package 1's stale-status walk for 0x.* on CPU $T0\$")" 1 "that pass walked package 1's unclaimed status, on CPU $T0"
is "$(since 'walk holds uncore_imc_0')" 0 "the walk loaded no PCI box (uncore_imc_0's held it not)"
echo 0 >$DBG/stale_delay_ms
echo 0 >$DBG/forward_unreachable
umsr 0x705 0
umsr 0x708 1
echo "$dev" >$DRV/bind
is "$(tr ',' '\n' <"$PMUS/uncore_imc_0/cpumask" | sed -n 2p)" "$T1" "$dev bound again, read by CPU $T1"
is "$(unknown_nmis_since t_56_stale)" 0 "no unknown NMI after"
is "$(sim_violations)" 0 "no reserved bit written"
unload_modules
