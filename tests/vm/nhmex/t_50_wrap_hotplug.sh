#!/bin/sh
# timeout: 600
# Counters near 2^48 wrap and lose nothing; the reading CPU of a package
# goes offline and comes back while events count on several boxes (a
# C-box, an R-box half with a re-targeted IPERF pair, an M-box with a
# sub-control): the counts stay exact, the auxiliary registers keep their
# values on the new reading CPU, and the cpumask follows; and again while
# a C-box samples: the sample count stays exact and the PMI follows the
# reading CPU, also when the package's last CPU goes and comes back. Then
# the driver is unloaded with events open: it stays until perf lets go.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh

load_modules || exit 1
nh_topo
out=/tmp/stat.csv
TOP=281474976710656	# 2^48

# Wrap: counters preloaded 100 short of 2^48 before perf adds the events
# (Documentation/simulator.rst: a preload precedes the add).
echo "pkg=1 box=cbox idx=2 ctr=0 value=$((TOP - 100))" >$SIM/counter
echo "pkg=1 box=rbox idx=1 ctr=0 value=$((TOP - 7))" >$SIM/counter
pstat "$out" -a -e uncore_cbox_2/event=0x14,umask=0x1,name=cw/,uncore_rbox_1/event=0x0,iperf_cfg=0x1,name=rw/ -- sh -c \
	". /tests/lib/lib.sh; sim_inject 'pkg=1 box=cbox idx=2 event=0x14 umask=0x1 count=300' &&
	 sim_inject 'pkg=1 box=rbox port=4 iperf=0x1 count=20' && cat $SIM/state > /tmp/during"
is "$(val_total "$out" cw)" 300 "C-box counter across 2^48: 300 exact"
is "$(val_total "$out" rw)" 20 "R-box counter across 2^48: 20 exact"
is "$(nh_field 1 cbox2 ctr0 ctr /tmp/during)" 0x0000000000c8 "the C-box counter did wrap (reads 200)"

# Hotplug: package 1's reading CPU goes offline and comes back.
c1=$FIRST_1
EV="uncore_cbox_7/event=0x14,umask=0x8,name=hc/"
EV="$EV,uncore_rbox_1/event=0x6,iperf_cfg=0x2,name=ha/,uncore_rbox_1/event=0x6,iperf_cfg=0x4,name=hb/"
EV="$EV,uncore_mbox_1/inc_sel=0x0,dsp=0x80,name=hm/"
i1="pkg=1 box=cbox idx=7 event=0x14 umask=0x8"
i2="pkg=1 box=rbox port=5 iperf=0x2"
i3="pkg=1 box=rbox port=5 iperf=0x4"
i4="pkg=1 box=mbox idx=1 sel=0x0 dsp=0x80"
pstat "$out" -a -e "$EV" -- sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tests/nhmex/nhmex_lib.sh
	inject '$i1 count=100' '$i2 count=10' '$i3 count=1' '$i4 count=1000' &&
	echo 0 > /sys/devices/system/cpu/cpu$c1/online &&
	cat $PMUS/uncore_cbox_7/cpumask > /tmp/mask_off && cat $SIM/state > /tmp/off &&
	inject '$i1 count=200' '$i2 count=20' '$i3 count=2' '$i4 count=2000' &&
	echo 1 > /sys/devices/system/cpu/cpu$c1/online &&
	inject '$i1 count=300' '$i2 count=30' '$i3 count=3' '$i4 count=3000'"
is "$(val_total "$out" hc)" 600 "C-box 7, package 1: 100 + 200 + 300 across the offline and online"
is "$(val_total "$out" ha):$(val_total "$out" hb)" 60:6 "R-box port 5 IPERF pair: both exact across it"
is "$(val_total "$out" hm)" 6000 "M-box 1 DSP event: exact across it"
is "$(nh_field 1 rport5 - iperf0 /tmp/off):$(nh_field 1 rport5 - iperf1 /tmp/off)" 0x00000002:0x00000004 \
	"while CPU $c1 is offline the IPERF pair keeps its values"
is "$(nh_field 1 mbox1 - dsp /tmp/off)" 0x0000000000000080 "and DSP its value"
other=""
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}
	[ "$n" != "$c1" ] && [ "$(pkg_of_cpu "$n")" = 1 ] && [ -z "$other" ] && other=$n
done
is "$(cat /tmp/mask_off)" "$FIRST_0,$other" "while CPU $c1 is offline, CPU $other reads package 1"
is "$(nh_bad_writes)" 0 "no reserved bit written, no faulting access"

# Sampling across a hotplug: package 1's C-box 5 samples every 1000
# events while its reading CPU (now $other: the core keeps a reading CPU
# until it goes, or to reach a PMI it cannot) goes offline and comes back.
# 2500 events before give 2 samples there; the event moves to the next
# CPU with 500 of its period spent, so 2500 more give 3, and 1000 more
# after the online 1 (the new CPU keeps reading). While the first is
# offline, pmi_core_sel names the new CPU's core.
rd=$(cut -d, -f2 $PMUS/uncore_cbox_5/cpumask)
nx=""
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}
	[ "$n" != "$rd" ] && [ "$(pkg_of_cpu "$n")" = 1 ] && [ -z "$nx" ] && nx=$n
done
DATA=/tmp/perf.data
is_="pkg=1 box=cbox idx=5 event=0x14 umask=0x4"
# samples_per_cpu NAME: "CPU:N " for each run of NAME's samples in $DATA.
samples_per_cpu() {
	perf script -i $DATA -F cpu,event 2>/dev/null |
		awk -v e="$1:" '$2 == e { gsub(/[][]/, "", $1); print $1 + 0 }' | uniq -c |
		awk '{ printf "%s:%s ", $2, $1 }'
}
# rec_failed WHAT: a perf record that failed, and package 1's PMI state.
rec_failed() {
	ok 1 "$1: $(cat /tmp/rec.out /tmp/rec.err)"
	sim_state | grep '^pkg1 \(global\|cbox5\)' | sed 's/^/# /'
	sed 's/^/# /' /sys/kernel/debug/uncore_pmu/pmi
}
if perf record -q -a -o $DATA -c 1000 -e uncore_cbox_5/event=0x14,umask=0x4,name=hs/ -- sh -c \
	". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tests/nhmex/nhmex_lib.sh
	 sim_inject '$is_ count=2500' && nh_settle 1 &&
	 echo 0 > /sys/devices/system/cpu/cpu$rd/online &&
	 cat $SIM/state > /tmp/off &&
	 sim_inject '$is_ count=2500' && nh_settle 1 &&
	 echo 1 > /sys/devices/system/cpu/cpu$rd/online &&
	 sim_inject '$is_ count=1000' && nh_settle 1" >/tmp/rec.out 2>/tmp/rec.err; then
	is "$(samples_per_cpu hs)" "$rd:2 $nx:4 " \
		"C-box 5 sampling across the offline and online: 2 samples on CPU $rd, then 4 on CPU $nx"
	core=$(cat "/sys/devices/system/cpu/cpu$nx/topology/core_id")
	is "$(nh_field 1 global - pmi_core_sel /tmp/off)" "$(printf '0x%02x' $((1 << core)))" \
		"while CPU $rd is offline, the PMI goes to core $core (CPU $nx)"
else
	rec_failed "perf record across the hotplug"
fi
is "$(nh_bad_writes)" 0 "sampling across the hotplug wrote no reserved bit"

# The package's last CPU is its reading CPU, and the same CPU comes back
# first (review N1): pkg_exit() cleared the route with GLOBAL_CTL, and the
# sampling event, back from its park, must route the PMI again. 2500
# events before give 2 samples, 3000 after (500 of the period spent)
# give 3, all on that CPU.
rd=$(cut -d, -f2 $PMUS/uncore_cbox_5/cpumask)
rest=""
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}
	[ "$n" != "$rd" ] && [ "$(pkg_of_cpu "$n")" = 1 ] && rest="$rest $n"
done
core=$(cat "/sys/devices/system/cpu/cpu$rd/topology/core_id")
if perf record -q -a -o $DATA -c 1000 -e uncore_cbox_5/event=0x14,umask=0x4,name=hl/ -- sh -c \
	". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tests/nhmex/nhmex_lib.sh
	 sim_inject '$is_ count=2500' && nh_settle 1 &&
	 for c in $rest $rd; do echo 0 > /sys/devices/system/cpu/cpu\$c/online || exit 1; done &&
	 echo 1 > /sys/devices/system/cpu/cpu$rd/online &&
	 cat $SIM/state > /tmp/back &&
	 sim_inject '$is_ count=3000' && nh_settle 1" >/tmp/rec.out 2>/tmp/rec.err; then
	is "$(samples_per_cpu hl)" "$rd:5 " \
		"package 1's last CPU $rd goes and comes back first: 2 + 3 samples, all on it"
else
	rec_failed "perf record with package 1 offline and back"
fi
for c in $rest; do echo 1 >"/sys/devices/system/cpu/cpu$c/online"; done
is "$(nh_field 1 global - pmi_core_sel /tmp/back)" "$(printf '0x%02x' $((1 << core)))" \
	"back online, package 1's PMI goes to core $core (CPU $rd) again"
is "$(sim_leftovers)" 0 "nothing left enabled, routed to no one, or unhandled"

# Unloading with events open: refused while perf holds them, then done.
perf stat -a -e uncore_cbox_0/event=0x14,umask=0x1/ -o /tmp/bg.txt -- sleep 4 &
pid=$!
until_true "grep -q '^uncore_cbox_0 0 [0-9]* 1 ' /sys/kernel/debug/uncore_pmu/boxes"
ok "! rmmod uncore_pmu 2>/dev/null" "rmmod refused while an event is open"
ok "! rmmod uncore_sim 2>/dev/null" "the simulator stays while the driver uses it"
wait $pid
ok "grep -q uncore_cbox_0 /tmp/bg.txt" "perf stat finished"
unload_modules
ok "! grep -q '^uncore_pmu ' /proc/modules" "unloaded once perf closed its events"
