#!/bin/sh
# timeout: 300
# Stress: PCI unbind and rebind of one box, iMC 0 channel 0 of package 0,
# with events live all along on it and on its neighbours: the same pmu on
# package 1, the sibling channel (which shares its PMI group, and
# samples) and HA 0 (counting and sampling). As t_27_unbind.sh documents,
# the unbound box's event stops with the count it had and reports that
# until closed, across every rebind; each time the box is back, an event
# opened on it counts exactly. The neighbours count and sample exactly
# throughout. `make soak` runs 100 rounds (uncore.soak=1), `make check` 10.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

ROUNDS=$(soak_size 10 100)
P=1000

load_modules || exit 1
topo_init
DRV=/sys/bus/pci/drivers/uncore_pmu
set -- "$DRV"/*:14.0
dom=${1##*/}
dom=${dom%%:*}
# iMC0 channel 0 (D20:F0) of package 0, on bus 0xff (simulator.rst).
d0=$dom:ff:14.0
c0=$(first_cpu 0) c1=$(first_cpu 1)
if [ -z "$c1" ] || [ ! -e "$DRV/$d0" ] || ! has_imc 1 0; then
	skip "unbind soak" "no package 1 with iMC 0 channel 0, or $d0 not bound"
	unload_modules
	exit 0
fi

# Round I: the box goes; requests come to every box (package 1's iMC 0
# I, the sibling channel I + 1, HA 0 I + 2, each sampler one period, and
# the unbound box 1000 that no event may count); the box comes back and
# an event opened on it is injected 7; 1000 more come to the box.
printf 'd0=%s DRV=%s c0=%s c1=%s P=%s ROUNDS=%s\n' "$d0" "$DRV" "$c0" "$c1" "$P" "$ROUNDS" >/tmp/t97u.sh
cat >>/tmp/t97u.sh <<'END'
imc0() { sim_inject "pkg=$1 box=imc idx=0 event=0x04 umask=0x01 count=$2"; }
mask() { cat /sys/bus/event_source/devices/uncore_imc_0/cpumask; }
bad() { echo "# round $i: $*" >>/tmp/t97u.bad; }
round() {
	echo "$d0" >"$DRV/unbind" || return 1
	[ "$(mask)" = "$c1" ] || bad "cpumask $(mask) with the box unbound"
	imc0 0 1000 && imc0 1 "$i" &&
		sim_inject "pkg=0 box=imc idx=1 event=0x04 umask=0x01 count=$((i + 1))" &&
		sim_inject "pkg=0 box=ha idx=0 event=0x01 umask=0x04 count=$((i + 2))" &&
		sim_inject "pkg=0 box=ha idx=0 event=0x01 umask=0x01 count=$P" && sim_settle 0 &&
		sim_inject "pkg=0 box=imc idx=1 event=0x02 umask=0x01 count=$P" && sim_settle 0 || return 1
	echo "$d0" >"$DRV/bind" || return 1
	[ "$(mask)" = "$c0,$c1" ] || bad "cpumask $(mask) with the box back"
	got=$(/tests/bin/soakstat count uncore_imc_0/0x0304 -- \
		sh -c ". /tests/lib/lib.sh; sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=7'" |
		awk -v c="$c0" '$2 == c { print $3, ($4 == $5) }')
	echo "$got" >>/tmp/t97u.new
	imc0 0 1000
}
i=1
while [ $i -le "$ROUNDS" ]; do round || break; i=$((i + 1)); done
echo $((i - 1)) >/tmp/t97u.done
END

rm -f /tmp/t97u.bad /tmp/t97u.done /tmp/t97u.new
start=$(cut -d' ' -f1 /proc/uptime)
/tests/bin/soakstat count uncore_imc_0/0x0304 uncore_imc_1/0x0304 uncore_ha_0/0x0c01 \
	uncore_ha_0/0x0301:$P uncore_imc_1/0x0102:$P -- \
	sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh
		sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=100' || exit 1
		. /tmp/t97u.sh" >/tmp/t97u.out
rc=$?
took=$(awk -v a="$start" '{ print int($1 - a) }' /proc/uptime)
[ -e "$DRV/$d0" ] || echo "$d0" >"$DRV/bind"
sed 's/^/# /' /tmp/t97u.out
is "$(cat /tmp/t97u.done 2>/dev/null) $rc" "$ROUNDS 0" "$ROUNDS unbind/rebind rounds of $d0 with events live (${took}s)"
is "$(cat /tmp/t97u.bad 2>/dev/null)" "" "every round: uncore_imc_0 without package 0 while unbound, with it after"
# The event opened on the rebound box, with the old one still open on
# the pmu: count 7 of 7, and running all the time it was enabled (it has
# a box of 4 free counters to itself).
is "$(grep -c '^7 ' /tmp/t97u.new)" "$ROUNDS" "every round: the rebound box counts exactly for an event opened on it"
is "$(grep -c ' 1$' /tmp/t97u.new)" "$ROUNDS" "every round: that event ran all the time it was enabled"

# The truth, per event (soakstat's index) and CPU: count and samples.
S1=$((ROUNDS * (ROUNDS + 1) / 2))
cat >/tmp/t97u.want <<END
0 $c0 100 0 the unbound box's event: the 100 it had counted before the first unbind
0 $c1 $S1 0 package 1's iMC 0 channel 0: all of $S1
1 $c0 $((S1 + ROUNDS)) 0 the sibling channel: all of $((S1 + ROUNDS))
1 $c1 0 0 package 1's sibling channel: nothing
2 $c0 $((S1 + 2 * ROUNDS)) 0 HA 0: all of $((S1 + 2 * ROUNDS))
2 $c1 0 0 package 1's HA 0: nothing
3 $c0 $((ROUNDS * P)) $ROUNDS HA 0 sampling: one sample of period $P a round
3 $c1 0 0 package 1's HA 0 sampling: nothing
4 $c0 $((ROUNDS * P)) $ROUNDS the sibling channel sampling: one sample of period $P a round
4 $c1 0 0 package 1's sibling channel sampling: nothing
END
while read -r e c want samples what; do
	is "$(awk -v e="$e" -v c="$c" '$1 == e && $2 == c { print $3, $6, $7, $8 }' /tmp/t97u.out)" \
		"$want $samples 0 0" "$what"
done </tmp/t97u.want
is "$(sim_state | grep -c 'counting=1')" 0 "no counter left counting"
is "$(sim_violations)" 0 "no reserved bit written"
diag "soak figures: unbind: $ROUNDS rounds in ${took}s, 5 events on 2 packages and $ROUNDS short ones, $((10 + ROUNDS)) counts compared"
unload_modules
