#!/bin/sh
# timeout: 300
# An MSR fault on the NetBurst Xeon MP (tests/vm/t_65_faults.sh has every
# kind on Broadwell): the MSR of the IBUSQ unit's counter 0, which holds
# both the counter and its control half, raises #GP for a while. Its
# event keeps its count and takes up what the counter counted meanwhile
# once it answers again, through this part's own counter read; an ISNPQ
# event beside it stays exact; each end of the fault is reported once.
# shellcheck source=../lib.sh
. /tests/lib.sh
# shellcheck source=../uncore_lib.sh
. /tests/uncore_lib.sh
# shellcheck source=p4mp_lib.sh
. /tests/p4mp/p4mp_lib.sh

load_modules || exit 1
p4_topo
FAULT=$SIM/fault
PARAM=/sys/module/uncore_pmu/parameters
out=/tmp/stat.csv
echo 50 >"$PARAM/poll_max_ms"
echo "uncore-test: p4mp t_65 mark" >/dev/kmsg
said() { dmesg | sed -n '/p4mp t_65 mark$/,$p' | grep -c "$1"; }

a="pkg=0 box=ibusq idx=0"
b="pkg=0 box=isnpq idx=0"
cat >/tmp/steps.sh <<EOS
. /tests/lib.sh; . /tests/uncore_lib.sh
inject '$a count=100' '$b count=100'
echo 'gp pkg=0 msr=$(msr_of ibusq 0)' >$FAULT
until_true '[ "\$(sed -n "s/.* hits=\([0-9]*\)\$/\1/p" $FAULT)" -ge 2 ]' || exit 1
inject '$a count=200' '$b count=200'
echo clear >$FAULT
until_true 'dmesg | grep -q "uncore_ibusq, package 0: answers again"' || exit 1
inject '$a count=300' '$b count=300'
EOS
if pstat "$out" -a -A -e 'uncore_ibusq/qual=0x1,name=a/,uncore_isnpq/qual=0x1,name=b/' -- \
	sh /tmp/steps.sh; then
	is "$(val_cpu "$out" "$FIRST_0" a) $(val_cpu "$out" "$FIRST_0" b)" "600 600" \
		"#GP on IBUSQ counter 0's MSR: both counts exact once it answers again"
fi
is "$(said "uncore_ibusq, package 0: read of MSR .* failed")" 1 "the fault reported once"
is "$(said "uncore_ibusq, package 0: answers again")" 1 "its end reported once"
is "$(said "uncore_isnpq, package 0:")" 0 "nothing about ISNPQ"
echo clear >$FAULT
echo 3600000 >"$PARAM/poll_max_ms"
unload_modules
