#!/bin/sh
# timeout: 600
# perf record on uncore events: overflow sampling through the UBox global
# status path. In period mode the number of samples equals the injected
# count divided by the period, exactly, on every box type that raises a PMI;
# a burst past several periods yields one sample per period; two boxes that
# overflow before one PMI are both served by it; counting events on other
# boxes stay exact while sampling keeps freezing the package.
#
# As on the part, events that come while the package is frozen are not
# counted; the injecting shell waits for each overflow's freeze, PMI and
# unfreeze to pass before it injects again (sim_settle), so that every event
# counts, and the simulator's frozen_drops says so.
# shellcheck source=lib.sh
. /tests/lib.sh
# shellcheck source=uncore_lib.sh
. /tests/uncore_lib.sh

load_modules || exit 1
topo_init
DATA=/tmp/perf.data
CPU0=$(first_cpu 0)

# Sum of stat KEY over packages in the simulator's state dump.
sim_stat() { sim_state | sed -n "s/^pkg[0-9]* stats .* $1=\([0-9]*\).*/\1/p" | awk '{ s += $1 } END { print s + 0 }'; }
# Column COL of package 0's line of the driver's debugfs "pmi".
pmi_stat() { awk -v c="$1" '$1 == "0" { print $c }' /sys/kernel/debug/uncore_pmu/pmi; }

# rec PERF-RECORD-ARGS... -- INJECTION-LINES...: record with the injections
# as the workload, run on package 0's reading CPU.
rec() {
	args=""
	while [ "$1" != -- ]; do args="$args $1"; shift; done
	shift
	cmds=""
	for l in "$@"; do cmds="$cmds sim_inject '$l' && sim_settle 0 || exit 1;"; done
	# shellcheck disable=SC2086 # one word per argument
	perf record -q -a -o $DATA $args -- taskset -c "$CPU0" \
		sh -c ". /tests/lib.sh; . /tests/uncore_lib.sh; $cmds" >/dev/null 2>/tmp/rec.err ||
		{ diag "perf record$args failed: $(cat /tmp/rec.err)"; return 1; }
}

# samples EVENT-NAME [CPU]: samples of an event in $DATA (on CPU if given).
samples() {
	perf script -i $DATA -F event,cpu 2>/dev/null |
		awk -v e="$1:" -v c="$2" '$2 == e && (c == "" || $1 == "[" sprintf("%03d", c) "]") { n++ } END { print n + 0 }'
}

drops0=$(sim_stat frozen_drops)

# Period mode, one box of each PMI group kind: bursts of 3500, 1 and 2499
# events against a period of 1000: 3, 0 and 3 samples, 6 in all.
try() { # NAME PMU EVENT-TERMS SIMBOX IDX SIMEVENT UMASK
	[ -d "$PMUS/$2" ] || { skip "$1 sampling" "$2 not registered"; return; }
	b="pkg=0 box=$4 idx=$5 event=$6 umask=$7"
	nmi0=$(pmi_stat 3)
	rec -e "$2/$3,name=$1/" -c 1000 -- "$b count=3500" "$b count=1" "$b count=2499" || return
	is "$(samples "$1" "$CPU0")" 6 "$1: 6000 events at period 1000 give 6 samples, on CPU $CPU0"
	is "$(samples "$1")" 6 "$1: no samples from other packages"
	is $(( $(pmi_stat 3) - nmi0 )) 2 "$1: two PMIs (the 1-event burst overflows nothing)"
}
try imc uncore_imc_0 event=0x04,umask=0x03 imc 0 0x04 0x01
try ha uncore_ha_0 event=0x01,umask=0x03 ha 0 0x01 0x01
try qpi uncore_qpi_0 event=0x01,umask=0x02 qpi 0 0x01 0x02
try r3qpi uncore_r3qpi_1 event=0x10,umask=0x02 r3qpi 1 0x10 0x02
try ubox uncore_ubox event=0x42,umask=0x08 ubox 0 0x42 0x08
# PCU band 0 event, its filter band matched by the injected frequency.
try pcu uncore_pcu event=0x0b,filter_band0=20 pcu 0 0x0b '0x00 freq=25'

# -P records each sample's period: one period per sample, even for a burst.
b="pkg=0 box=ha idx=0 event=0x01 umask=0x01"
if rec -e 'uncore_ha_0/event=0x01,umask=0x03,name=ha/' -c 500 -P -- "$b count=1700" "$b count=300"; then
	is "$(perf script -i $DATA -F period 2>/dev/null | sort | uniq -c | awk '{ print $1 "x" $2 }' | tr '\n' ' ')" "4x500 " \
		"-P: 2000 events at period 500, four samples of period 500"
fi

# Two boxes that overflow before one PMI: the freeze is held back long
# enough for both injections, and one PMI serves both groups.
echo 200000000 >"$SIMPARAM/freeze_delay_ns"
nmi0=$(pmi_stat 3)
if perf record -q -a -o $DATA -c 1000 \
	-e 'uncore_imc_0/event=0x04,umask=0x03,name=imc/,uncore_ha_0/event=0x01,umask=0x03,name=ha/' -- \
	taskset -c "$CPU0" sh -c ". /tests/lib.sh; . /tests/uncore_lib.sh
		sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=2100' &&
		sim_inject 'pkg=0 box=ha idx=0 event=0x01 umask=0x01 count=1500' && sim_settle 0" \
	>/dev/null 2>/tmp/rec.err; then
	is "$(samples imc) $(samples ha)" "2 1" "iMC and HA overflowing together: 2 and 1 samples"
	is $(( $(pmi_stat 3) - nmi0 )) 1 "one PMI for both"
fi
echo 1000 >"$SIMPARAM/freeze_delay_ns"

# Counting events on other boxes while sampling keeps freezing the package.
out=/tmp/stat.csv
b="pkg=0 box=imc idx=0 event=0x04 umask=0x01"
c="pkg=0 box=ha idx=1 event=0x01 umask=0x04"
if perf stat -x, -o $out -a -A -e 'uncore_ha_1/event=0x01,umask=0x0c,name=cnt/' -- \
	perf record -q -a -o $DATA -e 'uncore_imc_0/event=0x04,umask=0x03,name=imc/' -c 100 -- \
	taskset -c "$CPU0" sh -c ". /tests/lib.sh; . /tests/uncore_lib.sh; for i in 1 2 3 4 5 6 7 8 9 10; do
		sim_inject '$b count=250' && sim_settle 0 &&
		sim_inject \"$c count=\$((10 + i))\" || exit 1; done" >/dev/null 2>/tmp/rec.err; then
	is "$(val_cpu $out "$CPU0" cnt)" 155 "HA1 counting beside iMC0 sampling: exact (11 + 12 + ... + 20)"
	is "$(samples imc)" 25 "iMC0: 2500 events at period 100, 25 samples"
else
	ok 1 "perf stat around perf record: $(cat /tmp/rec.err)"
fi

is "$(sim_stat frozen_drops)" "$drops0" "nothing was injected while a package was frozen"
is "$(sim_violations)" 0 "no reserved bit written"
unload_modules
