#!/bin/sh
# timeout: 300
# Faults and other agents on the NetBurst Xeon MP (tests/vm/bdx/t_65_faults.sh
# has every kind on Broadwell). An MSR fault: the MSR of the IBUSQ unit's
# counter 0, which holds both the counter and its control half, raises #GP
# for a while, an ISNPQ event counts beside it (uncore_lib.sh,
# msr_fault_case()); the fault must end through this part's own counter
# read. Another agent: its write is not detected on this part
# (Documentation/uncore_pmu.rst, "Faults and other agents"), and this
# pins down what perf shows then.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=p4mp_lib.sh
. /tests/p4mp/p4mp_lib.sh

load_modules || exit 1
p4_topo
msr_fault_case "$(msr_of ibusq 0)" uncore_ibusq uncore_isnpq \
	"pkg=0 box=ibusq idx=0" "pkg=0 box=isnpq idx=0" \
	'uncore_ibusq/qual=0x1,name=a/,uncore_isnpq/qual=0x1,name=b/' "$FIRST_0"

# --- another agent writes an IBUSQ MSR ---------------------------------------
# Once the driver has read the 100 its IBUSQ event counted, another agent
# starts its own measurement in that MSR, as a tool with its own
# qualification and a zeroed count would. The driver reads the control
# half back nowhere: it reports nothing and takes the count's fall to 0
# for a wrap, so that the event shows its 100, 2^32 less the count the
# agent found, and the 200 counted after it. That count is 700, not 100:
# counts outlive their events, and the fault case above left 600 in the
# MSR. Stopping the event clears the other agent's control half. The
# ISNPQ event counts on.
echo 50 >/sys/module/uncore_pmu/parameters/poll_max_ms
mark="t_65 foreign $(date +%s%N)"
echo "uncore-test: $mark" >/dev/kmsg
said() { dmesg | sed -n "/$mark\$/,\$p" | grep -c "$1"; }
cat >/tmp/foreign.sh <<'EOF'
. /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tests/p4mp/p4mp_lib.sh
# reads: the driver's MSR reads of the IBUSQ unit on package 0.
reads() { awk '$1 == "uncore_ibusq" && $2 == 0 { print $3 }' /sys/kernel/debug/uncore_pmu/access; }
# Both MSRs of each unit: the one the event does not hold drops them.
inj() {
	inject "pkg=0 box=ibusq idx=0 count=$1" "pkg=0 box=ibusq idx=1 count=$1" \
		"pkg=0 box=isnpq idx=0 count=$1" "pkg=0 box=isnpq idx=1 count=$1"
}
# settle: a read of the driver's timer began since now (one read a pass).
settle() {
	n=$(reads)
	until_true "[ \$(reads) -ge $((n + 2)) ]"
}
{ inj 100 && settle; } || exit 1
msr=""
for m in 0x107cc 0x107cd; do
	[ $(($(p4_field 0 $m val) >> 32)) -eq 1 ] && msr=$m
done
[ -n "$msr" ] || { diag "no IBUSQ MSR with qual 0x1"; exit 1; }
echo "$msr" >/tmp/foreign.msr
echo $(($(p4_field 0 "$msr" val) & 0xffffffff)) >/tmp/foreign.found
echo "pkg=0 msr=$msr value=$((0x2 << 32))" >/sys/kernel/debug/uncore_sim/msr || exit 1
settle && inj 200
EOF
out=/tmp/stat.csv
if pstat "$out" --no-scale -a -A -e 'uncore_ibusq/qual=0x1,name=a/,uncore_isnpq/qual=0x1,name=b/' -- \
	sh /tmp/foreign.sh; then
	is "$(val_cpu "$out" "$FIRST_0" a) $(val_cpu "$out" "$FIRST_0" b)" \
		"$((100 + (1 << 32) - $(cat /tmp/foreign.found) + 200)) 300" \
		"another agent's write: the IBUSQ event takes its zeroed count for a wrap, ISNPQ counts on"
fi
is "$(said "another agent")" 0 "nothing reported: the control half is not read back"
msr=$(cat /tmp/foreign.msr)
is "$(p4_field 0 "$msr" val)" 0x00000000000000c8 \
	"the event's stop cleared the other agent's control half, its count kept"
echo 3600000 >/sys/module/uncore_pmu/parameters/poll_max_ms
unload_modules
