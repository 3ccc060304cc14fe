#!/bin/sh
# timeout: 300
# An event opened while its package's reading CPU goes offline. event_init
# gives the event the reading CPU, and perf installs it there afterwards:
# if the move ran in between, the event was left on the old CPU and died
# with its context there. The driver's open_delay_ms hook holds every open
# between the two for 3 s; package 1's reading CPU goes offline while its
# CBo event is held. The move must wait for that open to be installed and
# take it along: both packages' events then count exactly what is
# injected into their CBo after the move.
#
# Package 1: x86 does not take CPU 0 offline.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
D=/sys/kernel/debug/uncore_pmu
out=/tmp/stat.csv
if [ -z "$(first_cpu 1)" ]; then
	skip "an open during a move" "no package 1"
	unload_modules
	exit 0
fi
cbo=""
for i in $(seq 0 23); do
	has_cbo 0 "$i" && has_cbo 1 "$i" && [ -d "$PMUS/uncore_cbox_$i" ] && { cbo=$i; break; }
done
x=$(tr ',' '\n' <"$PMUS/uncore_cbox_$cbo/cpumask" | tail -n1)
rm -f /tmp/go /tmp/started
printf 'touch /tmp/started\nwhile [ ! -e /tmp/go ]; do sleep 0.1; done\n' >/tmp/t59w.sh
echo 3000 >$D/open_delay_ms
pstat "$out" -a -e "uncore_cbox_$cbo/event=0x35,umask=0x08,name=cbo/" -- \
	sh /tmp/t59w.sh &
stat=$!
# perf starts slowly (it reads every alias), then holds package 0's open.
n=$((300 * UNCORE_TIMEOUT_SCALE))
until grep -q "^$x uncore_cbox_$cbo\$" $D/opens || [ $n = 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
ok $((n == 0)) "package 1's event is held between event_init (CPU $x) and its install"
echo 0 >/sys/devices/system/cpu/cpu"$x"/online
echo 0 >$D/open_delay_ms
y=$(tr ',' '\n' <"$PMUS/uncore_cbox_$cbo/cpumask" | tail -n1)
is "$(grep -c . $D/opens)" 1 "the move left no open on its way (only the header)"
# perf starts the workload once both events are open and enabled.
until_true "[ -e /tmp/started ]"
sim_inject "pkg=0 box=cbox idx=$cbo event=0x35 umask=0x08 count=300"
sim_inject "pkg=1 box=cbox idx=$cbo event=0x35 umask=0x08 count=500"
touch /tmp/go
wait $stat
ok $? "perf stat ran"
echo 1 >/sys/devices/system/cpu/cpu"$x"/online
diag "reading CPU of package 1 moved from $x to $y"
grep -v "^#" "$out" | sed 's/^/# /'
is "$(val_total "$out" cbo)" 800 "300 on package 0 and 500 on package 1: the held event moved with its package"

# A group member opened during the move. perf calls its event_init with
# the leader's context mutex held, and the move's
# perf_pmu_migrate_context() takes that mutex: a member that waited for
# the move hung the offline, and every cpus_read_lock() behind it (found
# by the fuzzer, Documentation/fuzzing.rst). groupmove (tests/vm/
# groupmove.c) holds a single event's open so that the move waits, opens
# the member into a counting leader's group once debugfs shows the
# package moving, and gives up after its time limit. The member goes
# where its leader is, and moves with it.
x=$(tr ',' '\n' <"$PMUS/uncore_cbox_$cbo/cpumask" | tail -n1)
got=$(/tests/bin/groupmove "uncore_cbox_$cbo" 0x0835 0x0836 "$x" $((60 * UNCORE_TIMEOUT_SCALE)) -- \
	sh -c ". /tests/lib/lib.sh; sim_inject 'pkg=1 box=cbox idx=$cbo event=0x35 umask=0x08 count=300' &&
	       sim_inject 'pkg=1 box=cbox idx=$cbo event=0x36 umask=0x08 count=500'")
echo 0 >$D/open_delay_ms
is "$got" "leader=300 member=500 single=300" \
	"a member opened into its group while the package moved: no deadlock, and it moved with its leader"
ok "! dmesg | grep -q 'was not installed in'" "the move did not give up waiting for an open"
echo 1 >/sys/devices/system/cpu/cpu"$x"/online

is "$(sim_violations)" 0 "no reserved bit written"
unload_modules
