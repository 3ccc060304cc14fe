#!/bin/sh
# sysfs: which PMUs exist (CAPID4/CAPID5, not the core count), their
# cpumask (one reading CPU per package that has the box), format/ fields
# exactly as mainline names and places them, events/ and self-description.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init

ok "[ -d $PMUS/uncore_ubox ]" "uncore_ubox registered"
ok "[ -d $PMUS/uncore_pcu ]" "uncore_pcu registered"

# CBo n exists iff some package's CAPID5 has bit n; its cpumask lists the
# reading CPU of exactly those packages.
n=0
while [ $n -lt 24 ]; do
	want=""
	for p in $PKGS; do
		has_cbo "$p" $n && want="$want${want:+,}$(first_cpu "$p")"
	done
	if [ -n "$want" ]; then
		is "$(cat "$PMUS"/uncore_cbox_$n/cpumask 2>/dev/null)" "$want" "uncore_cbox_$n cpumask is the packages whose CAPID5 has bit $n"
	else
		ok "[ ! -e $PMUS/uncore_cbox_$n ]" "uncore_cbox_$n absent: no package's CAPID5 has bit $n"
	fi
	n=$((n + 1))
done

# The packages have different, non-contiguous masks: the simulator's
# defaults, or the debug guest's smaller ones (uncore.sim_args).
# (An array parameter the load did not set reads as empty.)
want=$(awk -F, '{ printf "0x%06x,0x%06x", $1, $2 }' "$SIMPARAM"/capid5)
[ -n "$want" ] || want=0x000f0f,0x003c3a
is "$(sim_reg capid5 0),$(sim_reg capid5 1)" "$want" "simulator CAPID5 masks as loaded ($want)"
case $want in
0x000f0f,0x003c3a | 0x000009,0x000018) ;;
*) ok false "CAPID5 $want: neither the defaults nor the debug guest's" ;;
esac

all=""
for p in $PKGS; do all="$all${all:+,}$(first_cpu "$p")"; done
for b in ubox pcu; do
	is "$(cat "$PMUS"/uncore_$b/cpumask)" "$all" "uncore_$b cpumask has one CPU per package"
done
s=0
while [ $s -lt 4 ]; do
	want=""
	for p in $PKGS; do
		[ "$s" -lt "$(sbo_count "$p")" ] && want="$want${want:+,}$(first_cpu "$p")"
	done
	is "$(cat "$PMUS"/uncore_sbox_$s/cpumask 2>/dev/null)" "$want" "uncore_sbox_$s cpumask follows CAPID4"
	s=$((s + 1))
done

# format/: names and bit positions (mainline's, except where the manual
# differs: see Documentation/uncore_pmu.rst).
formats() { (cd "$PMUS/$1/format" && for f in *; do echo "$f=$(cat "$f")"; done) | tr '\n' ' '; }
is "$(formats uncore_ubox)" "edge=config:18 event=config:0-7 inv=config:23 thresh=config:24-28 umask=config:8-15 " "uncore_ubox format"
is "$(formats uncore_cbox_3)" "edge=config:18 event=config:0-7 filter_isoc=config1:63 filter_nc=config1:62 filter_nid=config1:32-47 filter_opc=config1:52-60 filter_state=config1:17-23 filter_tid=config1:0-5 inv=config:23 thresh=config:24-31 tid_en=config:19 umask=config:8-15 " "uncore_cbox format"
is "$(formats uncore_pcu)" "edge=config:18 event=config:0-7 filter_band0=config1:0-7 filter_band1=config1:8-15 filter_band2=config1:16-23 filter_band3=config1:24-31 inv=config:23 occ_edge=config:31 occ_invert=config:30 occ_sel=config:14-15 thresh=config:24-28 " "uncore_pcu format"
is "$(formats uncore_sbox_0)" "edge=config:18 event=config:0-7 inv=config:23 thresh=config:24-31 tid_en=config:19 umask=config:8-15 " "uncore_sbox format"

is "$(cat "$PMUS"/uncore_ubox/events/clockticks)" "event=0xff" "uncore_ubox clockticks is the fixed counter"
is "$(cat "$PMUS"/uncore_cbox_3/events/clockticks)" "event=0x00" "uncore_cbox clockticks"

is "$(cat "$PMUS"/uncore_cbox_3/num_counters) $(cat "$PMUS"/uncore_cbox_3/counter_width)" "4 48" "cbox self-description"
is "$(cat "$PMUS"/uncore_ubox/num_counters) $(cat "$PMUS"/uncore_ubox/fixed_counter_width)" "2 48" "ubox self-description"

# perf resolves the PMUs' aliases (t_85 lists and opens all of them).
ok "perf stat -a -e uncore_cbox_3/clockticks/ -- true 2>&1 | grep -q 'uncore_cbox_3/clockticks/'" "perf resolves uncore_cbox_3/clockticks/"

unload_modules
ok "[ ! -e $PMUS/uncore_ubox ]" "PMUs gone after unload"
