#!/bin/sh
# timeout: 240
# tools/uncore-top's K8 northbridge view against injected truth: the view
# is picked on its own, and two batches of known DRAM accesses and data
# dwords sent on the three HyperTransport links, beside northbridge events
# its columns must not count, land in one interval each: every count and
# rate it prints and writes is compared exactly (uncore_top_lib.sh). Its
# four events fill the reading core's four counters, and none is
# multiplexed. Then what it says to another part's view.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=k8_lib.sh
. /tests/k8/k8_lib.sh
# shellcheck source=../lib/uncore_top_lib.sh
. /tests/lib/uncore_top_lib.sh

load_modules all_aliases=0 || exit 1
k8_topo

UT_TITLE="Athlon 64 / Opteron (K8) northbridge"
UT_COUNTS="mem_bytes ht_out_bytes"
UT_RATES="mem_MBps ht_out_MBps"
UT_SPEC="1e6:%.1f:sum 1e6:%.1f:sum"

# ut_batch S MS: per node, in one inject: DRAM accesses of each kind (page
# hit, miss, conflict) and data dwords sent on links 0, 1 and 2; and what
# the columns must not count: command and Nop dwords, page table
# overflows. E_<p>: DRAM bytes, HT bytes sent. The part has no clock
# counter: MS changes nothing.
ut_batch() {
	for p in $PKGS; do
		l="" dram=0 ht=0
		for u in 1 2 4; do
			a=$(($1 * 100003 + p * 10007 + u * 101))
			l="$l
pkg=$p event=0xe0 umask=$u count=$a"
			dram=$((dram + a))
		done
		for e in 0xf6 0xf7 0xf8; do
			a=$(($1 * 300007 + p * 20011 + e * 7))
			l="$l
pkg=$p event=$e umask=0x2 count=$a
pkg=$p event=$e umask=0x1 count=777
pkg=$p event=$e umask=0x8 count=555"
			ht=$((ht + a))
		done
		l="$l
pkg=$p event=0xe1 count=333"
		sim_inject "${l#?}" || return 1
		eval "E_$p='$((dram * 64)) $((ht * 4))'"
	done
}

ut_exact
is "$(k8_bad_writes)" 0 "no reserved bit written, no faulting access, no northbridge clobber"

# Another part's view, asked for: each of its columns, by the PMU it lacks.
is "$(ut_other_view bdx)" "1 6 0" "--view bdx: exit 1, its six columns named by the PMUs not here"
unload_modules
