#!/bin/sh
# timeout: 300
# A package's reading CPU moves while an overflow is on its way. perf
# moves one pmu's events at a time, each after a grace period; the UBox is
# a package's first pmu, R3QPI 1 its last. An overflow of R3QPI 1 is
# injected with its freeze held back, then the reading CPU goes offline:
# the UBox's sampling event reaches the new reading CPU long before R3QPI
# 1's does. The PMI must not move to the new CPU while R3QPI 1's event is
# still on the old one, and the overflow's sample must not get lost on the
# way: 3000 events at period 1000 are 3 samples.
#
# Package 1: x86 does not take CPU 0 offline.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
DATA=/tmp/perf.data
r1=$(first_cpu 1)
# The move must go to a CPU the PMI reaches (pmi_core_sel: cores 0-17).
to=""
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}
	[ "$n" != "$r1" ] && [ -n "$r1" ] && [ "$(pkg_of_cpu "$n")" = 1 ] &&
		[ "$(cat "$c/topology/core_id")" -lt 18 ] && to=$n
done
if [ -z "$to" ] || [ ! -d "$PMUS/uncore_r3qpi_1" ]; then
	skip "a move of package 1" "no package 1 with R3QPI 1 and a second CPU the PMI reaches"
	unload_modules
	exit 0
fi
# Helpers the recording's workload uses too.
cat >/tmp/t57.sh <<'END'
pkg1_samples() { awk -v p="$1" -v c="$2" '$1 == p && $2 == 1 { print $c }' /sys/kernel/debug/uncore_pmu/samples; }
r3="pkg=1 box=r3qpi idx=1 event=0x07 umask=0x01"
ub="pkg=1 box=ubox idx=0 event=0x42 umask=0x08"
END
# shellcheck source=/dev/null
. /tmp/t57.sh
pkg1_pmi() { awk -v c="$1" '$1 == "1" { print $c }' /sys/kernel/debug/uncore_pmu/pmi; }
samples() { perf script -i $DATA -F event 2>/dev/null | grep -c "^ *$1:"; }

s0=$(pkg1_samples uncore_r3qpi_1 4)
# Held longer than the UBox's move takes, shorter than the whole move may.
delay_s=$((UNCORE_TIMEOUT_SCALE > 2 ? 4 : 2))
echo $((delay_s * 1000000000)) >"$SIMPARAM/freeze_delay_ns"
perf record -q -a -o $DATA -c 1000 \
	-e 'uncore_ubox/event=0x42,umask=0x08,name=ub/' \
	-e 'uncore_r3qpi_1/event=0x07,umask=0x01,name=rqpi/' -- \
	sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tmp/t57.sh
		sim_inject \"\$r3 count=1000\" || exit 1
		sim_state | sed -n 's/^pkg1 global .* freeze_pending=\([01]\).*/\1/p' >/tmp/pending
		echo 0 >/sys/devices/system/cpu/cpu$r1/online
		sim_settle 1 || exit 1
		sim_inject \"\$r3 count=2000\" && sim_inject \"\$ub count=1000\" || exit 1
		sim_settle 1 &&
			until_true '[ \$(pkg1_samples uncore_r3qpi_1 4) -ge $((s0 + 3)) ]'" \
	>/dev/null 2>/tmp/rec.err
rc=$?
[ $rc = 0 ] || diag "perf record: $(cat /tmp/rec.err)"
echo 1000 >"$SIMPARAM/freeze_delay_ns"
is "$(cat /tmp/pending)" 1 "the overflow's freeze was pending when CPU $r1 went offline"
is "$rc" 0 "package 1 settled after the move and the late freeze"
new=$(tr ',' '\n' <"$PMUS/uncore_r3qpi_1/cpumask" | tail -n1)
is "$(pkg1_pmi 2)" "$new" "package 1's PMI goes to its new reading CPU $new"
is "$(samples rqpi)" 3 "3000 R3QPI 1 events at period 1000: 3 samples, one owed from before the move"
is "$(samples ub)" 1 "1000 UBox events: one sample"
is "$(sim_state | sed -n 's/^pkg1 global .* frozen=\([01]\).*/\1/p')" 0 "package 1 is not left frozen"
is "$(sim_violations)" 0 "no reserved bit written"
echo 1 >"/sys/devices/system/cpu/cpu$r1/online"
unload_modules
