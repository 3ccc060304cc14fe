#!/bin/sh
# make bench: register accesses per perf operation on a few boxes, measured
# with the driver's per-box access counters (tests/vm/bin/accbench.c), next to
# what mainline 6.1's intel_uncore does for the same operations, counted in
# its source (the legend under the table cites file and function). Prints
# the table between BENCH-TABLE-BEGIN and BENCH-TABLE-END as reStructuredText;
# Documentation/benchmarks.rst is a copy of it. A second table gives what
# a read(2) of an uncore event costs next to a task-clock read
# (tests/vm/bin/readbench.c). run-guest.sh has loaded the modules.
#
# With uncore.warp=1 on the kernel command line (tools/vm/bench.sh boots
# QEMU with -icount sleep=off, so guest time jumps ahead whenever the guest
# idles), the poll tick is measured too: the event stays enabled for two and
# a half poll periods, ftrace counts the timer's expiries and the access
# counters what they cost. Without it a tick (33 minutes and more apart on
# most boxes) cannot be waited for, and its row repeats the read cost.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

N=1000
TICKS=2
OUT=/tmp/bench
TRACE=/sys/kernel/tracing
mkdir -p $OUT
module_loaded uncore_pmu || load_modules || exit 1
topo_init
CPU=$(first_cpu 0)

fail() { echo "bench: FAILED: $*"; exit 1; }

WARP=0
grep -q 'uncore\.warp=1' /proc/cmdline && WARP=1

# Count the expiries of the driver's poll timer only: the tracepoint's
# filter compares the callback's address.
trace_setup() {
	[ -d $TRACE/events ] || mount -t tracefs nodev $TRACE || return 1
	addr=$(awk '$3 == "uncore_poll" && $4 == "[uncore_pmu]" { print $1; exit }' /proc/kallsyms)
	case $addr in ''|*[!0-9a-f]*|0000000000000000) return 1 ;; esac
	ev=$TRACE/events/timer/hrtimer_expire_entry
	echo "function == 0x$addr" >$ev/filter || return 1
	echo 1 >$ev/enable
}
if [ $WARP = 1 ] && ! trace_setup; then
	echo "bench: no ftrace for uncore_poll; poll ticks not measured"
	WARP=0
fi

# acc NAME ALT TICKS PMU CONFIG [CONFIG1 [CONFIG2]]: run accbench on package
# 0's box of PMU, output in $OUT/NAME. ALT: config1 of a second event for the
# alternating-filter phase, or -; TICKS: poll ticks to wait for (0: none).
# The expiries ftrace saw are in $OUT/NAME.ticks, their times (ns) in
# $OUT/NAME.times. With SAMPLE set, a sampling event of that period is on
# the box throughout (accbench -s).
SAMPLE=""
acc() {
	name=$1 alt=$2 ticks=$3 pmu=$4
	shift 4
	[ "$alt" = - ] && alt=""
	[ $WARP = 1 ] || ticks=0
	[ -d "$PMUS/$pmu" ] || fail "$pmu is not registered"
	note=""
	[ "$ticks" = 0 ] || note=" ($ticks poll ticks)"
	echo "bench: $name: $pmu $*${alt:+ (alternating config1 $alt)}$note"
	[ "$ticks" = 0 ] || echo >$TRACE/trace
	/tests/bin/accbench -n $N -c "$CPU" -p 0 -t "$ticks" ${alt:+-x "$alt"} ${SAMPLE:+-s "$SAMPLE"} "$pmu" "$@" \
		>"$OUT/$name" 2>"$OUT/$name.err" || fail "$name: $(cat "$OUT/$name.err")"
	[ "$ticks" = 0 ] && return
	sed -n 's/.*function=uncore_poll.* now=\([0-9]*\).*/\1/p' $TRACE/trace >"$OUT/$name.times"
	wc -l <"$OUT/$name.times" | tr -d ' ' >"$OUT/$name.ticks"
}

# field NAME OP KEY: KEY of the op=OP line of $OUT/NAME.
field() {
	sed -n "s/^op=$2 .* $3=\([0-9.]*\).*/\1/p" "$OUT/$1"
}

poll_ns() { sed -n 's/^box=.* poll_ns=\([0-9]*\).*/\1/p' "$OUT/$1"; }

# acc_cell RD WR: "1 rd", "2 rd 2 wr", "2 wr", "0".
acc_cell() {
	if [ "$1" = 0 ] && [ "$2" = 0 ]; then
		echo 0
	elif [ "$2" = 0 ]; then
		echo "$1 rd"
	elif [ "$1" = 0 ]; then
		echo "$2 wr"
	else
		echo "$1 rd $2 wr"
	fi
}

# ours NAME OP SPACE: measured accesses per operation (SPACE msr or pci).
ours() { acc_cell "$(field "$1" "$2" "${3}_rd")" "$(field "$1" "$2" "${3}_wr")"; }

# div A B: A / B, as an integer when exact.
div() { awk -v a="$1" -v b="$2" 'BEGIN { q = a / b; printf(q == int(q) ? "%d" : "%.2f", q) }'; }

# tick_rd NAME SPACE / tick_cell NAME SPACE: accesses per traced poll tick.
tick_rd() { div "$(field "$1" idle "${2}_rd")" "$(cat "$OUT/$1.ticks")"; }
tick_cell() {
	acc_cell "$(tick_rd "$1" "$2")" "$(div "$(field "$1" idle "${2}_wr")" "$(cat "$OUT/$1.ticks")")"
}

# every NS: a poll period as minutes.
every() { awk -v ns="$1" 'BEGIN { m = ns / 6e10; printf(m == int(m) ? "%d min" : "%.1f min", m) }'; }

# per_hour NS READS: reads an hour at one tick per NS, each tick READS reads.
per_hour() {
	awk -v ns="$1" -v r="$2" 'BEGIN { h = 3.6e12 / ns * r; printf(h == int(h) ? "%d rd/h" : "%.1f rd/h", h) }'
}

# hex N: N in hex, for the progress lines.
hex() { printf '0x%x' "$1"; }

# --- measure ------------------------------------------------------------

CBO=$(lowest_box cbox has_cbo 24) || fail "package 0 has no CBo"
IMC=$(lowest_box imc has_imc 8) || fail "package 0 has no iMC channel"

TID_EN=$((1 << 19))
EV_SEL_EXT=$((1 << 21))
# CBo TOR_INSERTS.ALL; then with tid_en and filter_tid 1 (2 when alternating).
acc cbo - $TICKS "$CBO" 0x0835
acc cbo_tid 0x2 0 "$CBO" "$(hex $((0x0835 | TID_EN)))" 0x1
# UBox EVENT_MSG.DOORBELL_RCVD, PCU clockticks.
acc ubox - $TICKS uncore_ubox 0x0842
acc pcu - $TICKS uncore_pcu 0x00
# iMC CAS_COUNT.RD, HA REQUESTS.READS.
acc imc - $TICKS "$IMC" 0x0304
# The HA's counter is read every 1.3 minutes, its control every 10 at most
# (poll.c, UNCORE_FOREIGN_CHECK_NS): 16 ticks take in two of those.
acc ha - $((TICKS * 8)) uncore_ha_0 0x0301
# HA CLOCKTICKS, on a counter preloaded to 2^31: a PCI counter whose lower
# dword is far from a carry, as a counting counter's mostly is, so that a
# read takes two dwords, not three. (The simulator's counters otherwise
# start near 0 and its clock moves little during the run.)
echo "pkg=0 box=ha idx=0 ctr=0 value=$((1 << 31))" >"$SIM/counter"
acc ha_clk - 0 uncore_ha_0 0x0000
# QPI CTO_COUNT (event 0x38 with ev_sel_ext) matching match_opc 1 (2 when
# alternating) under mask_opc 0xf.
acc qpi 0x40 0 uncore_qpi_0 "$(hex $((0x38 | EV_SEL_EXT)))" 0x20 0x1e0
# Counting beside a sampling event (period 2^40: it never overflows here)
# on boxes that sample by PMI: the same counts as alone.
SAMPLE=$((1 << 40))
acc imc_s - 0 "$IMC" 0x0304
acc ubox_s - 0 uncore_ubox 0x0842
SAMPLE=""

for f in "$OUT"/*.err; do
	[ -s "$f" ] && fail "$(cat "$f")"
done

# Counting events never pay for sampling (Documentation/uncore_pmu.rst):
# the legend says so, so the bench holds the driver to it.
for b in imc:pci ubox:msr; do
	for op in read add_del; do
		a=$(ours "${b%:*}" $op "${b#*:}") s=$(ours "${b%:*}_s" $op "${b#*:}")
		[ "$a" = "$s" ] || fail "${b%:*} $op: $a alone, $s beside a sampling event"
	done
done

# The traced expiries must be the poll period apart (1 ms of slack).
if [ $WARP = 1 ]; then
	for b in cbo ubox pcu imc ha; do
		awk -v p="$(poll_ns $b)" -v b=$b 'NR > 1 && ($1 - t > p + 1e6 || $1 - t < p - 1e6) {
			printf("bench: %s: poll ticks %d ns apart, poll_ns %d\n", b, $1 - t, p) }
			{ t = $1 }' "$OUT/$b.times"
	done
fi

# --- table ------------------------------------------------------------------

W1=16 W2=40 W3=16 W4=14 W5=3
line() { printf "%-${W1}s  %-${W2}s  %-${W3}s  %-${W4}s  %s\n" "$1" "$2" "$3" "$4" "$5"; }
rule() {
	printf "%s  %s  %s  %s  %s\n" "$(printf "%${W1}s" | tr ' ' =)" \
		"$(printf "%${W2}s" | tr ' ' =)" "$(printf "%${W3}s" | tr ' ' =)" \
		"$(printf "%${W4}s" | tr ' ' =)" "$(printf "%${W5}s" | tr ' ' =)"
}

# rows NAME PMU SPACE ML_PAIR ML_PAIR_REF: the rows every box has.
rows() {
	name=$1 pmu=$2 space=$3
	ns=$(poll_ns "$name")
	case $space in msr) mlrd=1 rref="[a]" ;; *) mlrd=2 rref="[b]" ;; esac
	line "$pmu" "read" "$(ours "$name" read "$space")" "$mlrd rd" "$rref"
	line "$pmu" "add + del (ENABLE + DISABLE ioctl)" "$(ours "$name" add_del "$space")" "$4" "$5"
	if [ $WARP = 1 ]; then
		line "$pmu" "poll tick, per event ($(cat "$OUT/$name.ticks") traced)" \
			"$(tick_cell "$name" "$space")" "$mlrd rd" "[h]"
		rd=$(tick_rd "$name" "$space")
	else
		line "$pmu" "poll tick, per event (= read)" "$(ours "$name" read "$space")" "$mlrd rd" "[h]"
		rd=$(field "$name" read "${space}_rd")
	fi
	line "$pmu" "poll period" "$(every "$ns")" "1 min" "[h]"
	line "$pmu" "poll reads per hour, one event" "$(per_hour "$ns" "$rd")" "$((60 * mlrd)) rd/h" "[h]"
}

if [ $WARP = 1 ]; then
	how="ticks counted by ftrace, QEMU's -icount letting guest time run ahead"
else
	how="ticks not measured: their rows repeat the read cost"
fi
echo "BENCH-TABLE-BEGIN"
echo "Register accesses per operation on package 0's box, one event on it."
echo "ours: measured in the guest (uncore_pmu on $(uname -r), MSR backend"
echo "$(sed -n 's/^# backend: //p' /sys/kernel/debug/uncore_pmu/access), $N operations each;"
echo "poll $how)."
echo "mainline 6.1: intel_uncore, counted in the source of Debian's"
echo "linux-source-6.1; the last column points into the legend below."
echo "rd/wr: MSR reads/writes on MSR boxes, PCI config dword reads/writes on"
echo "PCI boxes."
echo
rule
line "box" "operation" "ours" "mainline 6.1" "ref"
rule
rows cbo "$CBO" msr "6 rd 6 wr" "[c]"
line "$CBO" "tid filter: first add (value 0 to 1)" "$(ours cbo_tid first_add msr)" "3 rd 5 wr" "[f]"
line "$CBO" "tid filter: add + del, same value" "$(ours cbo_tid add_del msr)" "6 rd 8 wr" "[f]"
line "$CBO" "tid filter: add + del, value alternates" "$(ours cbo_tid add_del_alt msr)" "6 rd 8 wr" "[f]"
rows ubox uncore_ubox msr "2 rd 2 wr" "[d]"
rows pcu uncore_pcu msr "6 rd 6 wr" "[c]"
rows imc "$IMC" pci "8 rd 6 wr" "[e]"
rows ha uncore_ha_0 pci "8 rd 6 wr" "[e]"
line uncore_ha_0 "read, a counter that counts (clockticks)" "$(ours ha_clk read pci)" "2 rd" "[b]"
line uncore_qpi_0 "read" "$(ours qpi read pci)" "2 rd" "[b]"
line uncore_qpi_0 "CTO_COUNT match: add + del, same value" "$(ours qpi add_del pci)" "8 rd 10 wr" "[g]"
line uncore_qpi_0 "CTO_COUNT match: add + del, alternates" "$(ours qpi add_del_alt pci)" "8 rd 10 wr" "[g]"
line "$IMC" "read, a sampling event beside it" "$(ours imc_s read pci)" "(no sampling)" "[i]"
line "$IMC" "add + del, a sampling event beside it" "$(ours imc_s add_del pci)" "(no sampling)" "[i]"
line uncore_ubox "read, a sampling event beside it" "$(ours ubox_s read msr)" "(no sampling)" "[i]"
line uncore_ubox "add + del, a sampling event beside it" "$(ours ubox_s add_del msr)" "(no sampling)" "[i]"
rule
cat <<'EOF'

Where the mainline counts come from (Linux 6.1; files are under
arch/x86/events/intel/ unless a path is given):

[a] read, MSR box
    uncore.c: uncore_pmu_event_read() -> uncore_perf_event_update() ->
    uncore_msr_read_counter(): one rdmsrl. kernel/events/core.c:
    __perf_event_read() calls pmu->read() alone, without
    pmu_disable/pmu_enable.

[b] read, PCI box
    As [a], through uncore_snbep.c: snbep_uncore_pci_read_counter(): two
    config reads, low dword then high dword, with no check for a carry
    between them.

[c] add + del, MSR box with a BOX_CTL (CBo, PCU)
    kernel/events/core.c: ctx_resched() (ENABLE) and group_sched_out()
    (DISABLE) bracket each operation with perf_pmu_disable() and
    perf_pmu_enable(); the nested pairs in event_sched_in(),
    event_sched_out() and the ADD transaction (perf_pmu_start_txn(),
    perf_pmu_commit_txn()) only move the nesting count. Per pair: twice
    uncore.c: uncore_pmu_disable() and uncore_pmu_enable() ->
    uncore_snbep.c: snbep_uncore_msr_disable_box() and
    snbep_uncore_msr_enable_box(), a read and a write of BOX_CTL each
    (4 rd 4 wr); uncore.c: uncore_pmu_event_add() ->
    uncore_pmu_event_start(): read_counter (1 rd) and enable_event
    (hswep_cbox_enable_event() or snbep_uncore_msr_enable_event(), 1 wr);
    uncore_pmu_event_del() -> uncore_pmu_event_stop():
    snbep_uncore_msr_disable_event() (1 wr) and uncore_perf_event_update()
    (1 rd). Total 6 rd 6 wr.

[d] add + del, UBox
    As [c], but bdx_uncore_ubox has no box_ctl: uncore.h:
    uncore_msr_box_ctl() returns 0 and snbep_uncore_msr_disable_box() and
    snbep_uncore_msr_enable_box() access nothing. 2 rd 2 wr.

[e] add + del, PCI box (HA, iMC)
    As [c], with uncore_snbep.c: snbep_uncore_pci_disable_box() and
    snbep_uncore_pci_enable_box() (a config read and write of BOX_CTL
    each, 4 rd 4 wr), snbep_uncore_pci_read_counter() (2 rd) and
    snbep_uncore_pci_enable_event() (1 wr) at start,
    snbep_uncore_pci_disable_event() (1 wr) and the update (2 rd) at stop.
    8 rd 6 wr.

[f] CBo event with tid_en
    uncore_snbep.c: hswep_cbox_hw_config() matches the TID_EN entry of
    hswep_uncore_cbox_extra_regs, so hswep_cbox_enable_event() writes
    FILTER0 and FILTER1 (2 wr) at every start, changed or not;
    __snbep_cbox_get_constraint() and snbep_cbox_put_constraint() only
    count references. An add alone (ENABLE) is half of [c] plus these:
    3 rd 5 wr; a pair is [c] + 2 wr: 6 rd 8 wr, alternating or not.

[g] QPI CTO_COUNT (event select 0x38)
    uncore_snbep.c: snbep_qpi_hw_config() sets the match/mask extra
    registers and snbep_qpi_enable_event() writes MATCH0/1 and MASK0/1 of
    the port's filter function (4 wr) at every start. [e] + 4 wr:
    8 rd 10 wr, alternating or not.

[h] poll tick
    uncore.c: uncore_pmu_hrtimer() calls uncore_perf_event_update() once
    per active event: 1 rd (MSR), 2 rd (PCI). Its period is uncore.h:
    UNCORE_PMU_HRTIMER_INTERVAL, 60 s, set in uncore.c: uncore_alloc_box()
    and not changed for BDX. Ours: poll.c: uncore_poll() calls
    uncore_event_update() (the read path) once per event, every poll_ns
    of the box (/sys/kernel/debug/uncore_pmu/boxes), which the poll
    period row shows, and reads each event's control back (1 rd) at most
    every 10 minutes per box (poll.c: UNCORE_FOREIGN_CHECK_NS): the tick
    row is the average over the traced ticks.

[i] a counting event beside a sampling one
    uncore.c: uncore_pmu_event_init() refuses any event with a
    sample_period ("Sampling not supported yet"). Ours: the counting
    event, measured with a sampling event (period 2^40, PMI path)
    enabled on the same box all along: the same counts as its rows
    above (the bench fails otherwise), as the counting paths never look
    at sampling. The sampling event is pinned: kernel/events/core.c:
    ctx_resched(), at every ENABLE, takes the CPU context's flexible
    events off the box and back on, so a flexible sibling of either kind
    adds its own del and add to each pair (measured: 10 rd 6 wr on the
    iMC beside a flexible sampling event, its stop, preload and start).
    A sampling event the box's timer samples (CBo, SBo) makes that timer
    run every sample_tick_us, and each run reads every event of the box.
EOF

# t_16_access checks the table above, the deterministic part.
if [ -n "${BENCH_ACCESS_ONLY:-}" ]; then
	echo "BENCH-TABLE-END"
	exit 0
fi

# read(2) of a counting event next to a software event's
# (tests/vm/bin/readbench.c): the cost a tool that polls counts pays.
RN=10000
rrule() { echo "================  ==========  ===============  ==============="; }
echo
echo "read(2) of a counting event: ns per call in this guest (best of 5 runs"
echo "of $RN), and as a multiple of a task-clock read on the same CPU. local:"
echo "read on the PMU's reading CPU; remote: on another CPU, through an IPI."
echo
rrule
printf "%-16s  %-10s  %-15s  %-15s\n" "pmu" "task-clock" "local" "remote"
rrule
rns() { sed -n "s/^op=$1 ns=\([0-9]*\).*/\1/p" "$2"; }
rx() { sed -n "s/^op=$1 .*ratio=\([0-9.]*\).*/\1/p" "$2"; }
for pe in "uncore_cbox_0 0x0835" "uncore_imc_0 0x0304" "uncore_ha_0 0x0301"; do
	pmu=${pe% *} f=$OUT/read.${pe% *}
	/tests/bin/readbench -n $RN "$pmu" "${pe#* }" >"$f" || fail "readbench $pmu"
	printf "%-16s  %-10s  %-15s  %-15s\n" "$pmu" "$(rns task_clock "$f")" \
		"$(rns local "$f") ($(rx local "$f")x)" "$(rns remote "$f") ($(rx remote "$f")x)"
done
rrule
echo "BENCH-TABLE-END"
