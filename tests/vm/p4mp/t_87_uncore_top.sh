#!/bin/sh
# timeout: 240
# tools/uncore-top's view of the Xeon MP with L3 against injected truth:
# the view is picked on its own, and two batches of known IBUSQ latency
# counts (CNTR7, the one event the driver names on this part), beside
# iBUSQ, iSNPQ and EFSB occurrences it must not count, land in one
# interval each: every count and rate it prints and writes is compared
# exactly (uncore_top_lib.sh). Then what it says to another part's view.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=p4mp_lib.sh
. /tests/p4mp/p4mp_lib.sh
# shellcheck source=../lib/uncore_top_lib.sh
. /tests/lib/uncore_top_lib.sh

load_modules all_aliases=0 || exit 1
p4_topo

UT_TITLE="64-bit Xeon MP with L3 (NetBurst)"
UT_COUNTS="ibusq_lat_wcycles"
UT_RATES="ibusq_lat_Mps"
UT_SPEC="1e6:%.3f:sum"

# ut_batch S MS: per package, in one inject: latency counts on CNTR7, and
# occurrences on a counter of each other unit, which no event of the view
# has started (the simulator drops them). E_<p>: the latency count. The
# part has no clock counter: MS changes nothing.
ut_batch() {
	for p in $PKGS; do
		a=$(($1 * 1000003 + p * 100019))
		sim_inject "pkg=$p box=lat count=$a
pkg=$p box=ibusq idx=0 count=999
pkg=$p box=isnpq idx=1 count=777
pkg=$p box=efsb idx=0 count=555" || return 1
		eval "E_$p=$a"
	done
}

ut_exact
is "$(p4_field 0 "$(msr_of ctl6)" val) $(p4_field 1 "$(msr_of ctl6)" val)" \
	"0x0000000000000000 0x0000000000000000" "CTL6 cleared on both packages once uncore-top is done"

# Another part's view, asked for: each of its columns, by the PMU it lacks.
is "$(ut_other_view nhmex)" "1 5 0" "--view nhmex: exit 1, its five columns named by the PMUs not here"
ok "grep -q '^  mem_read: no uncore_mbox_\* PMU\$' /tmp/ut.err" "--view nhmex: names the M-box PMUs it needs"
unload_modules
