#!/bin/sh
# timeout: 300
# Unregistering a pmu while its sysfs is read and CPUs come and go. A pmu
# goes when its last box is unbound; perf_pmu_unregister() waits for the
# readers of its sysfs files, and cpumask_show() takes the CPU hotplug lock,
# which a pending hotplug writer holds back. Unregistering under that lock
# closed the cycle: the reader, the hotplug writer and the unbind waited for
# each other for good. For a bounded time, three loops race: a reader of
# uncore_imc_0's cpumask, a CPU going offline and online, and the unbind
# and rebind of every iMC 0 channel 0 box. They must all finish, and the
# pmu count exactly afterwards.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
out=/tmp/stat.csv
DRV=/sys/bus/pci/drivers/uncore_pmu
SECS=15
devs=""
for d in "$DRV"/*:14.0; do devs="$devs ${d##*/}"; done
# The highest-numbered CPU: never the boot CPU, which cannot go offline.
hot=$(for c in /sys/devices/system/cpu/cpu[0-9]*; do echo "${c##*cpu}"; done | sort -n | tail -n1)
diag "boxes:$devs; CPU $hot goes offline and online"

end=$(($(date +%s) + SECS))
rm -f /tmp/race.*
(n=0; while [ "$(date +%s)" -lt $end ]; do
	cat "$PMUS/uncore_imc_0/cpumask" >/dev/null 2>&1; n=$((n + 1)); done; echo $n >/tmp/race.read) &
# A PCI probe holds CPU hotplug off (pci_call_probe()): hotplug then fails
# with EBUSY. An offlining may fail; the onlining is retried until it takes.
online=/sys/devices/system/cpu/cpu$hot/online
(n=0; while [ "$(date +%s)" -lt $end ]; do
	echo 0 2>/dev/null >"$online" && n=$((n + 1))
	until [ "$(cat "$online")" = 1 ]; do echo 1 2>/dev/null >"$online" || sleep 0.05; done
	done; echo $n >/tmp/race.hotplug) &
(n=0; while [ "$(date +%s)" -lt $end ]; do
	for d in $devs; do echo "$d" >$DRV/unbind; done
	for d in $devs; do echo "$d" >$DRV/bind; done
	n=$((n + 1)); done; echo $n >/tmp/race.unbind) &

# The loops stop by themselves after SECS; a deadlock keeps them forever.
i=0
while [ $i -lt $((SECS + 60 * UNCORE_TIMEOUT_SCALE)) ]; do
	[ -e /tmp/race.read ] && [ -e /tmp/race.hotplug ] && [ -e /tmp/race.unbind ] && break
	sleep 1
	i=$((i + 1))
done
ok "[ -e /tmp/race.read ] && [ -e /tmp/race.hotplug ] && [ -e /tmp/race.unbind ]" \
	"cpumask reads, hotplug and unbind/bind raced for ${SECS}s and all finished"
diag "$(cat /tmp/race.read 2>/dev/null) reads, $(cat /tmp/race.hotplug 2>/dev/null) hotplug cycles, $(cat /tmp/race.unbind 2>/dev/null) unbind/bind rounds"
wait
is "$(cat "$online")" 1 "CPU $hot online again"

c0=$(first_cpu 0)
is "$(cat "$PMUS/uncore_imc_0/cpumask")" "$(for p in $PKGS; do has_imc "$p" 0 && first_cpu "$p"; done | paste -sd, -)" \
	"uncore_imc_0 back on every package with the channel"
pstat "$out" -a -A -e 'uncore_imc_0/event=0x04,umask=0x03,name=cas/' -- sh -c ". /tests/lib/lib.sh
	sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=123'" &&
	is "$(val_cpu "$out" "$c0" cas)" 123 "uncore_imc_0 counts exactly after the race"
unload_modules
