#!/bin/sh
# 64-bit counts over 48-bit counters: a counter preloaded just below 2^48
# wraps while counted, and a burst of 2^48 - 100 events is counted across
# the wrap when reads (perf stat -I) come between bursts.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
out=/tmp/stat.csv
top=$((1 << 48))

# cbox_0 exists on package 0 only: its aggregate is package 0's count.
ok "echo 'pkg=0 box=cbox idx=0 ctr=0 value=$((top - 50))' > $SIM/counter" "preload CBo 0 counter 0 to 2^48 - 50"
pstat $out -a -e 'uncore_cbox_0/event=0x35,umask=0x8,name=w/' -- \
	sh -c ". /tests/lib/lib.sh; inject() { sim_inject \"\$1\"; }; inject 'pkg=0 box=cbox idx=0 event=0x35 umask=0x08 count=100'"
is "$(val_total "$out" w)" 100 "preloaded counter counted exactly across the 2^48 wrap"
is $(( $(sim_box_status 0 cbox0) & 1 )) 1 "CBo 0 BOX_STATUS.ov[0] set by the wrap"

pstat "$out" -a -I 100 -e 'uncore_cbox_0/event=0x35,umask=0x8,name=w/' -- \
	sh -c ". /tests/lib/lib.sh; sim_inject 'pkg=0 box=cbox idx=0 event=0x35 umask=0x08 count=$((top - 100))'; sleep 0.5;
	       sim_inject 'pkg=0 box=cbox idx=0 event=0x35 umask=0x08 count=300'; sleep 0.5"
is "$(val_intervals "$out" w)" $((top + 200)) "2^48 + 200 events summed exactly over -I intervals"

unload_modules
