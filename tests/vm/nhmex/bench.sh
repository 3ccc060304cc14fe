#!/bin/sh
# make bench UNCORE_BENCH=nhmex: register accesses per perf operation on
# the Xeon 7500's boxes, measured with the driver's per-box access counters
# (tests/vm/bin/accbench.c), next to what mainline 6.1's intel_uncore does for
# the same operations, counted in its source (uncore_nhmex.c; the legend
# cites functions). The table is printed between BENCH-TABLE-BEGIN and
# BENCH-TABLE-END as reStructuredText; Documentation/benchmarks.rst holds
# a copy. run-guest.sh has loaded the modules.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh

N=1000
OUT=/tmp/bench
mkdir -p $OUT
module_loaded uncore_pmu || load_modules || exit 1
nh_topo
CPU=$FIRST_0

fail() { echo "bench: FAILED: $*"; exit 1; }

# acc NAME ALT PMU CONFIG [CONFIG1 [CONFIG2]]: accbench on package 0's box.
acc() {
	name=$1 alt=$2 pmu=$3
	shift 3
	[ "$alt" = - ] && alt=""
	echo "bench: $name: $pmu $*${alt:+ (alternating config1 $alt)}"
	/tests/bin/accbench -n $N -c "$CPU" -p 0 ${alt:+-x "$alt"} ${SAMPLE:+-s "$SAMPLE"} "$pmu" "$@" \
		>"$OUT/$name" 2>"$OUT/$name.err" || fail "$name: $(cat "$OUT/$name.err")"
}
field() { sed -n "s/^op=$2 .* $3=\([0-9.]*\).*/\1/p" "$OUT/$1"; }
cell() {
	_r=$(field "$1" "$2" msr_rd) _w=$(field "$1" "$2" msr_wr)
	if [ "$_r" = 0 ] && [ "$_w" = 0 ]; then echo 0
	elif [ "$_w" = 0 ]; then echo "$_r rd"
	elif [ "$_r" = 0 ]; then echo "$_w wr"
	else echo "$_r rd $_w wr"; fi
}
hex() { printf '0x%x' "$1"; }

# C-box LLC_MISSES; B-box CONFLICTS (counter 3); S-box TO_R_PROG_EV with
# a match (alternating the match value); R-box port 1 IPERF0 flits sent
# (alternating the IPERF value: the pair's other register takes it); the
# W fixed counter; the M-box's heaviest enable, ISS + PLD (inc_sel 0xa)
# with address match, and an FVC event.
acc cbox - uncore_cbox_0 0x0114
acc bbox - uncore_bbox_0 "$(hex $(( (0x17 << 1) | (3 << 6) )))"
acc sbox 0x2000 uncore_sbox_0 0x0000 0x1000 0x0
acc rbox 0x40000000 uncore_rbox_0 "$(hex $((0x6 << 1)))" 0x80000000
acc wfix - uncore_wbox 0xff
acc mbox 0x300000001 uncore_mbox_0 "$(hex $((0xa << 9)))" 0x200000001 "$(hex $(( (1 << 63) | (0xf << 34) | 0x1234 )))"
acc mfvc 0x3000 uncore_mbox_0 "$(hex $((0xd << 9)))" 0x2800
# Beside a sampling event (period 2^40, never overflowing here): PMI path.
SAMPLE=$((1 << 40))
acc cbox_s - uncore_cbox_0 0x0114
SAMPLE=""
for f in "$OUT"/*.err; do
	[ -s "$f" ] && fail "$(cat "$f")"
done
for op in read add_del; do
	[ "$(cell cbox $op)" = "$(cell cbox_s $op)" ] ||
		fail "cbox $op: $(cell cbox $op) alone, $(cell cbox_s $op) beside a sampling event"
done

# Per PMI: a C-box event sampling every 1000 events and 100 bursts of
# 1000, each overflowing once and settling before the next: package 0's
# MSR accesses (every box, the event's add and del included) per pass of
# the handler, and the same with a second box (an R-box half, under the
# other S-box) overflowing in the same PMIs.
D=/sys/kernel/debug/uncore_pmu
pkg0() { awk -v c="$1" '!/^#/ && $2 == 0 { s += $c } END { printf "%d\n", s }' $D/access; }
handled() { awk '!/^#/ && $1 == 0 { print $4 }' $D/pmi; }
pmi_run() { # NAME EVENTS INJECTION...
	name=$1 evs=$2
	shift 2
	cmds=""
	for l in "$@"; do cmds="$cmds sim_inject 'pkg=0 $l count=1000' || exit 1;"; done
	r0=$(pkg0 3) w0=$(pkg0 4) h0=$(handled)
	perf record -q -a -o /tmp/pmi.data -c 1000 -e "$evs" -- taskset -c "$CPU" sh -c \
		". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tests/nhmex/nhmex_lib.sh
		 i=0; while [ \$i -lt 100 ]; do $cmds nh_settle 0 || exit 1; i=\$((i + 1)); done" \
		>/dev/null 2>"$OUT/$name.err" || fail "$name: $(cat "$OUT/$name.err")"
	h=$(($(handled) - h0))
	[ "$h" -eq 100 ] || fail "$name: $h PMIs, not 100"
	echo "op=pmi n=100 msr_rd=$(awk -v a="$(($(pkg0 3) - r0))" 'BEGIN { printf "%.1f", a / 100 }') msr_wr=$(awk -v a="$(($(pkg0 4) - w0))" 'BEGIN { printf "%.1f", a / 100 }')" >"$OUT/$name"
}
pmi_run pmi1 "uncore_cbox_0/event=0x14,umask=0x1/" "box=cbox idx=0 event=0x14 umask=0x1"
echo 200000000 >"$SIMPARAM/nhmex_freeze_delay_ns"
pmi_run pmi2 "uncore_cbox_0/event=0x14,umask=0x1/,uncore_rbox_1/event=0x0,iperf_cfg=0x1/" \
	"box=cbox idx=0 event=0x14 umask=0x1" "box=rbox port=4 iperf=0x1"
echo 1000 >"$SIMPARAM/nhmex_freeze_delay_ns"

W1=14 W2=42 W3=12 W4=14
line() { printf "%-${W1}s  %-${W2}s  %-${W3}s  %-${W4}s  %s\n" "$1" "$2" "$3" "$4" "$5"; }
rule() {
	printf "%s  %s  %s  %s  %s\n" "$(printf "%${W1}s" | tr ' ' =)" "$(printf "%${W2}s" | tr ' ' =)" \
		"$(printf "%${W3}s" | tr ' ' =)" "$(printf "%${W4}s" | tr ' ' =)" "==="
}
echo "BENCH-TABLE-BEGIN"
echo "Xeon 7500 (Nehalem-EX): MSR accesses per operation on package 0's box,"
echo "one event on it; ours measured in the guest (uncore_pmu on $(uname -r),"
echo "$N operations each), mainline 6.1's counted in uncore_nhmex.c."
echo
rule
line "box" "operation" "ours" "mainline 6.1" "ref"
rule
for b in "cbox uncore_cbox_0" "bbox uncore_bbox_0" "wfix uncore_wbox"; do
	# shellcheck disable=SC2086 # its two words
	set -- $b
	line "$2" "read$( [ "$1" = wfix ] && echo ", fixed counter")" "$(cell "$1" read)" "1 rd" "[a]"
	line "$2" "add + del$( [ "$1" = wfix ] && echo ", fixed counter")" "$(cell "$1" add_del)" "6 rd 6 wr" "[b]"
done
line uncore_sbox_0 "TO_R_PROG_EV match: first add" "$(cell sbox first_add)" "3 rd 7 wr" "[c]"
line uncore_sbox_0 "match: add + del, same value" "$(cell sbox add_del)" "6 rd 10 wr" "[c]"
line uncore_sbox_0 "match: add + del, value alternates" "$(cell sbox add_del_alt)" "6 rd 10 wr" "[c]"
line uncore_rbox_0 "IPERF: first add" "$(cell rbox first_add)" "3 rd 4 wr" "[d]"
line uncore_rbox_0 "IPERF: add + del, same value" "$(cell rbox add_del)" "6 rd 7 wr" "[d]"
line uncore_rbox_0 "IPERF: add + del, value alternates" "$(cell rbox add_del_alt)" "6 rd 7 wr" "[d]"
line uncore_mbox_0 "ISS+PLD+address match: first add" "$(cell mbox first_add)" "3 rd 9 wr" "[e]"
line uncore_mbox_0 "ISS+PLD+addr: add + del, same values" "$(cell mbox add_del)" "6 rd 12 wr" "[e]"
line uncore_mbox_0 "ISS+PLD+addr: add + del, ISS alternates" "$(cell mbox add_del_alt)" "6 rd 12 wr" "[e]"
line uncore_mbox_0 "FVC: add + del, value alternates" "$(cell mfvc add_del_alt)" "6 rd 7 wr" "[f]"
line uncore_cbox_0 "add + del, a sampling event beside it" "$(cell cbox_s add_del)" "(no sampling)" "[g]"
line uncore_cbox_0 "PMI: one sampling event overflows" "$(cell pmi1 pmi)" "(no sampling)" "[h]"
line "cbox_0, rbox_1" "PMI: two boxes overflow, one PMI" "$(cell pmi2 pmi)" "(no sampling)" "[h]"
rule
cat <<'EOT'

[a] uncore.c: uncore_msr_read_counter(), one rdmsrl.
[b] kernel/events/core.c brackets ENABLE and DISABLE with
    perf_pmu_disable()/perf_pmu_enable(); uncore_nhmex.c:
    nhmex_uncore_msr_disable_box() and _enable_box() read and write
    GLOBAL_CTL each time (4 rd 4 wr per pair); start reads the counter
    and writes the control (1 rd 1 wr), stop writes it and reads the
    counter (1 rd 1 wr). Ours: pmu_disable/enable touch nothing (the box's
    ctr_en bits stay set, Documentation/uncore_pmu.rst), so a pair is the
    event's own two writes and two reads.
[c] [b]; nhmex_sbox_msr_enable_event() writes MM_CFG 0, MATCH, MASK and
    MM_CFG again at every start (4 wr more).
    Ours writes the protocol only when the values change.
[d] [b]; nhmex_rbox_msr_enable_event() writes the port's IPERF register
    at every start (1 wr).
[e] [b]; nhmex_mbox_msr_enable_event(): ISS and PLD (2 wr), MM_CFG 0,
    ADDR_MATCH, ADDR_MASK, MM_CFG (4 wr) and the control (1 wr): the 7
    writes of the heaviest enable. Ours writes the sub-controls and the
    address match only when a value changes, and then only the registers
    that change.
[f] [b]; ZDP_CTL_FVC written at every start (1 wr).
[g] mainline refuses sampling events (uncore.c:
    uncore_pmu_event_init()); ours: the same counts as the counting event
    alone (the bench fails otherwise).
[h] Package 0's MSR accesses over 100 PMIs, per PMI, the event's add and
    del included: the NMI reads U GLOBAL_STATUS and the SUMMARY of each
    S-box it names; the pass reads each named box's STATUS and counter,
    reloads the counter, clears the box, then U OVF_CTL, then writes U
    GLOBAL_CTL once (Documentation/uncore_pmu.rst, "Counting and
    sampling").
EOT
echo "BENCH-TABLE-END"
