#!/bin/sh
# timeout: 300
# Faults and other agents on the Xeon 7500 (tests/vm/bdx/t_65_faults.sh has
# every kind on Broadwell; the paths are the core's, this checks that they
# hold here). An MSR fault: the U-box counter's registers raise #GP for a
# while, a C-box event counts beside it (uncore_lib.sh, msr_fault_case()).
# Another agent: controls of the three box types whose controls are read
# back (C, S, R; Documentation/uncore_pmu.rst, "Faults and other agents")
# get another agent's values while perf counts.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh

load_modules || exit 1
nh_topo
CPU0=$(first_cpu 0)
msr_fault_case 0xc10-0xc11 uncore_ubox uncore_cbox_0 \
	"pkg=0 box=ubox event=0x50" "pkg=0 box=cbox idx=0 event=0x14 umask=0x1" \
	'uncore_ubox/event=0x50,name=a/,uncore_cbox_0/event=0x14,umask=0x1,name=b/' "$CPU0"

# --- another agent writes controls ------------------------------------------
# Both counters of C-box 0, S-box 0's and R-box half 0's get other events,
# as likwid or PCM would write them, once the driver has read what they
# counted before. The driver must notice at its timer's next read, report
# each box once (C-box 0 too, whose two counters both went), keep the
# counts of that read and leave the registers alone; C-box 1 and the
# U-box, untouched, count on exactly.
echo 50 >/sys/module/uncore_pmu/parameters/poll_max_ms
mark="t_65 foreign $(date +%s%N)"
echo "uncore-test: $mark" >/dev/kmsg
said() { dmesg | sed -n "/$mark\$/,\$p" | grep -c "$@"; }
# The counters and their injections: name, PMU, config, inject line.
LIST="a cbox_0 event=0x14,umask=0x1 box=cbox idx=0 event=0x14 umask=0x1
a2 cbox_0 event=0x14,umask=0x2 box=cbox idx=0 event=0x14 umask=0x2
s sbox_0 event=0x09 box=sbox idx=0 event=0x09
rx rbox_0 event=0x6,iperf_cfg=0x80000000 box=rbox port=1 iperf=0x80000000
b cbox_1 event=0x14,umask=0x1 box=cbox idx=1 event=0x14 umask=0x1
u ubox event=0x50 box=ubox event=0x50"
events="" inj=""
while read -r name pmu cfg line; do
	events="$events${events:+,}uncore_$pmu/$cfg,name=$name/"
	inj="$inj${inj:+ }'pkg=0 $line count=COUNT'"
done <<EOT
$LIST
EOT
# The workload: the variables it needs come through the environment.
export INJ="$inj" MARK="$mark"
cat >/tmp/foreign.sh <<'EOF'
. /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh
# reads PMU: the driver's MSR reads of PMU on package 0.
reads() { awk -v p="uncore_$1" '$1 == p && $2 == 0 { print $3 }' /sys/kernel/debug/uncore_pmu/access; }
eval "inject $(echo "$INJ" | sed 's/COUNT/100/g')" || exit 1
# Each checked box read enough since the injection (two reads per event
# and pass) that a whole pass of its timer began after it.
for pmu in cbox_0 sbox_0 rbox_0; do
	n=$(reads $pmu)
	until_true "[ \$(reads $pmu) -ge $((n + 9)) ]" || exit 1
done
# Its counters (sim box, CTL0's MSR, foreign values): the driver's value,
# then the one written over it, one line each into /tmp/foreign.list.
: >/tmp/foreign.list
for spec in cbox0:0xd10:0x400036,0x400037 sbox0:0xc50:0x400001 rbox0:0xe10:0xb; do
	box=${spec%%:*} rest=${spec#*:}
	base=${rest%%:*} vals=${rest#*:}
	sim_state | awk -v b="$box" '$1 == "pkg0" && $2 == b && $3 ~ /^ctr/ && / counting=1/ {
		sub("ctr", "", $3); sub("ctl=", "", $4); print $3, $4 }' >/tmp/ctrs
	[ "$(wc -l </tmp/ctrs)" = "$(echo "$vals" | tr , '\n' | wc -l)" ] || {
		diag "$box: counting counters: $(cat /tmp/ctrs)"; exit 1; }
	for v in $(echo "$vals" | tr , ' '); do
		read -r n ctl || exit 1
		echo "$box $n $((ctl)) $v $((base + 2 * n))" >>/tmp/foreign.list
		echo "pkg=0 msr=$((base + 2 * n)) value=$v" >/sys/kernel/debug/uncore_sim/msr || exit 1
	done </tmp/ctrs
done
until_true '[ "$(dmesg | sed -n "/$MARK\$/,\$p" | grep -c "another agent")" -ge 3 ]' || exit 1
eval "inject $(echo "$INJ" | sed 's/COUNT/200/g')"
EOF
# Unscaled: perf stat would scale the lost events by the share of the time
# they ran.
out=/tmp/stat.csv
if pstat "$out" --no-scale -a -A -e "$events" -- sh /tmp/foreign.sh; then
	got=""
	for n in a a2 s rx b u; do got="$got${got:+ }$(val_cpu "$out" "$CPU0" "$n")"; done
	is "$got" "100 100 100 100 300 300" \
		"another agent's writes: C-box 0's, S-box 0's and R-box 0's events keep what they had counted, C-box 1 and the U-box count on"
	rs() { run_share "$out" "$CPU0" "$1"; }
	ok "stopped_part_way $out $CPU0 a $CPU0 b && stopped_part_way $out $CPU0 rx $CPU0 b" \
		"the lost events stopped running part way ($(rs a); $(rs rx): ns, %), the others ran all along ($(rs b))"
fi
# Each box reported once, with both values (the fields read back: C and
# S 31:22, 20, 18, 15:0; R 6:0) of whichever of its counters came first.
for spec in cbox_0:cbox0:0xffd4ffff sbox_0:sbox0:0xffd4ffff rbox_0:rbox0:0x7f; do
	pmu=${spec%%:*} box=${spec#*:} mask=${spec##*:}
	box=${box%:*}
	while read -r b n ctl v msr; do
		[ "$b" = "$box" ] || continue
		printf "uncore_%s, package 0: counter %d's control reads 0x%x, not the 0x%x written\n" \
			"$pmu" "$n" $((v & mask)) $((ctl & mask))
	done </tmp/foreign.list >/tmp/report.pat
	is "$(said -f /tmp/report.pat)" 1 "uncore_$pmu: another agent's write reported once, with both values"
done
is "$(said -e "uncore_cbox_1, package 0:" -e "uncore_ubox, package 0:")" 0 "nothing about C-box 1 or the U-box"
left=0
while read -r box n ctl v msr; do
	got=$(nh_field 0 "$box" "ctr$n" ctl)
	[ $((got)) -eq $((v)) ] || { diag "$box ctr$n: ctl $got, not $v"; left=1; }
	echo "pkg=0 msr=$msr value=0" >$SIM/msr
done </tmp/foreign.list
is "$left" 0 "the driver left the other agent's controls alone"
echo 3600000 >/sys/module/uncore_pmu/parameters/poll_max_ms
is "$(nh_bad_writes)" 0 "no reserved-bit, faulting or illegal writes"
unload_modules
