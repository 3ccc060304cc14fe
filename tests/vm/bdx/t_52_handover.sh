#!/bin/sh
# timeout: 300
# The end of a move: the old reading CPU must be done with the package's
# PMI before the new one takes it over (Documentation/uncore_pmu.rst, "The
# PMI protocol"). Two test hooks widen the window: the new CPU waits,
# IRQs off, before it routes the PMI to itself (handover_delay_ms), and a
# pass of the handler holds the route it is about to write
# (pass_delay_ms). Meanwhile an NMI reaches the old CPU, which spins in
# the hotplug callback's IPI wait with IRQs on. If the old route still
# takes it (a PMI is owed after every PMI), that pass writes the old
# route after the new CPU wrote its own: the next PMI goes to a core that
# is gone and the package stays frozen.
#
# Package 1: x86 does not take CPU 0 offline.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

DATA=/tmp/perf.data
DBG=/sys/kernel/debug/uncore_pmu
# Decided from the topology alone, before anything loads: the debug
# guest's packages have one core the PMI reaches.
r1=$(pkg_first_cpu 1)
# The CPU the driver moves package 1 to: the lowest-numbered other one
# online, one the PMI reaches (pmi_core_sel: cores 0-17) if there is one.
to=""
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}
	if [ -z "$r1" ] || [ "$n" = "$r1" ] || [ "$(pkg_of_cpu "$n")" != 1 ] ||
		[ "$(cat "$c/online" 2>/dev/null || echo 1)" != 1 ] ||
		[ "$(cat "$c/topology/core_id")" -ge 18 ]; then
		continue
	fi
	if [ -z "$to" ] || [ "$n" -lt "$to" ]; then
		to=$n
	fi
done
if [ -z "$to" ] || [ "$(cat /sys/devices/system/cpu/cpu"$to"/topology/core_id)" = \
	"$(cat /sys/devices/system/cpu/cpu"$r1"/topology/core_id)" ]; then
	skip "a hand-over of package 1's PMI" "no second core of package 1 the PMI reaches"
	exit 0
fi
load_modules || exit 1
nmi_mark t_52
core_to=$(cat /sys/devices/system/cpu/cpu"$to"/topology/core_id)
ub="pkg=1 box=ubox idx=0 event=0x42 umask=0x08"
samples() { perf script -i $DATA -F event 2>/dev/null | grep -c "^ *$1:"; }

# The hooks, scaled for slow guests: the hand-over waits long enough for
# this script to see it start and send the NMI, the pass longer still.
s=$((UNCORE_TIMEOUT_SCALE > 3 ? 3 : UNCORE_TIMEOUT_SCALE))
hand_ms=$((1500 * s))
pass_ms=$((hand_ms + 1500 * s))
cat >/tmp/t52.sh <<EOF
. /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh
# One PMI: a PMI is owed from now on, the next NMI is taken for it.
sim_inject '$ub count=1000' && sim_settle 1 || exit 1
echo $pass_ms >$DBG/pass_delay_ms
echo $hand_ms >$DBG/handover_delay_ms
nmi_mark t_52_move
echo 0 >/sys/devices/system/cpu/cpu$r1/online &
until_true 'dmesg | sed -n "/nmi-mark t_52_move\\\$/,\\\$p" | grep -q "test hook: package 1.s PMI goes to CPU $to"' || exit 1
echo 'nmi cpu=$r1' >$SIM/fault
wait
awk '\$1 == "1" { print \$4 }' $DBG/pmi >/tmp/passes
echo 0 >$DBG/pass_delay_ms
echo 0 >$DBG/handover_delay_ms
printf '%d\n' \$(( \$(sim_state | sed -n 's/^pkg1 global ctl=\(0x[0-9a-f]*\) .*/\1/p') & 0x3ffff )) >/tmp/sel
# The next PMI must reach the new reading CPU.
sim_inject '$ub count=1000' && sim_settle 1
EOF
perf record -q -a -o $DATA -c 1000 -e 'uncore_ubox/event=0x42,umask=0x08,name=ub/' -- \
	sh /tmp/t52.sh >/dev/null 2>/tmp/rec.err
rc=$?
[ $rc = 0 ] || diag "perf record: $(cat /tmp/rec.err)"
echo 0 >$DBG/pass_delay_ms
echo 0 >$DBG/handover_delay_ms
is "$(cat /sys/devices/system/cpu/cpu"$r1"/online)" 0 "CPU $r1, package 1's reading CPU, went offline"
is "$(tr ',' '\n' <"$PMUS/uncore_ubox/cpumask" | sed -n 2p)" "$to" "package 1 is read on CPU $to now"
is "$(cat /tmp/passes)" 1 "the NMI on CPU $r1 in the hand-over ran no pass there: one pass, the first PMI's"
is "$(cat /tmp/sel)" $((1 << core_to)) "pmi_core_sel names core $core_to of CPU $to alone after the hand-over"
is "$rc" 0 "package 1 settled after the overflow that followed"
is "$(samples ub)" 2 "2000 UBox events at period 1000: 2 samples, one before the move, one after"
is "$(sim_state | sed -n 's/^pkg1 global .* frozen=\([01]\).*/\1/p')" 0 "package 1 is not left frozen"
is "$(unknown_nmis_since t_52)" 0 "no unknown NMI"
is "$(sim_violations)" 0 "no reserved bit written"
echo 1 >"/sys/devices/system/cpu/cpu$r1/online"
unload_modules
