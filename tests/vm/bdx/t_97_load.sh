#!/bin/sh
# timeout: 300
# Stress: load and unload, with events opened and closed between. Each
# round loads the simulator and the driver, opens a counting event on a
# box of every kind and a sampling one (tests/vm/bin/soakstat.c) on both
# packages, injects, and checks every count and sample number exactly;
# then closes them, checks that the simulator shows no counter left
# counting (and again once the driver is gone) and no reserved bit
# written, and unloads both. Every round registers the same pmus, and
# none is left in sysfs after the unload, nor the driver's PCI driver or
# the simulator's devices. `make soak` runs 100 rounds (uncore.soak=1),
# `make check` 3; t_70_loadunload.sh does 50 quick rounds of one event.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

ROUNDS=$(soak_size 3 100)
P=1000

# The events (soakstat's INDEX is the line number from 0) and the line
# injecting into each; the last samples.
cat >/tmp/t97l.events <<END
uncore_ubox/0x0842 box=ubox event=0x42 umask=0x08
uncore_cbox_3/0x0835 box=cbox idx=3 event=0x35 umask=0x08
uncore_sbox_1/0x0104 box=sbox idx=1 event=0x04 umask=0x01
uncore_pcu/0x04 box=pcu event=0x04
uncore_ha_1/0x0c01 box=ha idx=1 event=0x01 umask=0x04
uncore_imc_0/0x0304 box=imc idx=0 event=0x04 umask=0x01
uncore_irp/0x01 box=irp event=0x01
uncore_qpi_0/0x0200 box=qpi idx=0 event=0x00 umask=0x02
uncore_r2pcie/0x0107 box=r2pcie event=0x07 umask=0x01
uncore_r3qpi_1/0x0107 box=r3qpi idx=1 event=0x07 umask=0x01
uncore_ha_0/0x0301:$P box=ha idx=0 event=0x01 umask=0x01
END
nev=$(wc -l </tmp/t97l.events)
# Round R: package P's counting boxes get R + 20 P requests each, its
# sampling box 2 periods.
cat >/tmp/t97l.sh <<'END'
for p in $PKGS; do
	awk -v p="$p" -v n=$((R + 20 * p)) '$1 !~ /:/ { sub(/^[^ ]* /, ""); print "pkg=" p, $0, "count=" n }' \
		/tmp/t97l.events >"$SIM/inject" || exit 1
	sim_inject "pkg=$p box=ha idx=0 event=0x01 umask=0x01 count=2000" && sim_settle "$p" || exit 1
done
END

pmu_list() { for d in "$PMUS"/uncore_*; do [ -e "$d" ] && echo "${d##*/}"; done; }
npmus() { pmu_list | wc -l; }
# The simulator's PCI devices, in domain 0x10000 or above.
sim_devs() { for d in /sys/bus/pci/devices/1????:*; do [ -e "$d" ] && echo "$d"; done | wc -l; }
bad=0 counted=0 start=$(cut -d' ' -f1 /proc/uptime)
fail() { bad=$((bad + 1)); diag "round $R: $*"; }
R=1
while [ $R -le "$ROUNDS" ]; do
	load_modules || { fail "load"; break; }
	[ $R = 1 ] && { topo_init; pmu_list >/tmp/t97l.pmus; }
	pmu_list | cmp -s - /tmp/t97l.pmus || fail "pmus $(npmus), not the first round's $(wc -l </tmp/t97l.pmus)"
	[ "$(sim_state | grep -c 'counting=1')" = 0 ] || fail "counters counting before any event"
	# shellcheck disable=SC2046 # one word per event
	/tests/bin/soakstat count $(cut -d' ' -f1 /tmp/t97l.events) -- \
		sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; PKGS='$PKGS' R=$R; . /tmp/t97l.sh" >/tmp/t97l.out ||
		fail "soakstat: $(cat /tmp/t97l.out)"
	for p in $PKGS; do
		c=$(first_cpu "$p")
		got=$(awk -v c="$c" '$2 == c { printf "%s %s %s/%s ", $1, $3, $6, $8 }' /tmp/t97l.out)
		want=$(awk -v n=$((R + 20 * p)) -v last=$((nev - 1)) 'BEGIN {
			for (i = 0; i < last; i++) printf "%d %d 0/0 ", i, n; printf "%d 2000 2/0 ", last }')
		[ "$got" = "$want" ] || fail "package $p: got $got want $want"
		counted=$((counted + nev))
	done
	[ "$(sim_state | grep -c 'counting=1')" = 0 ] || fail "counters left counting after close"
	[ "$(sim_violations)" = 0 ] || fail "reserved bits written"
	rmmod uncore_pmu || { fail "rmmod uncore_pmu"; break; }
	[ "$(sim_state | grep -c 'counting=1')" = 0 ] || fail "counters left counting by the driver's unload"
	rmmod uncore_sim || { fail "rmmod uncore_sim"; break; }
	[ "$(npmus)" = 0 ] || fail "$(npmus) pmus left in sysfs"
	[ ! -e /sys/bus/pci/drivers/uncore_pmu ] || fail "the PCI driver left registered"
	[ "$(sim_devs)" = 0 ] || fail "$(sim_devs) simulated PCI devices left"
	R=$((R + 1))
done
took=$(awk -v a="$start" '{ print int($1 - a) }' /proc/uptime)
is "$((R - 1)) $bad" "$ROUNDS 0" "$ROUNDS rounds of load, $nev events on every package counted exactly, close, unload, nothing left (${took}s)"
diag "soak figures: load/unload: $((R - 1)) rounds in ${took}s, $nev events on $(echo "$PKGS" | wc -w) packages, $counted counts compared, $bad rounds wrong"
unload_modules
