#!/bin/sh
# timeout: 300
# The K8 northbridge bad-input matrix straight through perf_event_open
# (tests/vm/bin/badinput.c, k8_matrix): what the BKDG does not allow is refused
# by uncore_nb before the core PMU, which would take it, sees it; then
# perf's own view of a few of the same refusals. Opening writes no
# register (events open disabled), and nothing written sets a reserved bit.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=k8_lib.sh
. /tests/k8/k8_lib.sh

load_modules || exit 1
w0=$(k8_sum writes)
/tests/bin/badinput k8 "$(k8_ext_model)"
is "$(k8_sum writes)" "$w0" "no refused (or never enabled) event wrote a register"

ok "refused uncore_nb/event=0xe9,umask=0x68/" "perf: E9h remote CPU to local memory (no such path) refused"
ok "refused uncore_nb/event=0xe0,umask=0x1,cmask=4/" "perf: cmask 4 refused"
ok "refused uncore_nb/event=0xc0/" "perf: a core event (retired instructions) refused"
ok "! perf stat -x, -e uncore_nb/dram_accesses.page_hit/ -- true 2>/dev/null | grep -q '^[0-9]'" \
	"perf: a per-task uncore_nb event does not count"
is "$(k8_bad_writes)" 0 "no reserved bit written, no clobber, no fault"
unload_modules
