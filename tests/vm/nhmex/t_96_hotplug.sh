#!/bin/sh
# timeout: 300
# Stress, as tests/vm/bdx/t_96_hotplug.sh on Broadwell: offline/online cycles
# of package 1's reading CPU (x86 does not take CPU 0 offline) with events
# counting and sampling live on several boxes of both packages all along
# (tests/vm/bin/soakstat.c, "count"). Each cycle takes the reading CPU offline
# and, while the package's events move, injects into the counting boxes;
# then one period into each sampling box, waiting for each overflow's
# freeze and PMI to pass; moves the frozen sim clock on (the W-box's fixed
# counter counts exactly what the simulator's total says); brings the CPU
# back and injects again. At the end every count is exact, every sampling
# event has one sample of its period per cycle, and nothing was lost or
# left frozen. `make soak PART=nhmex` runs 1000 cycles (uncore.soak=1),
# `make check` 4.
#
# Counting: C-box 7, a B-box counter, S-box 1, an M-box inc_sel event, an
# R-box IPERF event (config1) and the W fixed counter; sampling at period
# 1000, through the U-box's overflow hierarchy: C-box 5, the U-box and a
# W-box general counter.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh

CYCLES=$(soak_size 4 1000)
P=1000

load_modules || exit 1
nh_topo
c0=$FIRST_0 c1=$FIRST_1
if [ -z "$c1" ]; then
	skip "hotplug soak" "no package 1"
	unload_modules
	exit 0
fi

# The events (soakstat's INDEX is the line number from 0), and the line
# that injects one event into each, "-" for the clock.
cat >/tmp/t97h.events <<END
uncore_cbox_7/0x0814 box=cbox idx=7 event=0x14 umask=0x8
uncore_bbox_1/0xee box=bbox idx=1 ctr=3 event=0x17
uncore_sbox_1/0x0160 box=sbox idx=1 event=0x60 umask=0x1
uncore_mbox_1/0x3600 box=mbox idx=1 sel=0x1b
uncore_rbox_1/0x24/0x1 box=rbox port=7 iperf=0x1
uncore_wbox/0xff -
uncore_cbox_5/0x0414:$P box=cbox idx=5 event=0x14 umask=0x4
uncore_ubox/0x50:$P box=ubox event=0x50
uncore_wbox/0x0102:$P box=wbox event=0x2 umask=0x1
END
# Per cycle I: X(I) events into each counting box of package 1 during the
# move and X(I) after it, Y(I) into package 0's, and the clock on by D(I).
printf 'CYCLES=%s P=%s\n' "$CYCLES" "$P" >/tmp/t97h.sh
cat >>/tmp/t97h.sh <<'END'
x() { echo $(($1 % 7 + 1)); }
y() { echo $(($1 % 5 + 1)); }
d() { echo $((1000 * ($1 % 3 + 1))); }
reader() { awk '$1 == 1 { print $2 }' /sys/kernel/debug/uncore_pmu/packages; }
# On stderr: the test's output (soakstat's goes to a file).
say() { echo "# cycle $i: $*" >&2; }
# counting PKG N: N events into each of package PKG's counting boxes.
counting() {
	awk -v p="$1" -v n="$2" '$2 != "-" && $1 !~ /:/ { sub(/^[^ ]* /, ""); print "pkg=" p, $0, "count=" n }' \
		/tmp/t97h.events >"$SIM/inject"
}
cycle() {
	r=$(reader)
	echo 0 >"/sys/devices/system/cpu/cpu$r/online" &
	off=$!
	counting 1 "$(x $i)" && counting 0 "$(y $i)" || return 1
	wait $off || { say "CPU $r did not go offline"; return 1; }
	[ "$(reader)" != "$r" ] || { say "package 1 still read by CPU $r"; return 1; }
	awk '$1 ~ /:/ { sub(/^[^ ]* /, ""); print }' /tmp/t97h.events | while read -r l; do
		sim_inject "pkg=1 $l count=$P" && nh_settle 1 || exit 1
	done || { say "an overflow was not taken"; return 1; }
	echo "advance $(d $i)" >"$SIM/clock" || return 1
	echo 1 >"/sys/devices/system/cpu/cpu$r/online" || { say "CPU $r did not come back"; return 1; }
	counting 1 "$(x $i)"
}
t0=$(cut -d' ' -f1 /proc/uptime)
i=1
while [ $i -le "$CYCLES" ]; do
	cycle || break
	[ $((i % 100)) = 0 ] && say "package 1 read by CPU $(reader), $(awk -v t="$t0" '{ print int($1 - t) }' /proc/uptime)s"
	i=$((i + 1))
done
echo $((i - 1)) >/tmp/t97h.done
END

drops0=$(nh_stat 1 dropped)
echo freeze >"$SIM/clock"
W0_0=$(nh_total 0 wbox fixed) W0_1=$(nh_total 1 wbox fixed)
start=$(cut -d' ' -f1 /proc/uptime)
rm -f /tmp/t97h.done
# shellcheck disable=SC2046 # one word per event
/tests/bin/soakstat count $(cut -d' ' -f1 /tmp/t97h.events) -- \
	sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tests/nhmex/nhmex_lib.sh; . /tmp/t97h.sh" >/tmp/t97h.out
rc=$?
W1_0=$(nh_total 0 wbox fixed) W1_1=$(nh_total 1 wbox fixed)
echo run >"$SIM/clock"
for c in /sys/devices/system/cpu/cpu[0-9]*/online; do [ "$(cat "$c")" = 1 ] || echo 1 >"$c"; done
took=$(awk -v a="$start" '{ print int($1 - a) }' /proc/uptime)
done=$(cat /tmp/t97h.done 2>/dev/null)
is "${done:-0} $rc" "$CYCLES 0" "$CYCLES offline/online cycles of package 1's reading CPU with events live (${took}s)"

# The truth: per event and package, count and samples.
X=0 Y=0 i=1
while [ $i -le "$CYCLES" ]; do
	X=$((X + 2 * (i % 7 + 1))) Y=$((Y + i % 5 + 1))
	i=$((i + 1))
done
ok "[ $((W1_1 - W0_1)) -gt 0 ]" "the W fixed counter of package 1 counted the clock ($((W1_1 - W0_1)))"
n=0 bad=0 cmp=0
while read -r ev _; do
	for p in 0 1; do
		cpu=$c0
		[ $p = 1 ] && cpu=$c1
		case $ev:$p in
		uncore_wbox/0xff:0) want="$((W1_0 - W0_0)) 0" ;;
		uncore_wbox/0xff:1) want="$((W1_1 - W0_1)) 0" ;;
		*:$P:1) want="$((CYCLES * P)) $CYCLES" ;;
		*:$P:0) want="0 0" ;;
		*:0) want="$Y 0" ;;
		*:1) want="$X 0" ;;
		esac
		got=$(awk -v i=$n -v c="$cpu" '$1 == i && $2 == c { print $3, $6 }' /tmp/t97h.out)
		cmp=$((cmp + 1))
		[ "$got" = "$want" ] || { bad=$((bad + 1)); diag "package $p $ev: got count, samples $got want $want"; }
		# Never parked, never multiplexed: it ran all the time it was enabled.
		awk -v i=$n -v c="$cpu" '$1 == i && $2 == c && ($4 != $5 || $7 != 0 || $8 != 0) { exit 1 }' /tmp/t97h.out ||
			{ bad=$((bad + 1)); diag "package $p $ev: $(awk -v i=$n -v c="$cpu" '$1 == i && $2 == c' /tmp/t97h.out): not running all the time, or samples of another period or lost"; }
	done
	n=$((n + 1))
done </tmp/t97h.events
sed 's/^/# /' /tmp/t97h.out
is "$bad" 0 "$cmp counts and sample numbers exact, every event running all along, no sample lost"
is "$(awk '$2 == 1 && ($5 != 0 || $6 != 0 || $7 != 0)' /sys/kernel/debug/uncore_pmu/samples)" "" \
	"package 1's boxes lost, throttled and dropped no sample"
is "$(nh_stat 1 dropped)" "$drops0" "no event of package 1 was dropped (none came while it was frozen)"
is "$(sim_state | grep -c 'counting=1')" 0 "no counter left counting"
is "$(nh_bad_writes)" 0 "no reserved bit written, no faulting access"
is "$(awk '!/^#/ { l += $8 } END { print l + 0 }' /sys/kernel/debug/uncore_pmu/packages)" 0 \
	"no carried counter went unread for half its wrap time"
diag "soak figures: nhmex hotplug: $CYCLES cycles in ${took}s, $n events on 2 packages, $cmp counts compared, $bad wrong; $(carry_figures)"
unload_modules
