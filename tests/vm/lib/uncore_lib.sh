# shellcheck shell=sh
# Helpers shared by the uncore_pmu integration tests (after lib.sh).
#
# Ground truth is what a test injects into the simulator; perf's counts must
# equal it exactly. Packages are physical package ids, as the simulator's
# debugfs interface numbers them (Documentation/simulator.rst).

# shellcheck disable=SC2034 # used by the tests that source this file
SIM=/sys/kernel/debug/uncore_sim
# shellcheck disable=SC2034
PMUS=/sys/bus/event_source/devices
# shellcheck disable=SC2034
SIMPARAM=/sys/module/uncore_sim/parameters

# Physical package of a CPU.
pkg_of_cpu() { cat "/sys/devices/system/cpu/cpu$1/topology/physical_package_id"; }

# Packages present, in order.
pkgs() { cat /sys/devices/system/cpu/cpu*/topology/physical_package_id | sort -un; }

# Lowest-numbered online CPU of package $1: the driver's reading CPU after load.
pkg_first_cpu() {
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		n=${c##*cpu}
		[ -f "$c/online" ] && [ "$(cat "$c/online")" = 0 ] && continue
		[ "$(cat "$c/topology/physical_package_id")" = "$1" ] && echo "$n"
	done | sort -n | head -n1
}

# Register $1 (capid4, capid5, nodeid) of package $2 as the simulator has it.
sim_reg() { sim_state | sed -n "s/^pkg$2 info .*$1=\([0-9a-fx]*\).*/\1/p"; }

# imc0_init, then imc0_dev PKG: the PCI address of Broadwell iMC 0 channel
# 0 (D20:F0) of package PKG, in the simulator's domain, where package p's
# boxes are on bus 0xff - p * (256 / packages) (simulator.rst). imc0_init
# runs after topo_init, while a D20:F0 is bound to uncore_pmu: the domain
# is read from the driver's bindings.
imc0_init() {
	set -- /sys/bus/pci/drivers/uncore_pmu/*:14.0
	_imc0_dom=${1##*/}
	_imc0_dom=${_imc0_dom%%:*}
	_imc0_np=$(echo "$PKGS" | wc -w)
}
imc0_dev() { printf '%s:%02x:14.0' "$_imc0_dom" $((0xff - $1 * (256 / _imc0_np))); }

# topo_init: after load_modules, cache what the helpers below ask of every
# package once. Forks are slow in a KASAN guest under TCG; the state dump
# is long. PKGS lists the packages, FIRST_<p> its reading CPU at load time.
topo_init() {
	PKGS=$(pkgs | tr '\n' ' ')
	for p in $PKGS; do
		eval "CAPID5_$p=$(sim_reg capid5 "$p") CAPID4_$p=$(sim_reg capid4 "$p") IMC_$p=$(sim_reg imc "$p")"
		eval "FIRST_$p=$(pkg_first_cpu "$p")"
	done
}
first_cpu() { eval "echo \$FIRST_$1"; }

# Does package $1 have CBo $2 (CAPID5 bit)?
# shellcheck disable=SC2154 # _c is set by the eval
has_cbo() { eval "_c=\$CAPID5_$1"; [ $(( (_c >> $2) & 1 )) = 1 ]; }

# Does package $1 have iMC channel $2 (PMON devices present)?
has_imc() { eval "_c=\$IMC_$1"; [ $(( (_c >> $2) & 1 )) = 1 ]; }

# cpus_of_pkg PKG: the online CPUs of package PKG, blank-separated (an
# offline CPU has no topology to tell).
cpus_of_pkg() {
	for _c in /sys/devices/system/cpu/cpu[0-9]*; do
		_n=${_c##*cpu}
		[ -e "$_c/topology/physical_package_id" ] &&
			[ "$(pkg_of_cpu "$_n")" = "$1" ] && printf '%s ' "$_n"
	done
	echo
}

# spin_start: a busy loop at the lowest priority on the CPUs this shell may
# run on, so that the scheduler tick, and perf's frequency and unthrottle
# code with it, runs there; its pid in SPIN. (busybox has renice, no nice.)
spin_start() {
	sh -c 'while :; do :; done' &
	SPIN=$!
	renice -n 19 -p "$SPIN" >/dev/null
}

# carry_figures: what every package's moves carried (debugfs packages,
# review pmi-protocol N22): "N carries, the longest unread M ms, L late".
carry_figures() {
	awk '!/^#/ { n += $6; if ($7 > m) m = $7; l += $8 }
		END { printf "%d carries, the longest unread %.1f ms, %d late\n", n, m / 1e6, l }' \
		/sys/kernel/debug/uncore_pmu/packages
}

# pmi_cores PKG: FAR, the CPUs of package PKG on a core the PMI cannot
# reach (pmi_core_sel names cores 0-17, BDX Table 2-2), and NEAR, the
# others; blank-separated.
pmi_cores() {
	FAR="" NEAR=""
	for _c in /sys/devices/system/cpu/cpu[0-9]*; do
		_n=${_c##*cpu}
		[ "$(pkg_of_cpu "$_n")" = "$1" ] || continue
		if [ "$(cat "$_c/topology/core_id")" -ge 18 ]; then
			FAR="$FAR $_n"
		else
			NEAR="$NEAR $_n"
		fi
	done
	FAR=${FAR# } NEAR=${NEAR# }
}

# lowest_box TYPE HAS N: uncore_TYPE_<n> of the lowest n < N that package
# 0 has (HAS: has_cbo or has_imc) and that is registered; fails if none.
lowest_box() {
	_i=0
	while [ $_i -lt "$3" ]; do
		if $2 0 $_i && [ -d "$PMUS/uncore_$1_$_i" ]; then
			echo "uncore_$1_$_i"
			return 0
		fi
		_i=$((_i + 1))
	done
	return 1
}

# Does package $1 have QPI port 2 and R3QPI link 2 (CAPID4[7:6] = 10b)?
port2() { eval "_c=\$CAPID4_$1"; [ $(( (_c >> 6) & 3 )) = 2 ]; }

# Number of SBos of package $1 (CAPID4[7:6]: 00 none, 01/10 four).
sbo_count() {
	eval "_c=\$CAPID4_$1"
	case $(( (_c >> 6) & 3 )) in
	1|2) echo 4 ;;
	*) echo 0 ;;
	esac
}

# inject LINE...: each argument is one injection line.
inject() {
	for l in "$@"; do
		sim_inject "$l" || return 1
	done
}

# pstat OUT PERF-STAT-ARGS... -- CMD: run perf stat, output (CSV) in OUT.
pstat() {
	out=$1
	shift
	perf stat -x, -o "$out" "$@" || { diag "perf stat $* failed"; cat "$out" >&2; return 1; }
}

# refused EVENT: the kernel refuses to open EVENT. perf stat reports that as
# "<not supported>" and still exits 0 (tests/vm/bin/badinput.c names the errno).
refused() {
	_o=$(perf stat -x, -a -e "$1" -- true 2>&1) || return 0
	case $_o in *"<not supported>"*) return 0 ;; esac
	diag "accepted: $1: $_o"
	return 1
}

# Value of event NAME on CPU (from a `perf stat -A -x,` file).
val_cpu() { awk -F, -v c="CPU$2" -v n="$3" '$1 == c && $4 == n { print $2 }' "$1"; }

# kernel_has FEATURE: the kernel the driver was built for has FEATURE of
# perf's, as /sys/kernel/debug/uncore_pmu/kernel says: filter_match (6.1)
# or pmu_ctx (6.2 on).
kernel_has() { grep -qx "$1 yes" /sys/kernel/debug/uncore_pmu/kernel; }

# run_share FILE CPU NAME: the running time (ns) and the share of its
# enabled time (%, whole) of event NAME on CPU (`perf stat -A -x,`).
run_share() { awk -F, -v c="CPU$2" -v n="$3" '$1 == c && $4 == n { print $5, int($6) }' "$1"; }

# stopped_part_way FILE CPU NAME REFCPU REFNAME: in `perf stat -A -x,`
# FILE, event NAME on CPU stopped running part way (it lost its box or
# its counter) and REFNAME on REFCPU ran all along. Where perf has
# ->filter_match, NAME stays enabled: it ran part of its enabled time.
# Elsewhere the driver disables it (perf_compat.h, uncore_park_event()):
# it ran all its enabled time, which ended early, and so ran for less
# time than REFNAME.
stopped_part_way() {
	# shellcheck disable=SC2046 # two numbers each
	set -- $(run_share "$1" "$2" "$3") $(run_share "$1" "$4" "$5")
	[ $# -eq 4 ] && [ "$4" -eq 100 ] || return 1
	if kernel_has filter_match; then
		[ "$2" -lt 100 ]
	else
		[ "$2" -eq 100 ] && [ "$1" -lt "$3" ]
	fi
}

# Value of event NAME for socket S (from `perf stat --per-socket -x,`).
val_socket() { awk -F, -v s="S$2" -v n="$3" '$1 == s && $5 == n { print $3 }' "$1"; }

# Value of event NAME (aggregated `perf stat -x,`).
val_total() { awk -F, -v n="$2" '$3 == n { print $1 }' "$1"; }

# Sum over all intervals of event NAME on CPU (`perf stat -I N -A -x,`).
val_intervals_cpu() { awk -F, -v c="CPU$2" -v n="$3" '$2 == c && $5 == n { s += $3 } END { printf "%.0f\n", s }' "$1"; }

# Sum over all intervals of event NAME (`perf stat -I N -x,`).
val_intervals() { awk -F, -v n="$2" '$4 == n { s += $2 } END { printf "%.0f\n", s }' "$1"; }

# The simulator's state dump (Documentation/simulator.rst).
sim_state() { cat "$SIM/state"; }

# Writes that set a reserved control bit or left BOX_CTL[17:16] clear, summed
# over packages: the driver must never cause one.
sim_violations() {
	sim_state | sed -n 's/.* rsvd_writes=\([0-9]*\) boxctl_no_must1=\([0-9]*\).*/\1 \2/p' |
		awk '{ s += $1 + $2 } END { print s + 0 }'
}

# sim_leftovers: what the simulator's audit finds the driver left behind
# (Documentation/simulator.rst, "audit"): counters enabled or with their
# overflow interrupt on, filter and match registers set. 0 once every event
# is closed; the audit's lines are printed as diagnostics otherwise.
sim_leftovers() {
	_n=$(tail -n 1 "$SIM/audit" | awk '{ for (i = 1; i < NF; i++) if ($i == "leftovers") print $(i + 1) }')
	[ "$_n" = 0 ] || head -n 20 "$SIM/audit" | sed 's/^/# /' >&2
	echo "$_n"
}

# BOX_STATUS of box $2 (e.g. cbox0, pcu) in package $1, as a number.
sim_box_status() { printf '%d' "$(sim_state | sed -n "s/^pkg$1 $2 status=\(0x[0-9a-f]*\).*/\1/p")"; }

# box_stat PMU COL: column COL of package 0's line for PMU in the driver's
# debugfs "samples" (3 mode, 4 samples, 5 lost, 6 throttles).
box_stat() { awk -v p="$1" -v c="$2" '$1 == p && $2 == 0 { print $c }' /sys/kernel/debug/uncore_pmu/samples; }

# perf_script DATA FIELDS: DATA's samples as perf script -F FIELDS prints
# them, in /tmp/script. perf script takes seconds in the debug guest: its
# output is kept until DATA or FIELDS change.
perf_script() {
	_sum="$(md5sum <"$1") $2"
	if [ "$_sum" != "$(cat /tmp/script.sum 2>/dev/null)" ]; then
		perf script -i "$1" -F "$2" >/tmp/script 2>/dev/null
		echo "$_sum" >/tmp/script.sum
	fi
}

# pmi_stat COL: column COL of package 0's line of the driver's debugfs
# "pmi" (3 NMIs that claimed new status, 4 handler passes, 5 periods,
# 6 NMIs taken as an owed PMI, 7 a PMI owed now).
pmi_stat() { awk -v c="$1" '$1 == "0" { print $c }' /sys/kernel/debug/uncore_pmu/pmi; }

# unknown_nmis_since NAME: unknown NMIs the kernel reported (PMIs no
# handler claimed: the simulator claims none) since nmi_mark NAME.
nmi_mark() { echo "uncore-test: nmi-mark $1" >/dev/kmsg; }
unknown_nmis_since() {
	dmesg | sed -n "/uncore-test: nmi-mark $1\$/,\$p" |
		grep -c 'NMI received for unknown reason'
}

# until_true CMD: poll (10 s, scaled) until CMD succeeds.
until_true() {
	_n=$((100 * ${UNCORE_TIMEOUT_SCALE:-1}))
	while [ "$_n" -gt 0 ]; do
		eval "$1" 2>/dev/null && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	diag "timed out: $1"
	return 1
}

# sim_settle PKG: wait (10 s, scaled) until package PKG has no overflow in
# flight: no freeze pending or in effect, no PMI owed, global status clear
# (the driver's handler ran). Injections made before it returns would be
# dropped by a freeze; a test that wants every event counted waits here.
sim_settle() {
	_n=$((100 * ${UNCORE_TIMEOUT_SCALE:-1}))
	while [ "$_n" -gt 0 ]; do
		sim_state | grep -q "^pkg$1 global .* status=0x0* .* frozen=0 freeze_pending=0 .* pmi_owed=0" &&
			return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	diag "package $1 did not settle: $(sim_state | grep "^pkg$1 global")"
	return 1
}

# cbo_counts_500 CBO CPU: a TOR_INSERTS event on package 0's CBO (uncore_cbox_N),
# read on CPU, counts exactly the 500 events injected into it (every counter
# of the package runs, nothing is frozen).
cbo_counts_500() {
	if pstat /tmp/stat.csv -a -A -e "$1/event=0x35,umask=0x08,name=cbo/" -- \
		sh -c ". /tests/lib/lib.sh; sim_inject 'pkg=0 box=cbox idx=${1##*_} event=0x35 umask=0x08 count=500'"; then
		is "$(val_cpu /tmp/stat.csv "$2" cbo)" 500 "$1 on package 0 counts all of 500 afterwards"
	fi
}

# clockticks_events: "-e PMU/CONFIG/" for every uncore pmu, CONFIG the
# event that counts its box's own clock: a storm of samples at period 1.
clockticks_events() {
	for _d in "$PMUS"/uncore_*; do
		_p=${_d##*/}
		case $_p in
		uncore_ubox) _c=event=0xff ;;
		uncore_qpi_*) _c=event=0x14 ;;
		uncore_r2pcie | uncore_r3qpi_*) _c=event=0x01 ;;
		*) _c=event=0x00 ;;
		esac
		printf ' -e %s/%s/' "$_p" "$_c"
	done
}

# msr_fault_case MSRS A B INJ_A INJ_B EVENTS CPU: the MSRs MSRS (LO or
# LO-HI) of package 0, which belong to PMU A, raise #GP while perf counts
# EVENTS (one named a on A, one named b on B) read on CPU; INJ_A and INJ_B
# (inject lines without count=) feed them 100 before, 200 during and 300
# after the fault. Both counts must be exact (A's counter counted on),
# the fault and its end reported once each, nothing said about B. The
# boxes are polled every 50 ms meanwhile. Used by every family's t_65.
msr_fault_case() {
	_mark="msr_fault_case $(date +%s%N)"
	echo "uncore-test: $_mark" >/dev/kmsg
	_said() { dmesg | sed -n "/$_mark\$/,\$p" | grep -c "$1"; }
	echo 50 >/sys/module/uncore_pmu/parameters/poll_max_ms
	cat >/tmp/steps.sh <<EOS
. /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh
inject '$4 count=100' '$5 count=100'
echo 'gp pkg=0 msr=$1' >$SIM/fault
until_true '[ "\$(sed -n "s/.* hits=\([0-9]*\)\$/\1/p" $SIM/fault)" -ge 2 ]' || exit 1
inject '$4 count=200' '$5 count=200'
echo clear >$SIM/fault
until_true 'dmesg | sed -n "/$_mark\$/,\\\$p" | grep -q "$2, package 0: answers again"' || exit 1
inject '$4 count=300' '$5 count=300'
EOS
	if pstat /tmp/fault.csv -a -A -e "$6" -- sh /tmp/steps.sh; then
		is "$(val_cpu /tmp/fault.csv "$7" a) $(val_cpu /tmp/fault.csv "$7" b)" "600 600" \
			"#GP on $2's MSRs $1: both counts exact once it answers again"
	fi
	is "$(_said "$2, package 0: read of MSR .* failed")" 1 "$2: the fault reported once"
	is "$(_said "$2, package 0: answers again")" 1 "$2: its end reported once"
	is "$(_said "$3, package 0:")" 0 "nothing about $3"
	echo clear >$SIM/fault
	echo 3600000 >/sys/module/uncore_pmu/parameters/poll_max_ms
}

# soak_size CHECK SOAK: the stress tests' size, SOAK under `make soak`
# (uncore.soak=1 on the kernel command line), else CHECK.
soak_size() {
	case " $(cat /proc/cmdline) " in
	*" uncore.soak="[1-9]*) echo "$2" ;;
	*) echo "$1" ;;
	esac
}

# access_rows FILE: the rows of the first table between BENCH-TABLE-BEGIN
# and BENCH-TABLE-END in FILE (a bench.sh output), as BOX|OPERATION|OURS:
# the lines between its second and third rule, columns two spaces apart.
access_rows() {
	sed -n '/^BENCH-TABLE-BEGIN$/,/^BENCH-TABLE-END$/p' "$1" |
		awk '/^===/ { r++; next } r == 2 { split($0, f, /  +/); print f[1] "|" f[2] "|" f[3] }'
}

# access_cell_is GOT WANT: two cells of an access table ("2 rd 3 wr",
# "1.3 min", "91.7 rd/h") say the same: the same words, and numbers within
# 1% or 0.05 of each other. A read whose clock jumped a second (a vCPU the
# host did not run) takes a third dword by design (uncore_read_split()),
# and puts a thousandth on an average of 1000; an access more per
# operation is a whole one.
access_cell_is() {
	[ -n "$1" ] && awk -v g="$1" -v w="$2" 'BEGIN {
		n = split(g, a, " "); if (n != split(w, b, " ")) exit 1
		for (i = 1; i <= n; i++) {
			if (a[i] ~ /^[0-9.]+$/ && b[i] ~ /^[0-9.]+$/) {
				d = a[i] - b[i]; if (d < 0) d = -d
				t = b[i] / 100; if (t < 0.05) t = 0.05
				if (d > t) exit 1
			} else if (a[i] != b[i]) exit 1
		}
	}'
}

# access_check BENCH EXPECTED: run the part's BENCH (tests/vm/*/bench.sh)
# for its register accesses per operation, and check each row against
# EXPECTED (BOX|OPERATION|OURS lines, # comments): the same rows, the same
# counts. No clock skip here (make bench's -icount), so the poll tick rows
# repeat the read's cost; they are deterministic all the same.
access_check() {
	BENCH_ACCESS_ONLY=1 sh "$1" >/tmp/access.out 2>&1
	ok $? "$1 ran" || { sed 's/^/# /' /tmp/access.out | tail -n 20; return 1; }
	access_rows /tmp/access.out >/tmp/access.got
	grep -v '^#' "$2" >/tmp/access.want 2>/dev/null
	while IFS='|' read -r _box _op _want; do
		_got=$(awk -F'|' -v b="$_box" -v o="$_op" '$1 == b && $2 == o { print $3 }' /tmp/access.got)
		ok "access_cell_is '$_got' '$_want'" "$_box, $_op: $_want" ||
			diag "got $_got want $_want"
	done </tmp/access.want
	# A row the bench has and the expected table has not is a new figure.
	_extra=$(awk -F'|' 'FILENAME == ARGV[1] { w[$1 "|" $2] = 1; next } !(($1 "|" $2) in w) { print $1 ", " $2 }' \
		/tmp/access.want /tmp/access.got)
	is "$_extra" "" "every row of the bench's table is in $2" ||
		sed 's/^/# access: /' /tmp/access.got
}
