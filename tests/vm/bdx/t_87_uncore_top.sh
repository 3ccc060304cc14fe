#!/bin/sh
# timeout: 500
# tools/uncore-top (/usr/bin/uncore-top in the guest) against injected
# truth: what it prints and writes to CSV, per package and interval, is what
# the simulator was made to see. With the sim clock frozen, two batches of
# known iMC CAS, QPI data flit and LLC miss counts on every box of every
# package, each written once an interval has been printed, and a known
# advance of the clock, land in one known interval each: every count and
# rate is compared exactly, the UCLK ticks too. With the clock running, the
# totals over the run are exact and UCLK (GHz) is within 3% of uclk_khz in
# every interval, 1% over the run: uncore-top divides by the time perf
# says the UBox counter ran, which the sim clock (CLOCK_MONOTONIC) and
# perf's clock measure apart only by their resolution and the read; the
# same run's --prom file (Prometheus' text format) holds the same totals,
# per package and PMU. Then
# bad input: options, no uncore PMUs, a driver without the aliases the view
# needs.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=../lib/uncore_top_lib.sh
. /tests/lib/uncore_top_lib.sh

ok "[ -x $UT ]" "uncore-top is installed"

# --- bad input ---------------------------------------------------------
for args in "--bogus" "-i" "-i 10" "-i 1x" "-n 0" "--view nosuch" "--plot a.csv" "extra"; do
	# shellcheck disable=SC2086 # the words of one case
	$UT $args >/tmp/ut.out 2>/tmp/ut.err
	rc=$?
	is "$rc $(grep -c '^usage: uncore-top' /tmp/ut.err)" "2 1" "uncore-top $args: usage error, exit 2"
done
$UT --plot /tmp/none.csv /tmp/x.gif >/dev/null 2>/tmp/ut.err
is "$?" 2 "uncore-top --plot to .gif: usage error, exit 2"
if ls -d "$PMUS"/uncore_* >/dev/null 2>&1; then
	skip "no uncore PMU: a clear message" "uncore PMUs already registered"
else
	$UT -n 1 >/tmp/ut.out 2>/tmp/ut.err
	is "$? $(cat /tmp/ut.err)" \
		"1 uncore-top: no uncore PMU in /sys/bus/event_source/devices: is uncore_pmu loaded (modprobe uncore_pmu)?" \
		"no uncore PMU: says so, exit 1"
fi

# A machine with mainline's driver: the iMC's cas_count_read/write and the
# UBox clockticks are there, the QPI flit and LLC_LOOKUP aliases are not
# (this driver's PMUs, in a copy of sysfs without them). The message names
# each column it cannot fill, and nothing else; the other parts' views,
# whose PMUs are not here, on one line.
if load_modules; then
	ut_mainline_tree /tmp/utsys unc_q_txl_flits_g0.data unc_q_rxl_flits_g0.data unc_c_llc_lookup.any
	UNCORE_TOP_SYS=/tmp/utsys $UT -n 1 >/tmp/ut.out 2>/tmp/ut.err
	rc=$?
	sed 's/^/# /' /tmp/ut.err
	is "$rc $(grep -c '^  [a-z_]*: no ' /tmp/ut.err)" "1 3" "mainline's aliases: exit 1, three columns named"
	ok "grep -q '^  qpi_out: no uncore_qpi_\* with events/unc_q_txl_flits_g0.data\$' /tmp/ut.err" \
		"mainline's aliases: names the QPI Tx flit alias"
	ok "grep -q '^  llc_miss: no uncore_cbox_\* with events/unc_c_llc_lookup.any\$' /tmp/ut.err" \
		"mainline's aliases: names the LLC_LOOKUP alias"
	ok "! grep -qE 'mem_read|mem_write|uclk' /tmp/ut.err" "mainline's aliases: the columns it can fill are not named"
	ok "[ ! -s /tmp/ut.out ]" "mainline's aliases: nothing on stdout"
	is "$(grep -c '^[a-z0-9]* (.*) needs:$' /tmp/ut.err) $(grep -c '^uncore-top: (views of other parts, with PMUs not here: nhmex (uncore_mbox_\*, .*), p4mp (uncore_ibusq_lat), k8 (uncore_nb))$' /tmp/ut.err)" \
		"1 1" "mainline's aliases: only the Broadwell view detailed, the others named on one line"
	rm -rf /tmp/utsys
	# Another part's view, asked for: every column, by its PMU.
	$UT -n 1 --view k8 >/tmp/ut.out 2>/tmp/ut.err
	is "$? $(sed -n 2,4p /tmp/ut.err | tr '\n' '|')" \
		"1 k8 (Athlon 64 / Opteron (K8) northbridge) needs:|  mem: no uncore_nb PMU|  ht_out: no uncore_nb PMU|" \
		"--view k8 on a Broadwell: exit 1, the K8 view's columns named with the PMU it lacks"
fi
unload_modules

# The rest with the driver's default aliases (all_aliases=0): every one
# the view reads is listed.
load_modules all_aliases=0 || exit 1
topo_init
np=$(echo "$PKGS" | wc -w)
khz=$(cat "$SIMPARAM"/uclk_khz)

# The view (uncore_top_lib.sh): the columns in its order.
UT_TITLE="Broadwell-EP/EX (Xeon E5/E7 v4)"
UT_COUNTS="mem_read_bytes mem_write_bytes qpi_out_bytes qpi_in_bytes llc_miss_misses uclk_ticks"
UT_RATES="mem_read_MBps mem_write_MBps qpi_out_MBps qpi_in_MBps llc_miss_Mps uclk_GHz"
UT_SPEC="1e6:%.1f:sum 1e6:%.1f:sum 1e6:%.1f:sum 1e6:%.1f:sum 1e6:%.3f:sum 1e9:%.3f:-"

# ut_batch S MS: the S-th set of known counts, written in one inject per
# package so that it lands within one interval: CAS reads and writes on
# every iMC channel the package has (with either subevent bit of .RD and
# .WR), Tx and Rx data flits on every QPI port, LLC lookups that miss
# (state I) on every CBo; and what the columns must not count: CAS
# RD_WMM, non-data flits, lookups that hit (state M). Sets E_<p> to
# "read-bytes write-bytes qpi-out-bytes qpi-in-bytes misses UCLK-ticks",
# the ticks those of MS ms.
ut_batch() {
	for p in $PKGS; do
		l="" rd=0 wr=0 qo=0 qi=0 miss=0
		n=0
		while [ $n -lt 8 ]; do
			if has_imc "$p" $n; then
				a=$(($1 * 1000003 + p * 100019 + n * 1009))
				b=$(($1 * 500009 + p * 70001 + n * 307))
				l="$l
pkg=$p box=imc idx=$n event=0x04 umask=$((1 + n % 2)) count=$a
pkg=$p box=imc idx=$n event=0x04 umask=$((4 << (n % 2))) count=$b
pkg=$p box=imc idx=$n event=0x04 umask=0x10 count=999"
				rd=$((rd + a)) wr=$((wr + b))
			fi
			n=$((n + 1))
		done
		ports=2
		port2 "$p" && ports=3
		n=0
		while [ $n -lt $ports ]; do
			a=$(($1 * 300007 + p * 20011 + n * 101))
			b=$(($1 * 200003 + p * 30011 + n * 211))
			l="$l
pkg=$p box=qpi idx=$n event=0x00 umask=0x02 count=$a
pkg=$p box=qpi idx=$n event=0x01 umask=0x02 count=$b
pkg=$p box=qpi idx=$n event=0x00 umask=0x04 count=777"
			qo=$((qo + a)) qi=$((qi + b))
			n=$((n + 1))
		done
		n=0
		while [ $n -lt 24 ]; do
			if has_cbo "$p" $n; then
				a=$(($1 * 40009 + p * 3001 + n * 17))
				l="$l
pkg=$p box=cbox idx=$n event=0x34 umask=0x11 state=0x1 count=$a
pkg=$p box=cbox idx=$n event=0x34 umask=0x11 state=0x8 count=555"
				miss=$((miss + a))
			fi
			n=$((n + 1))
		done
		sim_inject "${l#?}" || return 1
		eval "E_$p='$((rd * 64)) $((wr * 64)) $((qo * 8)) $((qi * 8)) $miss $((khz * $2))'"
	done
}

# --- exact: sim clock frozen, one batch in each of intervals 2 and 3 ----
ut_exact

# --- running clock: totals exact, UCLK within tolerance ----------------
csv=/tmp/ut2.csv prom=/tmp/ut2.prom
rm -f $csv $prom
$UT -i 1000 -n 4 --csv $csv --prom $prom >/tmp/ut2.out 2>/tmp/ut2.err &
ut=$!
ut_wait_rows $csv "$np" && ut_batch 3 0
wait $ut
is "$?" 0 "uncore-top -n 4 (clock running) exits 0"
sed 's/^/# /' /tmp/ut2.out
want_ghz=$(awk -v k="$khz" 'BEGIN { printf "%.3f", k / 1e6 }')
for p in $PKGS; do
	e=$(eval "echo \$E_$p" | sed 's/ [0-9]*$//')
	is "$(awk -F, -v p="$p" 'NR > 1 && $2 == p { for (i = 10; i <= 14; i++) s[i] += $i }
		END { printf "%.0f %.0f %.0f %.0f %.0f\n", s[10], s[11], s[12], s[13], s[14] }' $csv)" "$e" \
		"clock running, package $p: the intervals add up to the batch, exactly"
	# --prom: the totals since the start, per PMU; summed per socket.
	is "$(for m in mem_read_bytes mem_write_bytes qpi_out_bytes qpi_in_bytes llc_miss_misses; do
		awk -v m="uncore_${m}_total" -v l="socket=\"$p\"," 'index($1, m "{" l) == 1 { s += $2 }
			END { printf "%.0f\n", s }' $prom; done | tr '\n' ' ' | sed 's/ $//')" "$e" \
		"clock running, package $p: --prom's totals, summed over the PMUs, are the batch, exactly"
	diag "package $p UCLK GHz per interval: $(awk -F, -v p="$p" 'NR > 1 && $2 == p { printf " %.4f", $15 / $3 / 1e9 }' $csv) (want $want_ghz)"
	ok "awk -F, -v p='$p' -v w='$want_ghz' 'NR > 1 && \$2 == p && (\$15 / \$3 / 1e9 < w * 0.97 || \$15 / \$3 / 1e9 > w * 1.03) { exit 1 }' $csv" \
		"package $p: UCLK within 3% of ${want_ghz} GHz in every interval (CSV)"
	ok "awk -F, -v p='$p' -v w='$want_ghz' 'NR > 1 && \$2 == p { s += \$15; d += \$3 }
		END { g = s / d / 1e9; exit !(g >= w * 0.99 && g <= w * 1.01) }' $csv" \
		"package $p: UCLK within 1% of ${want_ghz} GHz over the run (CSV)"
	ok "awk -v p='$p' -v w='$want_ghz' '\$2 == p && \$1 ~ /^[0-9.]+\$/ && (\$8 < w * 0.97 || \$8 > w * 1.03) { exit 1 }' /tmp/ut2.out" \
		"package $p: the screen's GHz within 3% in every interval"
done
sed -n 's/^/# csv: /p' $csv
grep -v '^#' $prom | sed 's/^/# prom: /'
is "$(grep -c '^# TYPE uncore_[a-z_]*_total counter$' $prom)" 6 "--prom: a counter for each of the view's 6 columns"

is "$(sim_leftovers)" 0 "uncore-top's perf sessions left nothing programmed"
unload_modules
