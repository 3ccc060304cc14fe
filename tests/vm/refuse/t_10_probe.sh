#!/bin/sh
# Parts the driver must not bind (tools/vm/parts.tsv): family 0Fh model 04h
# without an L3 (p4mp-nol3: a Pentium 4 or Xeon DP, which has none of the
# Xeon MP's L3 counters) and family 0Fh model 06h (xeon7100: other L3
# counters at the same MSRs). Loading says why and registers no PMU; the
# simulator, which has no model of either, refuses to load too.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

part=$(sed -n 's/.*uncore\.part=\([a-z0-9-]*\).*/\1/p' /proc/cmdline)
case $part in
p4mp-nol3) why="family 0Fh model 04h without an L3: no iFSB/L3 counters" ;;
xeon7100) why="MSRs 0x107cc-0x107d3 of family fh model 06h are the Xeon 7100/7400 L3 counters, which this driver does not support" ;;
*) echo "not ok - unknown part '$part'"; exit 1 ;;
esac
diag "part $part: $(grep -m1 'model name' /proc/cpuinfo)"

ok "! insmod $MODDIR/uncore_sim.ko" "$part: the simulator has no model and does not load"
ok "dmesg | grep -q 'uncore_sim: no model of a part with CPUID vendor 0 family fh model 0[46]h'" \
	"$part: the simulator says why"
ok "! insmod $MODDIR/uncore_pmu.ko" "$part: the driver does not load"
ok "dmesg | grep -qF 'uncore_pmu: $why'" "$part: the driver says why"
n=0; for d in "$PMUS"/uncore_*; do [ -e "$d" ] && n=$((n + 1)); done
is $n 0 "$part: no uncore PMU registered"
