#!/bin/sh
# The poll timer's period follows the fastest event on a box: half the time
# that event needs to wrap the 48-bit counter at its maximum rate per clock
# (manual's Max Inc/Cyc) with UCLK bounded at 3.5 GHz, capped at 1 hour.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
BOXES=/sys/kernel/debug/uncore_pmu/boxes

# poll_of PMU EVENTS...: "events poll_ns" of PMU's package-0 box while
# perf counts EVENTS.
poll_of() {
	pmu=$1
	shift
	perf stat -a -o /dev/null -e "$*" -- \
		sh -c "awk -v p=$pmu '\$1 == p && \$2 == 0 { print \$4, \$5 }' $BOXES > /tmp/poll"
	cat /tmp/poll
}

is "$(poll_of uncore_cbox_3 'uncore_cbox_3/event=0x35,umask=0x8/')" "1 3600000000000" \
	"TOR_INSERTS (1 per clock): 2^47 / 3.5 GHz is over an hour, so 1 h"
is "$(poll_of uncore_cbox_3 'uncore_cbox_3/event=0x35,umask=0x8/,uncore_cbox_3/event=0x36,umask=0x8/')" \
	"2 2010535547933" "adding TOR_OCCUPANCY (20 per clock) shortens it to 2^47 / 70e9 s"
is "$(poll_of uncore_cbox_3 'uncore_cbox_3/event=0x36,umask=0x8,thresh=1/')" "1 3600000000000" \
	"a thresholded TOR_OCCUPANCY adds at most 1 per clock"
is "$(poll_of uncore_sbox_0 'uncore_sbox_0/event=0x01,umask=0x1/')" "1 3350892579888" \
	"SBo event 0x01 (12 per clock): 2^47 / 42e9 s"
is "$(awk '$1 == "uncore_cbox_3" && $2 == 0 { print $4, $5 }' $BOXES)" "0 0" \
	"no events, no timer"

unload_modules
