#!/bin/sh
# timeout: 300
# uncore_nb: one reading CPU per node, the format fields (PerfEvtSel's and
# the core PMU's names), the event table as the CPU's revision allows it:
# every alias listed opens, and the events of later revisions are refused
# without a register written. The simulator's stand-in core PMU is "cpu"
# at PERF_TYPE_RAW, as the kernel's would be.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=k8_lib.sh
. /tests/k8/k8_lib.sh

load_modules || exit 1
k8_topo
rev=$(k8_ext_model)
diag "CPUID extended model $rev, packages $PKGS"

is "$(cat $SIM/part)" k8 "the simulator models the K8"
ok "dmesg | grep -q 'stand-in core PMU \"cpu\" registered'" "the guest has no core PMU: the stand-in is registered"
is "$(cat $PMUS/cpu/type)" 4 "the stand-in is PERF_TYPE_RAW"
ok "[ -d $PMUS/uncore_nb ]" "uncore_nb registered"
n=0; for d in "$PMUS"/uncore_*; do [ -e "$d" ] && n=$((n + 1)); done
is $n 1 "uncore_nb is the only uncore PMU"

cpus=""
for p in $PKGS; do cpus="$cpus${cpus:+,}$(first_cpu "$p")"; done
is "$(cpulist "$(cat $PMUS/uncore_nb/cpumask)")" "$cpus" "uncore_nb cpumask: one CPU per node ($cpus)"
is "$(cat $PMUS/uncore_nb/counter_width)" 48 "the counters are 48 bits wide (004:25)"
is "$(cat $PMUS/uncore_nb/num_counters)" 4 "four counters (004:9)"

got=$(for f in "$PMUS"/uncore_nb/format/*; do printf '%s=%s ' "${f##*/}" "$(cat "$f")"; done)
is "$got" "cmask=config:24-31 edge=config:18 event=config:0-7 inv=config:23 umask=config:8-15 " \
	"uncore_nb format: PerfEvtSel's fields under the core PMU's names"

# The aliases the revision has: the table's 66, less E8h-EAh's 18 before
# revision E, less E5h's 4 and ECh:40h before revision D.
aliases() { for f in "$PMUS/uncore_nb"/events/*; do case $f in *.scale|*.unit) ;; *) [ -e "$f" ] && echo "${f##*/}" ;; esac; done; }
is "$(modinfo -F k8_event_counts "$MODDIR/uncore_pmu.ko" 2>/dev/null)" "nb=66" "the table has 66 aliases"
want=66
[ "$rev" -ge 2 ] || want=$((want - 18))
[ "$rev" -ge 1 ] || want=$((want - 5))
is "$(aliases | wc -l)" $want "uncore_nb lists the $want aliases revision $rev has"
is "$(cat $PMUS/uncore_nb/events/dram_accesses.all)" "event=0xe0,umask=0x07" "dram_accesses.all"
is "$(cat $PMUS/uncore_nb/events/dram_accesses.all.scale):$(cat $PMUS/uncore_nb/events/dram_accesses.all.unit)" \
	"6.103515625e-5:MiB" "dram_accesses.all: 64 bytes an access (004:552), in MiB"
is "$(cat $PMUS/uncore_nb/events/ht_link1_tx.data.scale)" "3.814697265625e-6" "HT data: 4 bytes a dword (004:712)"

# Every alias opens (an alias refused shows as <not supported>).
evs=$(aliases | sed "s|.*|uncore_nb/&/|" | paste -s -d,)
perf stat -a -x, -o /tmp/al.csv -e "$evs" -- true 2>/tmp/al.err
bad=$(awk -F, '$1 == "<not supported>" { print $3 }' /tmp/al.csv | head -n 5 | tr '\n' ' ')
is "$(grep -c 'uncore_nb/' /tmp/al.csv):$bad" "$want:" "every alias opens"

# Revision gating (004:599, 612, 642, 690), from CPUID: the events of a
# later revision are refused, those of this one open.
w0=$(k8_sum writes)
gate() { # MIN-REV EVENT DESC
	if [ "$rev" -ge "$1" ]; then
		ok "! refused uncore_nb/$2/" "revision $rev has $3"
	else
		ok "refused uncore_nb/$2/" "revision $rev refuses $3"
	fi
}
gate 1 event=0xe5,umask=0x20 "E5h sized blocks (rev D)"
gate 1 event=0xec,umask=0x40 "ECh upstream writes (rev D)"
gate 1 event=0xec,umask=0x41 "ECh probe miss with upstream writes (rev D)"
gate 0 event=0xec,umask=0x3f "ECh without upstream writes"
gate 2 event=0xe8,umask=0x80 "E8h ECC errors (rev E)"
gate 2 event=0xe9,umask=0xa8 "E9h CPU/IO requests (rev E)"
gate 2 event=0xea,umask=0x01 "EAh cache block commands (rev E)"
is "$(k8_bad_writes)" 0 "no reserved bit written, no clobber, no fault"
diag "writes while opening: $(($(k8_sum writes) - w0))"

unload_modules
