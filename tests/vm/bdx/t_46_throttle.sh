#!/bin/sh
# timeout: 300
# The driver's throttle and perf's tick. A frequency event the driver
# throttles is stopped until its box's timer restarts it a tick later; perf's
# own tick restarts it too (it restarts every event it finds throttled), and
# the event may be throttled again before the timer looks. However often
# that happens, the box holds the event as throttled once: when the sampling
# ends nothing is left throttled, and the next event on the box polls at
# its own period, not every tick for good. The case needs an event sampled
# by PMI: a timer-sampled one always passes the timer's restart before its
# next sample. The UBox's fixed UCLK counter overflows on time.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
CPU0=$(first_cpu 0)
BOXES=/sys/kernel/debug/uncore_pmu/boxes
PARAM=/sys/module/uncore_pmu/parameters
pmu=uncore_ubox

# "events poll_ns throttled" of $pmu's package-0 box.
box_line() { awk -v p="$pmu" '$1 == p && $2 == 0 { print $4, $5, $6 }' $BOXES; }
poll_of() {
	perf stat -a -o /dev/null -e "$1" -- \
		sh -c "awk -v p=$pmu '\$1 == p && \$2 == 0 { print \$4, \$5, \$6 }' $BOXES >/tmp/poll"
	cat /tmp/poll
}

count="$pmu/event=0x42,umask=0x8/"
base=$(poll_of "$count")
diag "a counting event alone: events poll_ns throttled = $base"
is "${base%% *} ${base##* }" "1 0" "a counting event alone: one event, nothing throttled"

# One sample per tick allowed (max_sample_rate 250 at HZ 250, or fewer
# per tick at a higher HZ): every sample throttles. The reading CPU is kept
# busy so that perf's tick runs there and restarts the event.
echo 250 >"$PARAM/max_sample_rate"
t0=$(box_stat "$pmu" 6)
# shellcheck disable=SC2016 # the busy loop's expansions are the inner shell's
perf record -q -a -o /tmp/perf.data -F 1000 -e "$pmu/clockticks/" -- \
	taskset -c "$CPU0" sh -c 'end=$(($(date +%s) + 3)); while [ "$(date +%s)" -lt $end ]; do :; done' \
	>/dev/null 2>/tmp/rec.err || diag "perf record: $(cat /tmp/rec.err)"
echo 100000 >"$PARAM/max_sample_rate"
thr=$(( $(box_stat "$pmu" 6) - t0 ))
diag "$thr throttles in 3 s"
ok "[ $thr -ge 100 ]" "the driver throttled the event every few ticks (at least 100 times in 3 s)"
is "$(box_line)" "0 0 0" "sampling over: no events, no timer, nothing held throttled"
is "$(poll_of "$count")" "$base" "the next counting event polls at its own period again, not every tick"
unload_modules
