#!/bin/sh
# timeout: 300
# A package numbered past those the driver counted at load (review
# pmi-protocol N21). 6.1 gives a socket hot-added after load the next
# logical package id, whatever topology_max_packages() said at load; the
# test_max_pkgs=1 parameter makes package 1 such a package. Its CPUs
# going offline and online, its uncore bus and the NMIs its CPUs take are
# passed over, never used as an index of the per-package state (KASAN,
# in the debug guest, sees an access past it); package 0 counts and
# samples as ever, exactly.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

nmi_mark t_53
load_modules test_max_pkgs=1 || exit 1
topo_init
C0=$(first_cpu 0)
C1=$(first_cpu 1)
if [ -z "$C1" ]; then
	skip "a package past the driver's" "one package"
	unload_modules
	exit 0
fi
out=/tmp/stat.csv
DATA=/tmp/perf.data

ok "dmesg | grep -q 'CPU [0-9]*: package 1 came after load; its uncore is not driven'" \
	"package 1's CPUs: passed over, and the log says so"
ok "dmesg | grep -q 'maps to no package; its boxes are not registered'" \
	"package 1's uncore bus: passed over, and the log says so"
is "$(cat $PMUS/uncore_ubox/cpumask)" "$C0" "uncore_ubox reads package 0 only, from CPU $C0"
is "$(cat $PMUS/uncore_imc_0/cpumask)" "$C0" "uncore_imc_0 (a PCI box) is package 0's only"
is "$(grep -vc '^#' /sys/kernel/debug/uncore_pmu/packages)" 1 "debugfs packages: package 0 alone"

# Package 1's CPUs go offline and come back: the callbacks pass over them.
P1=$(cpus_of_pkg 1)
for c in $P1; do
	echo 0 >/sys/devices/system/cpu/cpu"$c"/online
done
for c in $P1; do
	echo 1 >/sys/devices/system/cpu/cpu"$c"/online
done
is "$(cat /sys/devices/system/cpu/cpu"$C1"/online)" 1 "package 1's CPUs went offline and came back"

# Counting and sampling on package 0, with backtrace NMIs on every CPU,
# package 1's included, in between: the NMI handler passes over theirs.
# The backtraces are reports the host is told not to count; a report of
# any other kind in that window is looked for here instead.
cbo="pkg=0 box=cbox idx=0 event=0x35 umask=0x08"
imc="pkg=0 box=imc idx=0 event=0x04 umask=0x01"
pstat "$out" -a -e uncore_cbox_0/event=0x35,umask=0x8,name=cb/ -- \
	perf record -q -a -o $DATA -c 1000 -e uncore_imc_0/event=0x04,umask=0x03,name=im/ -- \
	sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh
		sim_inject '$cbo count=700' && sim_inject '$imc count=3000' && sim_settle 0 &&
		expect_kernel_report_begin; echo l >/proc/sysrq-trigger; expect_kernel_report_end
		sim_inject '$cbo count=300'" >/dev/null 2>/tmp/rec.err
is "$(dmesg | sed -n '/uncore-test: nmi-mark t_53$/,$p' |
	grep -cE 'KASAN:|UBSAN:|BUG:|WARNING:|general protection fault')" 0 \
	"no KASAN, UBSAN, BUG or WARNING report while every CPU took a backtrace NMI"
is "$(val_total "$out" cb)" 1000 "package 0's CBo 0 counts its 1000"
is "$(perf script -i $DATA -F event 2>/dev/null | grep -c 'im:')" 3 \
	"package 0's iMC 0: 3000 at period 1000, 3 samples"
is "$(unknown_nmis_since t_53)" 0 "no unknown NMI"
is "$(sim_violations)" 0 "no reserved bit written"
unload_modules
ok "! module_loaded uncore_pmu" "the driver unloads"
