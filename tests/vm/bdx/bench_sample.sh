#!/bin/sh
# make bench, second table: sampling throughput and the register accesses
# of a PMI. For each PMU, `perf record -a -c P` on its clockticks event on
# package 0, P set for a requested rate from the simulator's clock; the
# driver's debugfs counts (pmi, samples, access) are read before and after.
# Prints the table between BENCH-TABLE-BEGIN and BENCH-TABLE-END as
# reStructuredText; Documentation/benchmarks.rst holds a copy. Runs in
# real time (no -icount): rates are per second of guest time, which under
# QEMU TCG is wall-clock time.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

SECS=2
RATES="1000 10000 50000 100000"
OUT=/tmp/bench
D=/sys/kernel/debug/uncore_pmu
mkdir -p $OUT
module_loaded uncore_pmu || load_modules || exit 1
# A ring buffer large enough for the fastest rows.
MMAP=8M
topo_init
CPU=$(first_cpu 0)

fail() { echo "bench: FAILED: $*"; exit 1; }

# Clock rates of the simulator (uncore_sim module parameters; PCLK and the
# QPI clock are fixed, Documentation/simulator.rst).
UCLK=$(($(cat /sys/module/uncore_sim/parameters/uclk_khz) * 1000))
DCLK=$(($(cat /sys/module/uncore_sim/parameters/dclk_khz) * 1000))
PCLK=800000000
QCLK=1600000000

# pkg0 FILE COL: column COL of FILE's package-0 rows, summed (COL counted
# from the pmu name; pmi has no pmu column: its package is column 1).
pkg0() { awk -v c="$2" '!/^#/ && $2 == 0 { s += $c } END { printf "%d\n", s }' "$1"; }
pmi0() { awk -v c="$1" '!/^#/ && $1 == 0 { print $c }' $D/pmi; }
snap() {
	cp $D/access "$OUT/acc.$1"
	cp $D/samples "$OUT/smp.$1"
	pmi0 4 >"$OUT/handled.$1"
	pmi0 5 >"$OUT/periods.$1"
}
# delta FILE: after minus before of a snapshot value.
delta() { echo $(($(cat "$OUT/$1.b") - $(cat "$OUT/$1.a"))); }
accd() { echo $(($(pkg0 "$OUT/acc.b" "$1") - $(pkg0 "$OUT/acc.a" "$1"))); }
smpd() {
	b=$(awk -v p="$1" -v c="$2" '$1 == p && $2 == 0 { print $c }' "$OUT/smp.b")
	a=$(awk -v p="$1" -v c="$2" '$1 == p && $2 == 0 { print $c }' "$OUT/smp.a")
	echo $((${b:-0} - ${a:-0}))
}
# per A B: A / B with one decimal, "-" when B is 0.
per() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf("%.1f\n", a / b) }'; }

W1=16 W2=8 W3=10 W4=10 W5=5 W6=5 W7=5 W8=9 W9=7 W10=9 W11=24
line() {
	printf "%-${W1}s  %${W2}s  %${W3}s  %${W4}s  %${W5}s  %${W6}s  %${W7}s  %${W8}s  %${W9}s  %${W10}s  %s\n" \
		"$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "${10}" "${11}"
}
rule() {
	for w in $W1 $W2 $W3 $W4 $W5 $W6 $W7 $W8 $W9 $W10 $W11; do
		printf "%${w}s  " "" | tr ' ' =
	done | sed 's/  $//'
	echo
}

ROWS=$OUT/rows
: >$ROWS
# run PMU HZ: one row per rate.
run() {
	pmu=$1 hz=$2
	[ -d "$PMUS/$pmu" ] || fail "$pmu is not registered"
	for rate in $RATES; do
		period=$((hz / rate))
		echo "bench: $pmu clockticks, period $period ($rate/s asked)"
		snap a
		echo 1 >"$SIM/reset_stats"
		t0=$(awk '{ print $1 }' /proc/uptime)
		perf record -a -C "$CPU" -m $MMAP -o $OUT/perf.data -c $period \
			-e "$pmu/clockticks/" -- sleep $SECS >/dev/null 2>$OUT/rec.err ||
			fail "$pmu: $(cat $OUT/rec.err)"
		t1=$(awk '{ print $1 }' /proc/uptime)
		snap b
		# The package's global freezes: the time every other counter of
		# package 0 missed, over the run's wall time.
		frz=$(sim_state | awk -v t0="$t0" -v t1="$t1" '/^pkg0 stats / {
			for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			printf "%.2f%% %.0f\n", v["frozen_ns"] / ((t1 - t0) * 1e7), v["frozen_max_ns"] / 1000 }')
		# The sample records perf wrote, counted in the file.
		perf report -i $OUT/perf.data --stats >$OUT/stats 2>/dev/null ||
			fail "$pmu: perf report --stats"
		got=$(awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }' $OUT/stats)
		# Records equal to the one before them in every field, time in
		# ns included: copies perf made (Documentation/benchmarks.rst).
		dup=$(perf script --ns -i $OUT/perf.data -F cpu,tid,time,ip,period 2>/dev/null |
			awk '$0 == prev { n++ } { prev = $0 } END { print n + 0 }')
		emitted=$(smpd "$pmu" 4)
		lost=$(($(smpd "$pmu" 5) + emitted - ${got:-0} + dup))
		thr=$(smpd "$pmu" 6)
		mode=$(awk -v p="$pmu" '$1 == p && $2 == 0 { print $3 }' "$OUT/smp.b")
		pmis=$(delta handled)
		if [ "$mode" = pmi ]; then
			acc="$(per "$(accd 3)" "$pmis")/$(per "$(accd 4)" "$pmis") msr, "
			acc="$acc$(per "$(accd 5)" "$pmis")/$(per "$(accd 6)" "$pmis") pci"
		else
			pmis=-
			acc="(timer)"
			frz="- -"
		fi
		echo "$pmu $rate ${got:-0} $((${got:-0} / SECS)) $dup $lost $thr $pmis $frz $acc" >>$ROWS
	done
}

# storm PCT: the worst case of the driver's time budget, with
# max_cpu_percent PCT. Every box of package 0 samples its clockticks at
# period 1, the timer-sampled ones every 10 us, the count throttle out of
# the way: what the reading CPU spends in sample passes is PCT, whatever
# is asked, and a pass ends once over it. The modules are loaded afresh,
# so that "longest", the longest pass since load, is this row's. Prints a
# row of the storm table.
storm() {
	if ! unload_modules || ! load_modules; then
		fail "storm: reload"
	fi
	# Package 0's boxes only: perf refuses an event whose PMU's cpumask
	# lacks the CPU of -C (a CBo only package 1 has).
	ev=""
	for e in $(clockticks_events); do
		[ "$e" = -e ] && continue
		case ",$(cat "$PMUS/${e%%/*}/cpumask")," in
		*",$CPU,"*) ev="$ev -e $e" ;;
		esac
	done
	P=/sys/module/uncore_pmu/parameters
	echo 10 >$P/sample_tick_us
	echo 100000000 >$P/max_sample_rate
	echo "$1" >$P/max_cpu_percent
	# A CPU is listed once it has run a pass.
	b0=$(awk -v c="$CPU" '$1 == c { print $2, $4 }' $D/budget)
	[ -n "$b0" ] || b0="0 0"
	s0=$(awk '!/^#/ && $2 == 0 { s += $4 } END { print s + 0 }' $D/samples)
	t0=$(awk '{ print $1 }' /proc/uptime)
	# shellcheck disable=SC2086 # one word per option
	perf record -a -C "$CPU" -c 1 -o - $ev -- sleep $SECS >/dev/null 2>$OUT/rec.err ||
		fail "storm: $(cat $OUT/rec.err)"
	t1=$(awk '{ print $1 }' /proc/uptime)
	b1=$(awk -v c="$CPU" '$1 == c { print $2, $3, $4 }' $D/budget)
	s1=$(awk '!/^#/ && $2 == 0 { s += $4 } END { print s + 0 }' $D/samples)
	echo 1000 >$P/sample_tick_us
	echo 100000 >$P/max_sample_rate
	echo 25 >$P/max_cpu_percent
	# shellcheck disable=SC2086 # split into the numbers
	set -- $b0 $b1 "$1"
	NSTORM=$(echo "$ev" | wc -w)
	awk -v s=$((s1 - s0)) -v p=$(($3 - $1)) -v tot=$(($5 - $2)) -v w="$4" \
		-v t0="$t0" -v t1="$t1" -v pct="$6" 'BEGIN {
		wall = (t1 - t0) * 1e9
		printf "%-7d  %-8d  %-10d  %5.1f%%  %6d%%  %.0f\n", s, p, s / (wall / 1e9),
			100 * tot / wall, pct, w / 1000 }' >>$OUT/storm
}

# monotonic: a reader on another CPU reads an iMC sampling event's count
# in a tight loop (tests/bin/readmono) while bursts of 100 periods are
# injected every 20 ms; how often, and how far, the count went back.
monotonic() {
	period=1000
	(
		end=$(($(date +%s) + SECS + 1))
		while [ "$(date +%s)" -lt "$end" ]; do
			sim_inject "pkg=0 box=imc idx=${IMC##*_} event=0x04 umask=0x01 count=$((100 * period))"
			sleep 0.02
		done
	) &
	inj=$!
	/tests/bin/readmono -s $SECS "$IMC" 0x0304 $period >$OUT/mono || fail "readmono"
	wait $inj
	kv() { sed -n "1s/.*$1=\([0-9]*\).*/\1/p" $OUT/mono; }
	reads=$(kv reads) backwards=$(kv backwards) largest=$(kv largest)
	echo "Concurrent reads: $IMC CAS_COUNT.RD sampled every $period events"
	echo "(PMI), bursts of 100 periods injected every 20 ms for $SECS s; a reader"
	echo "on another CPU reads the count in a loop (tests/vm/bin/readmono.c)."
	echo "back: reads that returned less than the read before them; largest:"
	echo "the largest step back, in events and in periods."
	echo
	echo "=========  ======  ==============  ==============="
	echo "reads      back    largest         largest/period"
	echo "=========  ======  ==============  ==============="
	printf '%-9s  %-6s  %-14s  %s\n' "$reads" "$backwards" "$largest" "$((largest / period))"
	echo "=========  ======  ==============  ==============="
}

IMC=$(lowest_box imc has_imc 8) || fail "package 0 has no iMC channel"
run "$IMC" "$DCLK"
run uncore_ha_0 "$UCLK"
run uncore_qpi_0 "$QCLK"
run uncore_r3qpi_0 "$UCLK"
run uncore_ubox "$UCLK"
run uncore_pcu "$PCLK"
CBO=$(lowest_box cbox has_cbo 24) || fail "package 0 has no CBo"
run "$CBO" "$UCLK"

echo "BENCH-TABLE-BEGIN"
echo "perf record -a -c P on package 0's PMU, clockticks event, $SECS s of"
echo "sleep per row, P = clock / asked; uncore_pmu on $(uname -r), QEMU TCG, MSR"
echo "backend $(sed -n 's/^# backend: //p' $D/access)."
echo "Ring buffer $MMAP. samples/s: samples perf wrote / $SECS s. dup.: records"
echo "in perf.data that repeat the one before them exactly. lost: samples the"
echo "driver emitted that are not in perf.data (recursion, ring buffer)."
echo "thr.: times the driver throttled the event. PMIs: handler passes."
echo "frozen: the time package 0 spent globally frozen (each PMI freezes it"
echo "until the handler's pass), over wall time; longest: its longest freeze"
echo "(us), both in the simulator's time (frozen_ns, frozen_max_ns)."
echo "accesses per PMI: register reads/writes on package 0, all boxes, over"
echo "the run, divided by PMIs (the event's add and del included)."
echo
rule
line "pmu" "asked/s" "samples" "samples/s" "dup." "lost" "thr." "PMIs" "frozen" "longest" "accesses per PMI (r/w)"
rule
while read -r pmu rate got sps dup lost thr pmis frozen longest acc; do
	line "$pmu" "$rate" "$got" "$sps" "$dup" "$lost" "$thr" "$pmis" "$frozen" "$longest" "$acc"
done <$ROWS
rule
: >$OUT/storm
storm 25
storm 1
echo
echo "Sampling storm: $((NSTORM / 2)) events, every PMU's clockticks at period 1"
echo "(timer every 10 us, max_sample_rate 1e8), $SECS s of perf record on"
echo "CPU $CPU, with the default budget and with max_cpu_percent=1. share:"
echo "time in the driver's sample passes / wall time; budget:"
echo "max_cpu_percent; longest: the longest pass (IRQs off), modules loaded"
echo "afresh for each row."
echo
echo "=======  ========  ==========  ======  =======  ============"
echo "samples  passes    samples/s   share   budget   longest (us)"
echo "=======  ========  ==========  ======  =======  ============"
cat $OUT/storm
echo "=======  ========  ==========  ======  =======  ============"
echo
monotonic
echo "BENCH-TABLE-END"
