#!/bin/sh
# timeout: 300
# Faults of the hardware (Documentation/uncore_pmu.rst, "Faults and other
# agents"), each raised by the simulator's fault file while perf counts:
# an MSR box whose registers raise #GP, a PCI box gone from under the driver
# (config reads answer all ones), a box whose counters stop, an unrelated
# NMI in the middle of the overflow sequence, and another agent writing a
# counter's control behind perf's back. The driver reports each once, keeps
# every other box exact, never counts all ones, and recovers when the fault
# clears.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
nmi_mark t_65
topo_init
FAULT=$SIM/fault
PARAM=/sys/module/uncore_pmu/parameters
CPU0=$(first_cpu 0)
out=/tmp/stat.csv
# Boxes read every 50 ms: faults and foreign writes show soon.
echo 50 >"$PARAM/poll_max_ms"

# The first two CBos of package 0.
a="" b="" n=0
while [ $n -lt 24 ] && [ -z "$b" ]; do
	if has_cbo 0 $n && [ -d "$PMUS/uncore_cbox_$n" ]; then
		if [ -z "$a" ]; then a=$n; else b=$n; fi
	fi
	n=$((n + 1))
done
[ -n "$b" ] || { echo "not ok - package 0 has two CBos"; exit 1; }
A=uncore_cbox_$a B=uncore_cbox_$b
ia="pkg=0 box=cbox idx=$a event=0x35 umask=0x08"
ib="pkg=0 box=cbox idx=$b event=0x35 umask=0x08"
cbos="$A/event=0x35,umask=0x8,name=a/,$B/event=0x35,umask=0x8,name=b/"

mark=0
# new_mark: a kernel log line that the next said() counts from.
new_mark() {
	mark=$((mark + 1))
	echo "uncore-test: t_65 mark $mark" >/dev/kmsg
}
# said PATTERN: lines of the kernel log since the last mark matching it.
said() { dmesg | sed -n "/t_65 mark $mark\$/,\$p" | grep -c "$1"; }
# hits: the hits of the only armed rule.
hits() { sed -n 's/.* hits=\([0-9]*\)$/\1/p' "$FAULT"; }

PRE=". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh"

# --- #GP on every MSR of CBo a ---------------------------------------------
base=$((0xe00 + 0x10 * a))
msr_fault_case "$base-$((base + 15))" "$A" "$B" "$ia" "$ib" "$cbos" "$CPU0"
echo 50 >"$PARAM/poll_max_ms"

# A lost enabling write: the event does not count until the box answers,
# then its control is written again.
lost_write() {
new_mark
cat >/tmp/steps.sh <<EOF
$PRE
until_true '[ "\$(sed -n "s/.* hits=\([0-9]*\)\$/\1/p" $FAULT)" -ge 1 ]' || exit 1
inject '$ia count=100' '$ib count=100'
echo clear >$FAULT
until_true 'dmesg | sed -n "/t_65 mark $mark\$/,\\\$p" | grep -q "$A, package 0: answers again"' || exit 1
inject '$ia count=300' '$ib count=300'
EOF
echo "gp pkg=0 msr=$base-$((base + 15)) access=w" >$FAULT
if pstat "$out" -a -A -e "$cbos" -- sh /tmp/steps.sh; then
	is "$(val_cpu "$out" "$CPU0" a) $(val_cpu "$out" "$CPU0" b)" "300 400" \
		"a lost enabling write: $A counts from its reprogramming on, $B all"
fi
is "$(said "$A, package 0: write of MSR .* failed")" 1 "the write fault reported once"
echo clear >$FAULT
}

# --- a PCI box gone: config reads answer all ones ---------------------------
imc0="pkg=0 box=imc idx=0 event=0x04 umask=0x01"
imc1="pkg=0 box=imc idx=1 event=0x04 umask=0x01"
gone() {
new_mark
cat >/tmp/steps.sh <<EOF
$PRE
inject '$imc0 count=1000' '$imc1 count=1000'
sleep 0.3
echo 'gone pkg=0 box=imc idx=0' >$FAULT
until_true '[ "\$(sed -n "s/.* hits=\([0-9]*\)\$/\1/p" $FAULT)" -ge 4 ]' || exit 1
inject '$imc0 count=2000' '$imc1 count=2000'
sleep 0.3
echo clear >$FAULT
until_true 'dmesg | sed -n "/t_65 mark $mark\$/,\\\$p" | grep -q "uncore_imc_0, package 0: answers again"' || exit 1
inject '$imc0 count=4000' '$imc1 count=4000'
# perf stat -I drops the last partial interval when its child exits
# outside its poll: the last counts must land in a whole interval.
sleep 0.3
EOF
if pstat "$out" -I 100 -a -A -e 'uncore_imc_0/event=0x04,umask=0x01,name=i0/,uncore_imc_1/event=0x04,umask=0x01,name=i1/' -- \
	sh /tmp/steps.sh; then
	is "$(val_intervals_cpu "$out" "$CPU0" i0) $(val_intervals_cpu "$out" "$CPU0" i1)" "7000 7000" \
		"iMC 0 gone and back: every interval sums to the truth on both channels"
	big=$(awk -F, -v c="CPU$CPU0" '$2 == c && $3 + 0 > 7000' "$out" | wc -l)
	is "$big" 0 "no interval shows more than was injected (all ones never counted)"
fi
is "$(said "uncore_imc_0, package 0: config read at .* failed")" 1 "the gone function reported once"
is "$(said "uncore_imc_1, package 0:")" 0 "nothing about iMC 1"
}

# --- sampling across a PCI box gone and back (review pmi-protocol N6) -------
# An overflow while the box is gone: its pass reads the box's status as 0
# and cannot clear it, and a set status bit holds back the counter's next
# overflow message (BDX manual 2.1.1.1); a preload written then is lost.
# Once the box answers, the periods that ended meanwhile are sampled, the
# counter is loaded for the rest of its period, and sampling goes on.
gone_sampling() {
new_mark
cat >/tmp/steps.sh <<EOF
$PRE
inject '$imc0 count=250'
sim_settle 0 || exit 1
echo 'gone pkg=0 box=imc idx=0' >$FAULT
until_true '[ "\$(sed -n "s/.* hits=\([0-9]*\)\$/\1/p" $FAULT)" -ge 4 ]' || exit 1
inject '$imc0 count=150'
sim_settle 0 || exit 1
echo clear >$FAULT
until_true 'dmesg | sed -n "/t_65 mark $mark\$/,\\\$p" | grep -q "uncore_imc_0, package 0: answers again"' || exit 1
sim_settle 0 || exit 1
inject '$imc0 count=1000'
sim_settle 0
EOF
if perf record -q -a -o $DATA -c 100 -e 'uncore_imc_0/event=0x04,umask=0x01,name=imc/' -- \
	taskset -c "$CPU0" sh /tmp/steps.sh >/dev/null 2>/tmp/rec.err; then
	is "$(samples imc)" 14 "iMC 0 gone while sampling: 1400 events at period 100, 14 samples"
else
	diag "perf record: $(cat /tmp/rec.err)"
	ok false "iMC 0 gone while sampling: the recording ran"
fi
is "$(said "uncore_imc_0, package 0: config read at .* failed")" 1 "the gone function reported once"
}

# --- a box whose counters stop ----------------------------------------------
stopped() {
new_mark
cat >/tmp/steps.sh <<EOF
$PRE
inject '$ia count=100' '$ib count=100'
echo 'stop pkg=0 box=cbox idx=$a' >$FAULT
inject '$ia count=200' '$ib count=200'
echo clear >$FAULT
inject '$ia count=300' '$ib count=300'
EOF
if pstat "$out" -a -A -e "$cbos" -- sh /tmp/steps.sh; then
	is "$(val_cpu "$out" "$CPU0" a) $(val_cpu "$out" "$CPU0" b)" "400 600" \
		"$A stopped for a while: it lost what came meanwhile, $B nothing"
fi
is "$(said "uncore_cbox_.*failed")" 0 "a stopped counter is no access fault"
}

# --- an unrelated NMI inside the overflow sequence ---------------------------
# GLOBAL_STATUS (0x701) is read by the NMI handler, then read and cleared
# by the pass that samples: NMIs land at the pass's read and at the
# unfreeze (GLOBAL_CTL, 0x700).
DATA=/tmp/perf.data
samples() { perf script -i $DATA -F event 2>/dev/null | grep -c "$1"; }
nmi_inside() {
for point in "msr=0x701 nth=2 count=2" "msr=0x700 nth=3 count=1"; do
	echo clear >$FAULT
	echo "nmi pkg=0 $point" >$FAULT
	f0=$(sim_state | sed -n 's/^pkg0 stats .* foreign_nmis=\([0-9]*\).*/\1/p')
	if perf record -q -a -o $DATA -e 'uncore_imc_0/event=0x04,umask=0x03,name=imc/' -c 100 -- \
		taskset -c "$CPU0" sh -c "$PRE; for i in 1 2 3 4 5; do
			sim_inject '$imc0 count=250' && sim_settle 0 || exit 1; done" >/dev/null 2>/tmp/rec.err; then
		is "$(samples imc)" 12 "NMI at $point: 1250 events at period 100, 12 samples"
	fi
	f1=$(sim_state | sed -n 's/^pkg0 stats .* foreign_nmis=\([0-9]*\).*/\1/p')
	is "$(hits)/$((f1 - f0))" "1/${point##*count=}" "NMI at $point: raised where asked"
	ok "sim_settle 0" "NMI at $point: package 0 settles, unfrozen"
done
echo clear >$FAULT
is "$(unknown_nmis_since t_65)" 0 "no unknown NMI"
}

# --- a failed write of global status or control ------------------------------
# The pass's ack (GLOBAL_STATUS, 0x701) or unfreeze (GLOBAL_CTL, 0x700)
# raises #GP, as a hypervisor's MSR filter might now and then. Nothing else
# would end the freeze: the pass runs again every 100 ms until the write
# goes through.
global_write() {
new_mark
for msr in 0x701 0x700; do
	r0=$(pmi_stat 9)
	cat >/tmp/steps.sh <<EOF
$PRE
echo 'gp pkg=0 msr=$msr access=w' >$FAULT
inject '$imc0 count=1000'
until_true '[ \$(pmi_stat 9) -ge $((r0 + 2)) ]' || exit 1
echo clear >$FAULT
sim_settle 0 || exit 1
inject '$imc0 count=1000'
sim_settle 0
EOF
	if perf record -q -a -o $DATA -c 1000 -e 'uncore_imc_0/event=0x04,umask=0x01,name=imc/' -- \
		taskset -c "$CPU0" sh /tmp/steps.sh >/dev/null 2>/tmp/rec.err; then
		is "$(samples imc)" 2 "#GP on writes of $msr: 2000 events at period 1000, 2 samples"
	else
		diag "perf record: $(cat /tmp/rec.err)"
		ok false "#GP on writes of $msr: the recording ran"
	fi
	ok "[ $(pmi_stat 9) -ge $((r0 + 2)) ]" "#GP on writes of $msr: the pass ran again while they failed"
	ok "sim_settle 0" "#GP on writes of $msr: package 0 settles, unfrozen, once they go through"
done
is "$(said "uncore_ubox, package 0: write of MSR 0x70[01] failed")" 1 "the UBox's fault reported once"
cbo_counts_500 "$A" "$CPU0"
}
global_write

# The debug guest (breadth 0) runs the #GP and foreign-write cases: they
# go through every context the fault paths have (the timer, the work item
# that takes an event off, perf's disable and enable); the rest are the
# same paths on other registers.
if breadth; then
	lost_write
	gone
	gone_sampling
	stopped
	nmi_inside
fi

# --- another agent writes a control --------------------------------------
# The counter-0 control of CBo a gets another event, as likwid or PCM would
# write it; the driver, whose event there is, must notice at its next read
# by the timer, keep the count it had and let go of the register. c, on
# another counter of CBo a and after a in its context, must run on all the
# time: a refusal of a by add() would end each scheduling pass at a, and
# perf would rotate c with it.
new_mark
cat >/tmp/steps.sh <<EOF
$PRE
inject '$ia count=100' '$ib count=100'
sleep 1
echo 'pkg=0 msr=$((base + 1)) value=0x400036' >$SIM/msr
grep '^$A ' /sys/kernel/debug/uncore_pmu/boxes | sed 's/^/# boxes: /'
until_true 'dmesg | sed -n "/t_65 mark $mark\$/,\\\$p" | grep -q "another agent"' || exit 1
inject '$ia count=200' '$ib count=200'
EOF
# Unscaled: perf stat would scale a's count by the share of the time it ran.
if pstat "$out" --no-scale -a -A -e "$cbos,$A/event=0x0,name=c/" -- sh /tmp/steps.sh; then
	is "$(val_cpu "$out" "$CPU0" a) $(val_cpu "$out" "$CPU0" b)" "100 300" \
		"another agent's write: $A keeps what it had counted before, $B counts on"
	ok "stopped_part_way $out $CPU0 a $CPU0 b && stopped_part_way $out $CPU0 a $CPU0 c" \
		"$A stopped running when it lost its counter ($(run_share "$out" "$CPU0" a): ns, %), $B and $A's other event ran all along ($(run_share "$out" "$CPU0" b); $(run_share "$out" "$CPU0" c))"
fi
is "$(said "$A, package 0: counter 0's control reads 0x400036, not the 0x400835 written")" 1 \
	"the foreign write reported once, with both values"
ctl=$(sim_state | sed -n "s/^pkg0 cbox$a ctr0 .*ctl=\(0x[0-9a-f]*\).*/\1/p")
is "$ctl" 0x00400036 "the driver left the other agent's control alone"
echo "pkg=0 msr=$((base + 1)) value=0" >$SIM/msr

echo 3600000 >"$PARAM/poll_max_ms"
is "$(sim_violations)" 0 "no reserved-bit writes or BOX_CTL protocol violations"
unload_modules
