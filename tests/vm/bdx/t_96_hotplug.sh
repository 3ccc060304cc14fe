#!/bin/sh
# timeout: 300
# Stress: offline/online cycles of package 1's reading CPU (x86 does not
# take CPU 0 offline) with events counting and sampling live on several
# boxes of both packages all along (tests/vm/bin/soakstat.c, "count"). Each
# cycle takes the reading CPU offline and, while the package's events
# move, injects requests into the counting boxes; then one period into
# each sampling box, waiting for each overflow to be taken; moves the
# frozen sim clock on by a known time (the clock events count exactly
# that); brings the CPU back and injects again. At the end every count is
# exact, every sampling event has one sample of its period per cycle, and
# nothing was lost, throttled or left frozen. `make soak` runs 1000 cycles
# (uncore.soak=1), `make check` 4.
#
# Counting: CBo 3 TOR_INSERTS and CLOCKTICKS (UCLK), PCU CLOCKTICKS (PCLK),
# the UBox's fixed UCLK counter, iMC 1 and HA 1 (PCI boxes); sampling at
# period 1000: UBox, PCU, HA 0 and iMC 0 (the PMI) and a CBo only package
# 1 has (the driver's timer). Each event on both packages' reading CPUs:
# package 0, whose CPUs stay, must count exactly too.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

CYCLES=$(soak_size 4 1000)
P=1000

load_modules || exit 1
topo_init
c0=$(first_cpu 0) c1=$(first_cpu 1)
tcbo=""
for i in $(seq 0 23); do
	has_cbo 1 "$i" && ! has_cbo 0 "$i" && [ -d "$PMUS/uncore_cbox_$i" ] && { tcbo=$i; break; }
done
if [ -z "$c1" ] || [ -z "$tcbo" ] || ! has_cbo 0 3 || ! has_cbo 1 3 || ! has_imc 1 0 || ! has_imc 1 1; then
	skip "hotplug soak" "no package 1 with CBo 3, a CBo of its own and iMC 0 channels 0-1"
	unload_modules
	exit 0
fi

# The events (soakstat's INDEX is the line number from 0), and the line
# that injects one request into each, "-" for the clock events.
cat >/tmp/t97h.events <<END
uncore_cbox_3/0x0835 box=cbox idx=3 event=0x35 umask=0x08
uncore_cbox_3/0x00 -
uncore_pcu/0x00 -
uncore_ubox/0xff -
uncore_imc_1/0x0102 box=imc idx=1 event=0x02 umask=0x01
uncore_ha_1/0x0c01 box=ha idx=1 event=0x01 umask=0x04
uncore_ubox/0x0842:$P box=ubox event=0x42 umask=0x08
uncore_pcu/0x04:$P box=pcu event=0x04
uncore_ha_0/0x0301:$P box=ha idx=0 event=0x01 umask=0x01
uncore_imc_0/0x0304:$P box=imc idx=0 event=0x04 umask=0x01
uncore_cbox_$tcbo/0x0835:$P box=cbox idx=$tcbo event=0x35 umask=0x08
END
# Per cycle I: X(I) requests into each counting box of package 1 during
# the move and X(I) after it, Y(I) into package 0's, and the clock on by
# D(I) ns. UCLK counts 2 and PCLK 0.8 per ns (the simulator's defaults).
printf 'CYCLES=%s P=%s TCBO=%s\n' "$CYCLES" "$P" "$tcbo" >/tmp/t97h.sh
cat >>/tmp/t97h.sh <<'END'
x() { echo $(($1 % 7 + 1)); }
y() { echo $(($1 % 5 + 1)); }
d() { echo $((1000 * ($1 % 3 + 1))); }
reader() { awk '$1 == 1 { print $2 }' /sys/kernel/debug/uncore_pmu/packages; }
samples1() { awk -v p="$1" '$1 == p && $2 == 1 { print $4 }' /sys/kernel/debug/uncore_pmu/samples; }
# On stderr: the test's output (soakstat's goes to a file).
say() { echo "# cycle $i: $*" >&2; }
# counting PKG N: N requests into each of package PKG's counting boxes.
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
	awk '$1 ~ /:/ && $1 !~ /cbox/ { sub(/^[^ ]* /, ""); print }' /tmp/t97h.events | while read -r l; do
		sim_inject "pkg=1 $l count=$P" && sim_settle 1 || exit 1
	done || { say "an overflow was not taken"; return 1; }
	s=$(samples1 "uncore_cbox_$TCBO")
	sim_inject "pkg=1 box=cbox idx=$TCBO event=0x35 umask=0x08 count=$P" &&
		until_true "[ \$(samples1 uncore_cbox_$TCBO) -gt $s ]" ||
		{ say "the CBo's timer took no sample"; return 1; }
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

drops0=$(sim_state | sed -n 's/^pkg1 stats .* frozen_drops=\([0-9]*\).*/\1/p')
echo freeze >"$SIM/clock"
start=$(cut -d' ' -f1 /proc/uptime)
rm -f /tmp/t97h.done
# shellcheck disable=SC2046 # one word per event
/tests/bin/soakstat count $(cut -d' ' -f1 /tmp/t97h.events) -- \
	sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tmp/t97h.sh" >/tmp/t97h.out
rc=$?
echo run >"$SIM/clock"
for c in /sys/devices/system/cpu/cpu[0-9]*/online; do [ "$(cat "$c")" = 1 ] || echo 1 >"$c"; done
took=$(awk -v a="$start" '{ print int($1 - a) }' /proc/uptime)
done=$(cat /tmp/t97h.done 2>/dev/null)
is "${done:-0} $rc" "$CYCLES 0" "$CYCLES offline/online cycles of package 1's reading CPU with events live (${took}s)"

# The truth: per event and package, count and samples.
X=0 Y=0 D=0 i=1
while [ $i -le "$CYCLES" ]; do
	X=$((X + 2 * (i % 7 + 1))) Y=$((Y + i % 5 + 1)) D=$((D + 1000 * (i % 3 + 1)))
	i=$((i + 1))
done
n=0 bad=0 cmp=0
while read -r ev _; do
	for p in 0 1; do
		cpu=$c0
		[ $p = 1 ] && cpu=$c1
		case $ev:$p in
		uncore_cbox_3/0x00:* | uncore_ubox/0xff:*) want="$((2 * D)) 0" ;;
		uncore_pcu/0x00:*) want="$((D * 4 / 5)) 0" ;;
		*:$P:1) want="$((CYCLES * P)) $CYCLES" ;;
		uncore_cbox_"$tcbo"/*:0) continue ;;
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
is "$(sim_state | sed -n 's/^pkg1 stats .* frozen_drops=\([0-9]*\).*/\1/p')" "$drops0" "no request came while package 1 was frozen"
is "$(sim_state | sed -n 's/^pkg1 global .* frozen=\([01]\).*/\1/p')" 0 "package 1 is not left frozen"
is "$(sim_state | grep -c 'counting=1')" 0 "no counter left counting"
is "$(sim_violations)" 0 "no reserved bit written"
is "$(awk '!/^#/ { l += $8 } END { print l + 0 }' /sys/kernel/debug/uncore_pmu/packages)" 0 \
	"no carried counter went unread for half its wrap time"
diag "soak figures: hotplug: $CYCLES cycles in ${took}s, $n events on 2 packages, $cmp counts compared, $bad wrong; $(carry_figures)"
unload_modules
