#!/bin/sh
# timeout: 600
# Hotplug of a node's reading CPU and unloading the driver, with events
# forwarded to the core PMU (Documentation/uncore_pmu.rst, "The K8
# northbridge"). An event stays where perf put it, in the core PMU's
# context of the reading CPU: when that CPU goes offline perf turns it off
# for good (its count stops, and the driver says so in the log), the
# cpumask names the next CPU of the node, and events opened then count
# there, also after the first CPU returns. The driver holds nothing of a
# forwarded event: it unloads while events count, and they go on
# counting; the simulator, whose stand-in counts them, stays loaded until
# they are closed.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=k8_lib.sh
. /tests/k8/k8_lib.sh

load_modules || exit 1
k8_topo
out=/tmp/stat.csv
c1=$(first_cpu 1) s1=$(sibling 1)
i="pkg=1 event=0xf6 umask=0x2"

if [ -z "$s1" ]; then
	skip "hotplug of a node's reading CPU" "single-core nodes"
else
	dmesg -c >/dev/null
	pstat "$out" -a -e "uncore_nb/event=0xf6,umask=0x2,name=hd/" -- sh -c \
		". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; inject '$i count=100' &&
		 echo 0 > /sys/devices/system/cpu/cpu$c1/online &&
		 cat $PMUS/uncore_nb/cpumask > /tmp/mask_off &&
		 inject '$i count=200' &&
		 echo 1 > /sys/devices/system/cpu/cpu$c1/online &&
		 inject '$i count=300'"
	is "$(val_total "$out" hd)" 100 "node 1's event counts the 100 before CPU $c1 went offline, then stops"
	is "$(cpulist "$(cat /tmp/mask_off)")" "$(first_cpu 0),$s1" "while CPU $c1 is offline, CPU $s1 reads node 1"
	ok "dmesg | grep -q 'uncore_nb: events opened on CPU $c1 (1 since it began reading package 1) stop counting'" \
		"the driver says the event opened on CPU $c1 stopped"
	is "$(cpulist "$(cat $PMUS/uncore_nb/cpumask)")" "$(first_cpu 0),$s1" "CPU $s1 keeps reading node 1 after CPU $c1 returns"
	pstat "$out" -a -A -e "uncore_nb/event=0xf6,umask=0x2,name=hn/" -- sh -c \
		". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; inject '$i count=400'"
	is "$(val_cpu "$out" "$s1" hn)" 400 "an event opened now counts node 1 on CPU $s1"
fi

# Unloading: the forwarded event is the core PMU's; the driver goes, the
# event goes on counting, the simulator (the stand-in's module) stays.
rm -f /tmp/ul.done
perf stat -x, -o /tmp/bg.csv -a -e uncore_nb/dram_accesses.page_hit,name=ul/ -- \
	sh -c 'until [ -e /tmp/ul.done ]; do sleep 0.1; done' &
pid=$!
until_true "k8_counting $(first_cpu 0) | grep -q ctr"
inject "pkg=0 event=0xe0 umask=0x1 count=50"
ok "rmmod uncore_pmu" "rmmod uncore_pmu with a forwarded event open"
ok "! rmmod uncore_sim 2>/dev/null" "the simulator stays while its stand-in counts the event"
inject "pkg=0 event=0xe0 umask=0x1 count=70"
touch /tmp/ul.done
wait $pid
is "$(awk -F, '$3 == "ul" { print $1 }' /tmp/bg.csv)" 120 "the event counted the 50 before the unload and the 70 after"
is "$(k8_bad_writes)" 0 "no reserved bit written, no clobber, no fault"
unload_modules
ok "! grep -q '^uncore_sim ' /proc/modules" "the simulator unloads once the event is closed"
