#!/bin/sh
# timeout: 300
# tools/uncore-top's Xeon 7500 view against injected truth: the view is
# picked on its own, and with the sim clock frozen two batches of known M-box
# read commands, QPI flits sent and packets received, LLC misses, each
# beside what its column must not count, and a known advance of the clock
# land in one interval each: every count and rate it prints and writes is
# compared exactly (uncore_top_lib.sh), the W-box's uncore clock too. Then
# what it says with mainline's aliases only, and to another part's view.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh
# shellcheck source=../lib/uncore_top_lib.sh
. /tests/lib/uncore_top_lib.sh

load_modules all_aliases=0 || exit 1
nh_topo
hz=$(sed -n 's/^pkg0 info .*uclk_hz=\([0-9]*\).*/\1/p' "$SIM"/state)

UT_TITLE="Xeon 7500 (Nehalem-EX)"
UT_COUNTS="mem_read_bytes qpi_out_flits qpi_in_packets llc_miss_misses uclk_ticks"
UT_RATES="mem_read_MBps qpi_out_Mflitps qpi_in_Mpktps llc_miss_Mps uclk_GHz"
UT_SPEC="1e6:%.1f:sum 1e6:%.3f:sum 1e6:%.3f:sum 1e6:%.3f:sum 1e9:%.3f:-"

# ut_batch S MS: per package, in one inject: B-box read commands on both
# M-boxes (FVC field 0 = 5, what bbox_cmds_read selects), flits sent and
# packets received (a DRS packet, NEW_PC bit 2) on the four QPI ports (0
# and 1 of each R-box half), LLC misses of each kind (S, F, I) on the
# eight C-boxes; and what the columns must not count: the FVC value in
# field 1 (inc_sel 0xe), flits sent to S-box 0 (port 2), null idle flits,
# packets received from B-box 0 (port 3), LLC S-box fills. E_<p>: read
# bytes, flits, packets, misses, and the uncore clocks of MS ms.
ut_batch() {
	for p in $PKGS; do
		l="" rd=0 fl=0 pk=0 miss=0
		for n in 0 1; do
			a=$(($1 * 100003 + p * 10007 + n * 101))
			l="$l
pkg=$p box=mbox idx=$n sel=0xd fvc=5 count=$a
pkg=$p box=mbox idx=$n sel=0xe fvc=5 count=999"
			rd=$((rd + a))
		done
		for port in 0 1 4 5; do
			a=$(($1 * 300007 + p * 20011 + port * 103))
			b=$(($1 * 200003 + p * 30011 + port * 211))
			l="$l
pkg=$p box=rbox port=$port iperf=0x80000000 count=$a
pkg=$p box=rbox port=$port iperf=0x4 count=$b
pkg=$p box=rbox port=$port iperf=0x40000000 count=777"
			fl=$((fl + a)) pk=$((pk + b))
		done
		l="$l
pkg=$p box=rbox port=2 iperf=0x80000000 count=555
pkg=$p box=rbox port=3 iperf=0x4 count=444"
		for n in 0 1 2 3 4 5 6 7; do
			a=$(($1 * 40009 + p * 3001 + n * 17))
			l="$l
pkg=$p box=cbox idx=$n event=0x14 umask=$((1 << (n % 3))) count=$a
pkg=$p box=cbox idx=$n event=0x16 umask=0x1 count=333"
			miss=$((miss + a))
		done
		sim_inject "${l#?}" || return 1
		eval "E_$p='$((rd * 64)) $fl $pk $miss $((hz * $2 / 1000))'"
	done
}

ut_exact
is "$(sim_leftovers)" 0 "uncore-top's perf sessions left nothing programmed"
is "$(nh_bad_writes)" 0 "no reserved bit written, no faulting access"

# Another part's view, asked for: each of its columns, by the PMU it
# lacks, or the alias where the PMU's name is this part's too (the C-boxes
# and U-box).
is "$(ut_other_view bdx)" "1 4 2" "--view bdx: exit 1, four columns named by their PMU, two by their alias"
ok "grep -q '^  mem_read: no uncore_imc_\* PMU\$' /tmp/ut.err" "--view bdx: names the iMC PMUs it needs"
ok "grep -q '^  uclk: no uncore_ubox with events/clockticks\$' /tmp/ut.err" "--view bdx: names the U-box alias it needs"
unload_modules

# A machine with mainline's driver (this driver's PMUs, in a copy of sysfs
# without the aliases mainline lacks): bbox_cmds_read, the QPI flit aliases
# and clockticks are there; NEW_PACKETS_RECV and LLC_MISSES are not.
if load_modules; then
	ut_mainline_tree /tmp/utsys port0_new_packets_recv port1_new_packets_recv llc_misses.all
	UNCORE_TOP_SYS=/tmp/utsys $UT -n 1 >/tmp/ut.out 2>/tmp/ut.err
	rc=$?
	sed 's/^/# /' /tmp/ut.err
	is "$rc $(grep -c '^  [a-z_]*: no ' /tmp/ut.err) $(grep -c '^[a-z0-9]* (.*) needs:$' /tmp/ut.err)" "1 2 1" \
		"mainline's aliases: exit 1, two columns of one view named"
	ok "grep -q '^  qpi_in: no uncore_rbox_\* with events/port0_new_packets_recv\$' /tmp/ut.err" \
		"mainline's aliases: names the NEW_PACKETS_RECV alias"
	ok "grep -q '^  llc_miss: no uncore_cbox_\* with events/llc_misses.all\$' /tmp/ut.err" \
		"mainline's aliases: names the LLC_MISSES alias"
	ok "grep -q '^uncore-top: (views of other parts, with PMUs not here: bdx (uncore_imc_\*, uncore_qpi_\*), p4mp (uncore_ibusq_lat), k8 (uncore_nb))\$' /tmp/ut.err" \
		"mainline's aliases: the other parts' views on one line"
	rm -rf /tmp/utsys
fi
unload_modules
