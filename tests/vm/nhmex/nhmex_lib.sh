# shellcheck shell=sh
# Helpers of the Xeon 7500 (Nehalem-EX) tests, after lib.sh and
# uncore_lib.sh. The simulator's state dump for this part
# (Documentation/simulator.rst, "The Xeon 7500 (Nehalem-EX) model"):
#   pkg0 stats reads=N writes=N faults=N rsvd_writes=N gp_mm=N ...
#   pkg0 global ctl=0x... status=0x... pmi_core_sel=0x.. pmi_owed=0|1
#   pkg0 cbox3 ctl=0x... status=0x...
#   pkg0 cbox3 ctr0 ctl=0x... ctr=0x... total=N counting=0|1
#   pkg0 wbox fixed ctl=0x... ctr=0x... total=N counting=0|1
#   pkg0 rport5 iperf0=0x... iperf1=0x... qlx=0x... xbr1=M,A,K xbr2=M,A,K

# nh_field PKG ITEM SUB FIELD [DUMP]: FIELD of the line "pkgPKG ITEM SUB"
# (SUB "-": the box's own line), from the state or DUMP, a copy of it.
nh_field() {
	if [ -n "${5:-}" ]; then cat "$5"; else sim_state; fi | awk -v p="pkg$1" -v b="$2" -v s="$3" -v f="$4" '
		$1 == p && $2 == b && (s == "-" ? $3 !~ /^(ctr[0-9]|fixed)$/ : $3 == s) {
			for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] }
		}'
}

# nh_total PKG BOX CTR: the unwrapped count of a counter (CTR ctrN/fixed).
nh_total() { nh_field "$1" "$2" "$3" total; }

# nh_stat PKG KEY: a number of the package's stats line.
nh_stat() { sim_state | sed -n "s/^pkg$1 stats .*[ ]$2=\([0-9]*\).*/\1/p"; }

# nh_bad_writes: reserved-bit writes, #GP'd match writes and faults,
# summed over packages; the driver must cause none.
nh_bad_writes() {
	sim_state | awk '$2 == "stats" { for (i = 3; i <= NF; i++) { split($i, kv, "=");
		if (kv[1] == "rsvd_writes" || kv[1] == "gp_mm" || kv[1] == "faults" ||
		    kv[1] == "illegal_sel") s += kv[2] } } END { print s + 0 }'
}

# nh_topo: PKGS, and FIRST_<p> the reading CPU of package p at load.
nh_topo() {
	PKGS=$(pkgs | tr '\n' ' ')
	for p in $PKGS; do
		eval "FIRST_$p=$(pkg_first_cpu "$p")"
	done
}

# The PMUs of the part, as mainline names them.
# shellcheck disable=SC2034 # for the tests that source this file
NH_PMUS="ubox cbox_0 cbox_1 cbox_2 cbox_3 cbox_4 cbox_5 cbox_6 cbox_7 bbox_0 bbox_1 sbox_0 sbox_1 mbox_0 mbox_1 rbox_0 rbox_1 wbox"

# nh_settle PKG: wait (10 s, scaled) until package PKG has no overflow in
# flight: no freeze pending, no PMI owed, U GLOBAL_STATUS clear, en_all set again (the
# driver's handler ran and unfroze it). Events injected while the package
# is frozen are not counted, as on the part.
nh_settle() {
	_n=$((100 * ${UNCORE_TIMEOUT_SCALE:-1}))
	while [ "$_n" -gt 0 ]; do
		_g=$(sim_state | grep "^pkg$1 global ")
		_c=$(echo "$_g" | sed -n 's/.* ctl=\(0x[0-9a-f]*\).*/\1/p')
		case $_g in
		*freeze_pending=1*) ;;
		*" status=0x00000000 "*"pmi_owed=0"*)
			[ $((_c & 0x10000000)) -ne 0 ] && return 0 ;;
		esac
		sleep 0.1
		_n=$((_n - 1))
	done
	diag "package $1 did not settle: $_g"
	return 1
}
