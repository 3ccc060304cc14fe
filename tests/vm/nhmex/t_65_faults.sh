#!/bin/sh
# timeout: 300
# An MSR fault on the Xeon 7500 (tests/vm/t_65_faults.sh has every kind on
# Broadwell; the fault path is the core's, this checks that it holds
# here): the U-box counter's registers raise #GP for a while. The U event
# keeps its count and takes up what its counter counted meanwhile once it
# answers again; a C-box event beside it is exact throughout; each end of
# the fault is reported once.
# shellcheck source=../lib.sh
. /tests/lib.sh
# shellcheck source=../uncore_lib.sh
. /tests/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh

load_modules || exit 1
nh_topo
FAULT=$SIM/fault
PARAM=/sys/module/uncore_pmu/parameters
CPU0=$(first_cpu 0)
out=/tmp/stat.csv
echo 50 >"$PARAM/poll_max_ms"
echo "uncore-test: nhmex t_65 mark" >/dev/kmsg
said() { dmesg | sed -n '/nhmex t_65 mark$/,$p' | grep -c "$1"; }

u="pkg=0 box=ubox event=0x50"
c="pkg=0 box=cbox idx=0 event=0x14 umask=0x1"
cat >/tmp/steps.sh <<EOF
. /tests/lib.sh; . /tests/uncore_lib.sh
inject '$u count=100' '$c count=100'
echo 'gp pkg=0 msr=0xc10-0xc11' >$FAULT
until_true '[ "\$(sed -n "s/.* hits=\([0-9]*\)\$/\1/p" $FAULT)" -ge 2 ]' || exit 1
inject '$u count=200' '$c count=200'
echo clear >$FAULT
until_true 'dmesg | grep -q "uncore_ubox, package 0: answers again"' || exit 1
inject '$u count=300' '$c count=300'
EOF
if pstat "$out" -a -A -e 'uncore_ubox/event=0x50,name=u/,uncore_cbox_0/event=0x14,umask=0x1,name=c/' -- \
	sh /tmp/steps.sh; then
	is "$(val_cpu "$out" "$CPU0" u) $(val_cpu "$out" "$CPU0" c)" "600 600" \
		"#GP on the U counter's MSRs: both counts exact once it answers again"
fi
is "$(said "uncore_ubox, package 0: read of MSR .* failed")" 1 "the fault reported once"
is "$(said "uncore_ubox, package 0: answers again")" 1 "its end reported once"
is "$(said "uncore_cbox_0, package 0:")" 0 "nothing about the C-box"
echo clear >$FAULT
echo 3600000 >"$PARAM/poll_max_ms"
unload_modules
