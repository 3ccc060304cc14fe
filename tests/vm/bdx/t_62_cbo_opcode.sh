#!/bin/sh
# CBo OPCODE subevents (TOR_INSERTS/TOR_OCCUPANCY, umask bit 0) and
# filter_opc. Table 2-19: FILTER1.opc is a 7-bit IDI opcode with the top two
# of its 9 bits 0b11, Table 2-20 lists them (0x180-0x1e6). perf cannot tell
# filter_opc=0 from no filter_opc: such an event opens, programs opcode 0
# (which no request carries) and the driver says so once per pmu in the
# kernel log; any other value outside 0x180-0x1ff is refused.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
out=/tmp/t62.csv
mark="uncore-test: t_62 start $$"
echo "$mark" >/dev/kmsg

# Kernel log lines since this test started.
log_since() { dmesg | sed -n "/$mark/,\$p"; }
# Number of opcode notices since the start, for PMU $1 (any CBo if empty).
notices() { log_since | grep -c "uncore_pmu: ${1:-uncore_cbox_[0-9]*}: event .* without filter_opc"; }

# opens EVENT: the kernel accepts EVENT (perf stat shows a count).
opens() {
	_o=$(perf stat -x, -a -e "$1" -- true 2>&1) || { diag "perf failed: $1: $_o"; return 1; }
	case $_o in *"<not supported>"*) diag "refused: $1: $_o"; return 1 ;; esac
	return 0
}

# CBos other than 3 that every package has, registered: the second and
# third pmu below.
others=""
n=0
while [ $n -lt 24 ]; do
	all=1
	for p in $PKGS; do has_cbo "$p" $n || all=0; done
	[ $n != 3 ] && [ $all = 1 ] && [ -d "$PMUS/uncore_cbox_$n" ] && others="$others $n"
	n=$((n + 1))
done
# shellcheck disable=SC2086 # one word per CBo
set -- $others
second=uncore_cbox_$1
third=uncore_cbox_$2
diag "second pmu $second, third pmu $third"

# README's second command, without filter_opc: TOR_INSERTS.MISS_OPCODE. It
# opens; the part matches opcode 0, so a real opcode (0x182 DRd) injected
# while it counts adds nothing. Opened twice (and on both packages each
# time): one notice.
for run in 1 2; do
	cmds=""
	for p in $PKGS; do
		cmds="$cmds sim_inject 'pkg=$p box=cbox idx=3 event=0x35 umask=0x03 opc=0x182 count=50';"
	done
	pstat "$out" -a -A -e uncore_cbox_3/event=0x35,umask=0x3,name=nofilter/ -- \
		sh -c ". /tests/lib/lib.sh; $cmds"
	for p in $PKGS; do
		is "$(val_cpu "$out" "$(first_cpu "$p")" nofilter)" 0 \
			"run $run, package $p: MISS_OPCODE without filter_opc opens and counts no DRd"
	done
done
is "$(notices uncore_cbox_3)" 1 "uncore_cbox_3: one notice after two opens"
is "$(log_since | sed -n 's/.*uncore_pmu: \(uncore_cbox_3: .*\)/\1/p')" \
	"uncore_cbox_3: event 0x35 umask 0x03 is an OPCODE subevent without filter_opc: FILTER1.opc is programmed 0, which no request carries (manual Table 2-20), so it counts nothing on the part; give filter_opc=0x180-0x1ff (e.g. 0x182 DRd)" \
	"uncore_cbox_3: the notice names the event, the missing field and what is programmed"

# Another CBo pmu gets its own notice (TOR_OCCUPANCY.OPCODE this time).
ok "opens $second/event=0x36,umask=0x1/" "$second: TOR_OCCUPANCY.OPCODE without filter_opc opens"
ok "opens $second/event=0x36,umask=0x1/" "$second: and opens again"
is "$(notices "$second")" 1 "$second: one notice of its own"
is "$(log_since | grep -c "uncore_pmu: $second: event 0x36 umask 0x01 is an OPCODE subevent without filter_opc")" 1 \
	"$second: the notice names TOR_OCCUPANCY umask 0x01"
is "$(notices uncore_cbox_3)" 1 "uncore_cbox_3: still one notice"

# No notice for an event that does not use the opcode match, nor for a
# given opcode; the boundaries of 0x180-0x1ff open.
ok "opens $third/event=0x35,umask=0x8/" "$third: TOR_INSERTS.ALL opens"
ok "opens $third/event=0x35,umask=0x1,filter_opc=0x180/" "$third: filter_opc=0x180 (RFO) opens"
ok "opens $third/event=0x35,umask=0x1,filter_opc=0x1ff/" "$third: filter_opc=0x1ff opens"
is "$(notices "$third")" 0 "$third: no notice for ALL or a given opcode"

# Not opcodes (top two bits not 0b11): refused, as before.
ok "refused uncore_cbox_3/event=0x35,umask=0x1,filter_opc=0x100/" "filter_opc=0x100 refused"
ok "refused uncore_cbox_3/event=0x35,umask=0x1,filter_opc=0x17f/" "filter_opc=0x17f refused"
ok "refused uncore_cbox_3/event=0x35,umask=0x3,filter_opc=0x7f/" "filter_opc=0x7f refused"
ok "refused uncore_cbox_3/event=0x36,umask=0x1,filter_opc=0x80/" "TOR_OCCUPANCY filter_opc=0x80 refused"

# The README's second command: DRd misses only. Matching traffic
# counts exactly; RFO and opcode-0 traffic do not; no notice.
cmds=""
for p in $PKGS; do
	for l in "opc=0x182 count=$((300 + p))" "opc=0x180 count=999" "opc=0 count=77"; do
		cmds="$cmds sim_inject 'pkg=$p box=cbox idx=3 event=0x35 umask=0x03 $l';"
	done
done
pstat "$out" -a -A -e uncore_cbox_3/event=0x35,umask=0x3,filter_opc=0x182,name=drd/ -- \
	sh -c ". /tests/lib/lib.sh; $cmds"
for p in $PKGS; do
	is "$(val_cpu "$out" "$(first_cpu "$p")" drd)" $((300 + p)) \
		"package $p: MISS_OPCODE with filter_opc=0x182 counts the DRd misses only"
done
is "$(notices)" 2 "two notices in all: filter_opc=0x182 added none"

is "$(sim_leftovers)" 0 "every event closed: no filter or match register left set, no counter enabled"
is "$(sim_violations)" 0 "no reserved-bit writes or BOX_CTL protocol violations"
unload_modules
