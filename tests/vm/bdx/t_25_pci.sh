#!/bin/sh
# The PCI boxes: which PMUs exist (device presence, CAPID4), exact counts on
# every box of every package, clocks, the QPI ev_sel_ext bit, HA address and
# opcode match, QPI packet match/mask, iMC CAS in MiB.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
out=/tmp/stat.csv

# iMC channel n exists on the packages the simulator gave it (its imc_mask).
n=0
while [ $n -lt 8 ]; do
	want=""
	for p in $PKGS; do
		has_imc "$p" $n && want="$want${want:+,}$(first_cpu "$p")"
	done
	if [ -n "$want" ]; then
		is "$(cat "$PMUS"/uncore_imc_$n/cpumask 2>/dev/null)" "$want" "uncore_imc_$n cpumask: the packages with iMC channel $n"
	else
		ok "[ ! -e $PMUS/uncore_imc_$n ]" "uncore_imc_$n absent: no package has the channel"
	fi
	n=$((n + 1))
done
all=""
for p in $PKGS; do all="$all${all:+,}$(first_cpu "$p")"; done
for b in ha_0 ha_1 irp qpi_0 qpi_1 r2pcie r3qpi_0 r3qpi_1; do
	is "$(cat "$PMUS"/uncore_$b/cpumask 2>/dev/null)" "$all" "uncore_$b on every package"
done
want=""
for p in $PKGS; do port2 "$p" && want="$want${want:+,}$(first_cpu "$p")"; done
for b in qpi_2 r3qpi_2; do
	if [ -n "$want" ]; then
		is "$(cat "$PMUS"/uncore_$b/cpumask 2>/dev/null)" "$want" "uncore_$b: the packages whose CAPID4[7:6] is 10b"
	else
		ok "[ ! -e $PMUS/uncore_$b ]" "uncore_$b absent: CAPID4[7:6] is not 10b anywhere"
	fi
done
is "$(cat "$PMUS"/uncore_r3qpi_0/num_counters) $(cat "$PMUS"/uncore_imc_0/fixed_counter_width)" "3 48" "R3QPI has 3 counters, iMC a 48-bit fixed counter"

# Does package $1 have box $3 of simulator box kind $2?
has_box() {
	case $2 in
	imc) has_imc "$1" "$3" ;;
	qpi|r3qpi) [ "$3" != 2 ] || port2 "$1" ;;
	esac
}

# One event on every PCI PMU, a distinct count per box and package.
events="" cmds=""
add() { # PMU EVENT-TERMS SIMBOX IDX SIMEVENT UMASK BASE
	[ -d "$PMUS/uncore_$1" ] || return 0
	events="$events${events:+,}uncore_$1/$2,name=$1/"
	for p in $PKGS; do
		has_box "$p" "$3" "$4" || continue
		cmds="$cmds inject 'pkg=$p box=$3 idx=$4 event=$5 umask=$6 count=$(($7 + 1000 * p))';"
	done
}
add ha_0 event=0x01,umask=0x03 ha 0 0x01 0x01 101
add ha_1 event=0x01,umask=0x0c ha 1 0x01 0x04 102
n=0
while [ $n -lt 8 ]; do
	add imc_$n event=0x04,umask=0x03 imc $n 0x04 0x01 $((110 + n))
	n=$((n + 1))
done
add irp event=0x16,umask=0x01 irp 0 0x16 0x01 121
add qpi_0 event=0x01,umask=0x02 qpi 0 0x01 0x02 131
add qpi_1 event=0x102,umask=0x02 qpi 1 0x102 0x02 132
add qpi_2 event=0x01,umask=0x04 qpi 2 0x01 0x04 133
add r2pcie event=0x10,umask=0x01 r2pcie 0 0x10 0x01 141
add r3qpi_0 event=0x10,umask=0x01 r3qpi 0 0x10 0x01 151
add r3qpi_1 event=0x10,umask=0x02 r3qpi 1 0x10 0x02 152
add r3qpi_2 event=0x10,umask=0x04 r3qpi 2 0x10 0x04 153
pstat "$out" -a -A -e "$events" -- sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; $cmds
	inject 'pkg=0 box=qpi idx=1 event=0x02 umask=0x02 count=7'"
check() { # PMU SIMBOX IDX BASE
	[ -d "$PMUS/uncore_$1" ] || return 0
	for p in $PKGS; do
		has_box "$p" "$2" "$3" || continue
		is "$(val_cpu "$out" "$(first_cpu "$p")" "$1")" $(($4 + 1000 * p)) "$1 package $p: exact"
	done
}
check ha_0 ha 0 101
check ha_1 ha 1 102
n=0
while [ $n -lt 8 ]; do
	check imc_$n imc $n $((110 + n))
	n=$((n + 1))
done
check irp irp 0 121
check qpi_0 qpi 0 131
check qpi_1 qpi 1 132
check qpi_2 qpi 2 133
check r2pcie r2pcie 0 141
check r3qpi_0 r3qpi 0 151
check r3qpi_1 r3qpi 1 152
check r3qpi_2 r3qpi 2 153
is "$(sim_violations)" 0 "no reserved bit written, BOX_CTL[17:16] set where required"

# Clocks, with sim time frozen and advanced by exactly 1 ms.
uclk_khz=$(cat "$SIMPARAM"/uclk_khz)
dclk_khz=$(cat "$SIMPARAM"/dclk_khz)
echo freeze > "$SIM"/clock
pstat "$out" -a -A -e 'uncore_ha_0/event=0x00,name=hclk/,uncore_imc_0/event=0xff,name=dfix/,uncore_imc_0/event=0x00,name=dclk/,uncore_qpi_0/event=0x14,name=qclk/,uncore_r2pcie/event=0x01,name=r2clk/,uncore_r3qpi_1/event=0x01,name=r3clk/,uncore_irp/event=0x00,name=iclk/' \
	-- sh -c "echo 'advance 1000000' > $SIM/clock"
echo run > "$SIM"/clock
for p in $PKGS; do
	c=$(first_cpu "$p")
	for e in hclk r2clk r3clk iclk; do
		is "$(val_cpu "$out" "$c" $e)" "$uclk_khz" "package $p: $e = UCLK ticks in 1 ms"
	done
	is "$(val_cpu "$out" "$c" qclk)" 1600000 "package $p: QPI clockticks = 1.6 GHz QPI clock in 1 ms"
	if has_imc "$p" 0; then
		is "$(val_cpu "$out" "$c" dfix)" "$dclk_khz" "package $p: iMC fixed counter = DCLK ticks in 1 ms"
		is "$(val_cpu "$out" "$c" dclk)" "$dclk_khz" "package $p: iMC DCLOCKTICKS = DCLK ticks in 1 ms"
	fi
done

# A carry into the upper dword between the driver's config reads. With sim
# time frozen, each read of a counter dword takes 1 us (1066 DCLK ticks),
# and package 0's iMC0 channel 2 counter starts 1600 ticks below 2^32: the
# carry lands inside the first read while it counts. The count must equal the simulator's, and the case must occur
# (mainline's "lower, then upper" read would be 2^32 off here).
if has_imc 0 2; then
	carries() { sim_state | sed -n 's/^pkg0 stats .* split_carries=\([0-9]*\).*/\1/p'; }
	total() { sim_state | sed -n 's/^pkg0 imc2 ctr0 .* total=\([0-9]*\).*/\1/p'; }
	before=$(carries) total0=$(total)
	echo freeze > "$SIM"/clock
	echo 'pci_tick 1000' > "$SIM"/clock
	echo "pkg=0 box=imc idx=2 ctr=0 value=$(( (1 << 32) - 1600 ))" > "$SIM"/counter
	# perf stat -I drops what counts after its last interval: stop the
	# reads' ticks first, so the last interval catches everything.
	pstat "$out" -a -A -I 100 -e 'uncore_imc_2/event=0x00,name=dclk/' -- \
		sh -c "sleep 0.35; echo 'pci_tick 0' > $SIM/clock; sleep 0.25"
	echo run > "$SIM"/clock
	truth=$(( $(total) - total0 ))
	ok "[ $(carries) -gt $before ]" "a carry fell between two reads of the counter's dwords"
	is "$(val_intervals_cpu "$out" "$(first_cpu 0)" dclk)" "$truth" "the driver's count equals the simulator's across that carry"
	ok "[ $(( truth )) -gt 1600 ]" "the count crossed 2^32 (truth $truth)"
else
	skip "tear-free read" "needs iMC0 channel 2 on package 0"
fi

# iMC CAS counts in MiB through .scale/.unit: 16384 CAS x 64 B = 1 MiB.
pstat "$out" -a -e uncore_imc_0/cas_count_read/ -- sh -c ". /tests/lib/lib.sh; sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=16384'; sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=8192'"
is "$(awk -F, '$3 ~ /cas_count_read/ { print $1 " " $2 }' "$out")" "1.50 MiB" "cas_count_read: 24576 CAS = 1.50 MiB"

# HA address/opcode match: only matching requests count.
pstat "$out" -a -A -e 'uncore_ha_0/event=0x20,umask=0x01,filter_addr=0x12345000,name=addr/,uncore_ha_1/event=0x20,umask=0x02,filter_opc=0x12,name=opc/' \
	-- sh -c ". /tests/lib/lib.sh; for a in 0x12345000 0x12345fc0 0x12346000; do sim_inject \"pkg=0 box=ha idx=0 event=0x20 umask=0x01 addr=\$a count=10\"; done
		for o in 0x12 0x13; do sim_inject \"pkg=0 box=ha idx=1 event=0x20 umask=0x02 hopc=\$o count=5\"; done"
c0=$(first_cpu 0)
is "$(val_cpu "$out" "$c0" addr)" 20 "HA address match counts the two requests in the matched 4 KiB page"
is "$(val_cpu "$out" "$c0" opc)" 5 "HA opcode match counts only opcode 0x12"
ok "refused uncore_ha_0/event=0x20,umask=0x01,filter_addr=0x12345040/" "HA filter_addr below 4 KiB granularity refused"
ok "refused uncore_ha_0/event=0x01,filter_opc=1/" "HA match value on an event that ignores it refused"

# QPI match/mask (Rx): DRS data packets (MC 1110b) counted by CTO_COUNT.
pstat "$out" -a -A -e 'uncore_qpi_0/event=0x138,match_mc=0xe,mask_mc=0xf,name=cto/' \
	-- sh -c ". /tests/lib/lib.sh; sim_inject 'pkg=0 box=qpi idx=0 event=0x138 pkt0=0x1c00 count=12'
		sim_inject 'pkg=0 box=qpi idx=0 event=0x138 pkt0=0x1800 count=5'
		sim_inject 'pkg=0 box=qpi idx=0 event=0x138 pkt0=0x1c00 tx=1 count=3'
		cat $SIM/state > /tmp/during"
rx_mm() { sed -n 's/^pkg0 qpi0 .*rx_match=\([^ ]*\) rx_mask=\([^ ]*\).*/\1 \2/p' "$1"; }
is "$(val_cpu "$out" "$c0" cto)" 12 "QPI CTO_COUNT counts only Rx packets the match/mask selects"
is "$(rx_mm /tmp/during)" "0x00001c00,0x00000000 0x00001e00,0x00000000" "QPI Rx MATCH0/MASK0 programmed as asked"
sim_state >/tmp/after
is "$(rx_mm /tmp/after)" "0x00000000,0x00000000 0x00000000,0x00000000" "and cleared once the event closed"
ok "refused uncore_qpi_0/event=0x01,match_mc=1/" "QPI match on a non-CTO event refused"
ok "refused uncore_qpi_0/event=0x138,match0=0x7/" "QPI match on reserved bits refused"
is "$(sim_violations)" 0 "still no reserved bit written"

unload_modules
