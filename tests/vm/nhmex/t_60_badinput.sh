#!/bin/sh
# timeout: 300
# The Xeon 7500 bad-input matrix straight through perf_event_open
# (tests/vm/bin/badinput.c, nhmex_matrix), then perf's own view of a few of
# the same refusals; none of them may have written a register.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh

load_modules || exit 1
w0=$(nh_stat 0 writes)
/tests/bin/badinput nhmex
is "$(nh_stat 0 writes)" "$w0" "no refused (or never enabled) event wrote a register"

ok "refused uncore_bbox_0/event=0x3,counter=3/" "perf: bbox code 0x03 on counter 3 refused"
ok "refused uncore_rbox_1/event=0x18,iperf_cfg=0x1/" "perf: rbox ev_sel 0x18 refused"
ok "refused uncore_sbox_0/event=0x11,umask=0x3/" "perf: sbox NCB CYCLES_FULL of two C-boxes refused"
ok "refused uncore_ubox/event=0x1e4/" "perf: ubox code 0x1e4 (does not fit ev_sel) refused"
ok "refused uncore_mbox_0/inc_sel=0xb,thr=0x1/" "perf: mbox PLD event with a value in config1's low half (thr) refused"
is "$(nh_bad_writes)" 0 "no reserved bit written, no faulting access"
unload_modules
