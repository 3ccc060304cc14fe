#!/bin/sh
# timeout: 300
# A move that gives a box another reading CPU while the old one is inside
# one of perf's transactions on it (review pmi-protocol N13). A package
# read from a core the PMI cannot reach (core 19) moves when a core it
# can reach comes online: the hotplug callback, on the new CPU, changes
# box->cpu box by box, each before perf moves that pmu's events, while
# the old CPU may be between perf's start_txn and commit_txn of a group,
# IRQs off. The commit there must still start the group it was given:
# otherwise its members count nothing until perf moves them, and the box
# stays in the state the transaction left it in.
#
# Two debugfs hooks make it deterministic: at the box with events the
# move waits until the old CPU holds a group's commit (commit_delay_ms),
# changes box->cpu, then waits move_delay_ms before perf moves the events,
# time for an injection that the group, started on the old CPU, counts.
# perf stat starts its events disabled and enables them (--control) once
# the move waits, so that the commit is the group's first one.
#
# Package 1: x86 does not take CPU 0 offline.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
DBG=/sys/kernel/debug/uncore_pmu
out=/tmp/stat.csv
set_online() { echo "$2" >"/sys/devices/system/cpu/cpu$1/online"; }
core_id() { cat "/sys/devices/system/cpu/cpu$1/topology/core_id"; }

pmi_cores 1
far=$FAR near=$NEAR
cbo=""
i=0
while [ $i -lt 24 ]; do
	if has_cbo 1 $i && [ -d "$PMUS/uncore_cbox_$i" ]; then cbo=$i; break; fi
	i=$((i + 1))
done
if [ -z "$far" ] || [ -z "$near" ] || [ -z "$cbo" ]; then
	skip "a move inside a transaction" "package 1 needs a core beyond 17, one below and a CBo (CPUs $near / $far)"
	unload_modules
	exit 0
fi
hi=${far%% *}
for c in $near; do set_online "$c" 0; done
is "$(tr ',' '\n' <"$PMUS/uncore_cbox_$cbo/cpumask" | sed -n 2p)" "$hi" \
	"package 1 is read from CPU $hi (core $(core_id "$hi")) with CPUs $near offline"

# The hooks, scaled for slow guests; the commit is held with IRQs off, so
# it stays well below the lockup detectors' limits.
s=$((UNCORE_TIMEOUT_SCALE > 2 ? 2 : UNCORE_TIMEOUT_SCALE))
commit_ms=$((1500 * s))
move_ms=$((commit_ms + 4000 * s))
ev="event=0x35,umask=0x08"
inj="pkg=1 box=cbox idx=$cbo event=0x35 umask=0x08"
rm -f /tmp/t54.ctl /tmp/t54.ack /tmp/t54.done
mkfifo /tmp/t54.ctl /tmp/t54.ack
perf stat -x, -o $out -a -A --no-scale -D -1 --control fifo:/tmp/t54.ctl,/tmp/t54.ack \
	-e "{uncore_cbox_$cbo/$ev,name=a/,uncore_cbox_$cbo/$ev,name=b/}" -- \
	sh -c 'until [ -e /tmp/t54.done ]; do sleep 0.1; done' 2>/tmp/stat.err &
stat_pid=$!
# perf answers on its control fifo once its events are open (disabled).
echo ping >/tmp/t54.ctl
read -r ping </tmp/t54.ack
is "$ping" ack "perf stat opened its events, disabled"
echo $commit_ms >$DBG/commit_delay_ms
echo $move_ms >$DBG/move_delay_ms
nmark="t_54 $(date +%s)"
echo "uncore-test: $nmark" >/dev/kmsg
since() { dmesg | sed -n "/uncore-test: $nmark\$/,\$p" | grep -q "$1"; }
set_online "${near%% *}" 1 &
online_pid=$!
ok "until_true 'since \"test hook: uncore_cbox_$cbo, package 1: the move waits\"'" \
	"the move waits at uncore_cbox_$cbo for a group's commit"
# perf enables the group: its first commit, on CPU $hi.
echo enable >/tmp/t54.ctl
read -r ack </tmp/t54.ack
ok "until_true 'since \"test hook: uncore_cbox_$cbo, package 1: its events move in\"' &&
	since 'test hook: uncore_cbox_$cbo, package 1: a group.s commit on CPU $hi held'" \
	"CPU $hi held the group's commit while the box got its new reading CPU"
# perf's ack came after the commit ended: the group counts on the old CPU
# until perf moves it, move_delay_ms after the box changed reading CPU.
sim_inject "$inj count=1000"
wait $online_pid
is "$(tr ',' '\n' <"$PMUS/uncore_cbox_$cbo/cpumask" | sed -n 2p)" "${near%% *}" \
	"package 1 is read from CPU ${near%% *} (core $(core_id "${near%% *}")) now"
sim_inject "$inj count=500"
touch /tmp/t54.done
wait $stat_pid
is "$ack" ack "perf stat took the enable"
is "$(val_cpu $out "$hi" a) $(val_cpu $out "$hi" b)" "1500 1500" \
	"both members count the 1000 injected before perf moved them and the 500 after"
echo 0 >$DBG/commit_delay_ms
echo 0 >$DBG/move_delay_ms
for c in $near; do set_online "$c" 1; done
rm -f /tmp/t54.ctl /tmp/t54.ack /tmp/t54.done
unload_modules
