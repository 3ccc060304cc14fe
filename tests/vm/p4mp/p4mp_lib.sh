# shellcheck shell=sh
# Helpers of the Xeon MP L3 (p4mp) tests, after lib.sh and uncore_lib.sh.
# The simulator's state dump for this part (Documentation/simulator.rst):
#   pkg P reads=.. writes=.. faults=.. dropped=..
#     msr=0x107cc val=0x... counting=0|1 total=N rate=R

# The units with a qualification half, as the simulator's box= names them.
# shellcheck disable=SC2034 # for the tests that source this file
UNITS="ibusq isnpq efsb"

# msr_of UNIT IDX: the MSR holding that unit's counter IDX.
msr_of() {
	case $1 in
	ibusq) printf '0x%x' $((0x107cc + $2)) ;;
	isnpq) printf '0x%x' $((0x107ce + $2)) ;;
	efsb) printf '0x%x' $((0x107d0 + $2)) ;;
	lat) echo 0x107d3 ;;
	ctl6) echo 0x107d2 ;;
	esac
}

# p4_field PKG MSR FIELD [DUMP]: FIELD (val, counting, total, rate) of MSR
# in PKG, from the simulator's state, or from DUMP, a copy of it.
p4_field() {
	if [ -n "${4:-}" ]; then cat "$4"; else sim_state; fi | awk -v p="$1" -v m="msr=$2" -v f="$3" '
		$1 == "pkg" { cur = $2 }
		cur == p && $1 == m { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }'
}

# p4_stat PKG KEY: reads, writes, faults or dropped of package PKG.
p4_stat() { sim_state | sed -n "s/^pkg $1 .*$2=\([0-9]*\).*/\1/p"; }

# p4_topo: PKGS, and FIRST_<p> the reading CPU of package p at load.
p4_topo() {
	PKGS=$(pkgs | tr '\n' ' ')
	for p in $PKGS; do
		eval "FIRST_$p=$(pkg_first_cpu "$p")"
	done
}
