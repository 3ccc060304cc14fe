#!/bin/sh
# perf stat modes: groups, -I intervals, --per-socket, merged uncore_cbox
# aliases, multiplexing with more events than counters, and the shared CBo
# filter arbitrated instead of clobbered.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
out=/tmp/stat.csv
c0=$(first_cpu 0)

# A group filling all four counters, with a counter-0-only occupancy event;
# simulated time frozen so the clockticks member is exact too.
echo freeze > "$SIM"/clock
pstat $out -a -A -e '{uncore_cbox_3/event=0x35,umask=0x8,name=g0/,uncore_cbox_3/event=0x34,umask=0x11,filter_state=0x1,name=g1/,uncore_cbox_3/event=0x36,umask=0x8,name=g2/,uncore_cbox_3/event=0x0,name=g3/}' \
	-- sh -c ". /tests/lib/lib.sh;
		sim_inject 'pkg=0 box=cbox idx=3 event=0x35 umask=0x08 count=11';
		sim_inject 'pkg=0 box=cbox idx=3 event=0x34 umask=0x11 state=0x1 count=22';
		sim_inject 'pkg=0 box=cbox idx=3 event=0x36 umask=0x08 count=10 inc=5';
		echo 'advance 1000' > /sys/kernel/debug/uncore_sim/clock"
echo run > "$SIM"/clock
is "$(val_cpu "$out" "$c0" g0)" 11 "group: TOR_INSERTS"
is "$(val_cpu "$out" "$c0" g1)" 22 "group: LLC_LOOKUP with state"
is "$(val_cpu "$out" "$c0" g2)" 50 "group: TOR_OCCUPANCY (counter 0) adds occupancy per cycle"
is "$(val_cpu "$out" "$c0" g3)" $(($(cat "$SIMPARAM"/uclk_khz) / 1000)) "group: clockticks over 1 us of frozen time"

# Intervals sum to the total.
pstat "$out" -a -I 100 -e 'uncore_cbox_0/event=0x35,umask=0x8,name=iv/' -- \
	sh -c ". /tests/lib/lib.sh; sim_inject 'pkg=0 box=cbox idx=0 event=0x35 umask=0x08 count=100'; sleep 0.3;
	       sim_inject 'pkg=0 box=cbox idx=0 event=0x35 umask=0x08 count=200'; sleep 0.3"
is "$(val_intervals "$out" iv)" 300 "perf stat -I 100: intervals sum to the injected total"

# --per-socket.
pstat "$out" -a --per-socket -e 'uncore_cbox_3/event=0x35,umask=0x8,name=ps/' -- \
	sh -c ". /tests/lib/lib.sh; sim_inject 'pkg=0 box=cbox idx=3 event=0x35 umask=0x08 count=111';
	       sim_inject 'pkg=1 box=cbox idx=3 event=0x35 umask=0x08 count=222'"
is "$(val_socket "$out" 0 ps)" 111 "--per-socket: socket 0"
is "$(val_socket "$out" 1 ps)" 222 "--per-socket: socket 1"

# The recipes of README and Documentation/user-guide.rst, on perf 6.1
# and 6.12; not under the debug kernel (its timeout scale), where each
# perf run costs seconds and the counting paths they take are the ones
# above.
if [ "${UNCORE_TIMEOUT_SCALE:-1}" -eq 1 ]; then
	# README's first example: memory read traffic per socket, uncore_imc/ for
	# every iMC channel's PMU, summed by perf and scaled by the alias to MiB
	# (64 B a CAS): 16384 CAS, 1 MiB, on each channel a package has, and on
	# package 1's first channel twice.
	cmds="" want0=0 want1=0
	for p in $PKGS; do
		for n in 0 1 2 3 4 5 6 7; do
			if ! has_imc "$p" $n || [ ! -d "$PMUS/uncore_imc_$n" ]; then
				continue
			fi
			i="sim_inject 'pkg=$p box=imc idx=$n event=0x04 umask=0x01 count=16384';"
			cmds="$cmds $i"
			if [ "$p" = 0 ]; then
				want0=$((want0 + 1))
			elif [ "$want1" = 0 ]; then
				cmds="$cmds $i"
				want1=2
			else
				want1=$((want1 + 1))
			fi
		done
	done
	E=uncore_imc/cas_count_read/
	pstat "$out" -a --per-socket -e $E -- sh -c ". /tests/lib/lib.sh; $cmds"
	is "$(val_socket "$out" 0 $E)" "$want0.00" "$E --per-socket: socket 0, $want0 MiB over its channels"
	is "$(val_socket "$out" 1 $E)" "$want1.00" "and socket 1, $want1 MiB"
	ok "grep -q ',MiB,$E' $out" "in MiB"

	# Documentation/user-guide.rst's other per-socket recipes. LLC misses:
	# lookups that found the line invalid, every CBo of a package summed
	# (CBo n of each package gets n + 1 of them). By perf's name for the
	# event, both perfs scale it to 64-byte lines (their JSON's ScaleUnit).
	cmds="" want0=0 want1=0
	n=0
	while [ $n -lt 24 ]; do
		for p in $PKGS; do
			if ! has_cbo "$p" $n || [ ! -d "$PMUS/uncore_cbox_$n" ]; then
				continue
			fi
			cmds="$cmds sim_inject 'pkg=$p box=cbox idx=$n event=0x34 umask=0x11 state=0x1 count=$((n + 1))';"
			eval "want$p=\$((want$p + n + 1))"
		done
		n=$((n + 1))
	done
	E=uncore_cbox/event=0x34,umask=0x11,filter_state=0x1,name=llc_miss/
	A=uncore_cbox/unc_c_llc_lookup.any/
	pstat "$out" -a --per-socket -e $E,$A -- sh -c ". /tests/lib/lib.sh; $cmds"
	is "$(val_socket "$out" 0 llc_miss) $(val_socket "$out" 1 llc_miss)" "$want0 $want1" \
		"LLC misses --per-socket: every CBo's, $want0 and $want1"
	is "$(val_socket "$out" 0 $A) $(val_socket "$out" 1 $A)" "$((want0 * 64)) $((want1 * 64))" \
		"$A: the same, times 64 (perf's JSON scale)"

	# QPI data flits out and in (8 bytes each), ports 0 and 1, which every
	# package has. By their aliases' names the two perfs differ: perf 6.12
	# applies the alias's .scale (MiB), perf 6.1 takes its JSON's entry,
	# which has none (raw flits); the raw encodings are the same on both.
	q() { echo "sim_inject 'pkg=$1 box=qpi idx=$2 event=$3 umask=0x02 count=$4';"; }
	TX=uncore_qpi/event=0x00,umask=0x02,name=qpi_tx/ RX=uncore_qpi/event=0x01,umask=0x02,name=qpi_rx/
	pstat "$out" -a --per-socket -e $TX,$RX -- sh -c ". /tests/lib/lib.sh;
		$(q 0 0 0x00 100) $(q 0 1 0x00 200) $(q 1 0 0x00 300) $(q 0 1 0x01 400) $(q 1 0 0x01 500) $(q 1 1 0x01 600)"
	is "$(val_socket "$out" 0 qpi_tx) $(val_socket "$out" 1 qpi_tx)" "300 300" "QPI data flits out --per-socket: 300 and 300"
	is "$(val_socket "$out" 0 qpi_rx) $(val_socket "$out" 1 qpi_rx)" "400 1100" "QPI data flits in --per-socket: 400 and 1100"
fi

# uncore_cbox/.../ expands to every CBo PMU and merges them.
want=0 cmds=""
n=0
while [ $n -lt 24 ]; do
	for p in $PKGS; do
		has_cbo "$p" $n || continue
		cmds="$cmds sim_inject 'pkg=$p box=cbox idx=$n event=0x35 umask=0x08 count=$((n + 1))';"
		want=$((want + n + 1))
	done
	n=$((n + 1))
done
pstat "$out" -a -e 'uncore_cbox/event=0x35,umask=0x8,name=merged/' -- sh -c ". /tests/lib/lib.sh; $cmds"
is "$(val_total "$out" merged)" $want "uncore_cbox/.../ merged over every CBo of every package"

# Five events, four counters: perf multiplexes; every event gets time and
# none ran all the time.
pstat "$out" -a -A -e 'uncore_cbox_3/event=0x35,umask=0x8,name=m0/,uncore_cbox_3/event=0x35,umask=0x4,name=m1/,uncore_cbox_3/event=0x35,umask=0x10,name=m2/,uncore_cbox_3/event=0x35,umask=0x20,name=m3/,uncore_cbox_3/event=0x35,umask=0x2,name=m4/' -- sleep 0.5
for m in m0 m1 m2 m3 m4; do
	pct=$(awk -F, -v c="CPU$c0" -v n=$m '$1 == c && $4 == n { print int($6) }' "$out")
	ok "[ '${pct:-0}' -gt 0 ] && [ '${pct:-100}' -lt 100 ]" "multiplexing: $m ran part of the time (${pct:-?}%)"
done

# Two events needing different opcode matches on one CBo: each runs only
# with its own filter value. Opcode 0x182 comes in thousands, 0x180 in ones,
# so a count that mixed them would not be a multiple of 1000 or would
# exceed 20.
pstat "$out" -a -A --no-scale -e 'uncore_cbox_3/event=0x35,umask=0x1,filter_opc=0x182,name=fa/,uncore_cbox_3/event=0x35,umask=0x1,filter_opc=0x180,name=fb/' -- \
	sh -c ". /tests/lib/lib.sh; i=0; while [ \$i -lt 20 ]; do
		sim_inject 'pkg=0 box=cbox idx=3 event=0x35 umask=0x01 opc=0x182 count=1000';
		sim_inject 'pkg=0 box=cbox idx=3 event=0x35 umask=0x01 opc=0x180 count=1';
		sleep 0.02; i=\$((i + 1)); done"
fa=$(val_cpu "$out" "$c0" fa)
fb=$(val_cpu "$out" "$c0" fb)
diag "filter arbitration: fa=$fa fb=$fb"
ok "[ $((fa % 1000)) = 0 ] && [ $fa -le 20000 ]" "opcode 0x182 event counted only 0x182 requests ($fa)"
ok "[ $fb -le 20 ]" "opcode 0x180 event counted only 0x180 requests ($fb)"
ok "[ $((fa + fb)) -gt 0 ]" "filter-sharing events were both scheduled at some point"

unload_modules
