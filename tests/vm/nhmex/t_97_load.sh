#!/bin/sh
# timeout: 300
# Stress, as tests/vm/bdx/t_97_load.sh on Broadwell: load and unload, with
# events opened and closed between. Each round loads the simulator and the
# driver, opens a counting event on a box of every kind and a sampling one
# (tests/vm/bin/soakstat.c) on both packages, injects, and checks every count
# and sample number exactly; then closes them, checks that the simulator
# shows no counter left counting (and again once the driver is gone) and
# no faulting or reserved-bit write, and unloads both. Every round
# registers the same pmus, and none is left in sysfs after the unload.
# `make soak PART=nhmex` runs 100 rounds (uncore.soak=1), `make check` 3.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh

ROUNDS=$(soak_size 3 100)
P=1000

# The events (soakstat's INDEX is the line number from 0) and the line
# injecting into each; the last samples.
cat >/tmp/t97l.events <<END
uncore_ubox/0x50 box=ubox event=0x50
uncore_cbox_3/0x0114 box=cbox idx=3 event=0x14 umask=0x1
uncore_bbox_0/0xee box=bbox idx=0 ctr=3 event=0x17
uncore_sbox_0/0x09 box=sbox idx=0 event=0x09
uncore_mbox_0/0x3600 box=mbox idx=0 sel=0x1b
uncore_rbox_1/0x24/0x1 box=rbox port=7 iperf=0x1
uncore_wbox/0x0102 box=wbox event=0x2 umask=0x1
uncore_cbox_6/0x0214:$P box=cbox idx=6 event=0x14 umask=0x2
END
nev=$(wc -l </tmp/t97l.events)
# Round R: package P's counting boxes get R + 20 P events each, its
# sampling box 2 periods.
cat >/tmp/t97l.sh <<'END'
for p in $PKGS; do
	awk -v p="$p" -v n=$((R + 20 * p)) '$1 !~ /:/ { sub(/^[^ ]* /, ""); print "pkg=" p, $0, "count=" n }' \
		/tmp/t97l.events >"$SIM/inject" || exit 1
	sim_inject "pkg=$p box=cbox idx=6 event=0x14 umask=0x2 count=2000" && nh_settle "$p" || exit 1
done
END

pmu_list() { for d in "$PMUS"/uncore_*; do [ -e "$d" ] && echo "${d##*/}"; done; }
npmus() { pmu_list | wc -l; }
bad=0 counted=0 start=$(cut -d' ' -f1 /proc/uptime)
fail() { bad=$((bad + 1)); diag "round $R: $*"; }
R=1
while [ $R -le "$ROUNDS" ]; do
	load_modules || { fail "load"; break; }
	[ $R = 1 ] && { nh_topo; pmu_list >/tmp/t97l.pmus; }
	pmu_list | cmp -s - /tmp/t97l.pmus || fail "pmus $(npmus), not the first round's $(wc -l </tmp/t97l.pmus)"
	[ "$(sim_state | grep -c 'counting=1')" = 0 ] || fail "counters counting before any event"
	# shellcheck disable=SC2046 # one word per event
	/tests/bin/soakstat count $(cut -d' ' -f1 /tmp/t97l.events) -- \
		sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tests/nhmex/nhmex_lib.sh
			PKGS='$PKGS' R=$R; . /tmp/t97l.sh" >/tmp/t97l.out ||
		fail "soakstat: $(cat /tmp/t97l.out)"
	for p in $PKGS; do
		c=$(eval "echo \$FIRST_$p")
		got=$(awk -v c="$c" '$2 == c { printf "%s %s %s/%s ", $1, $3, $6, $8 }' /tmp/t97l.out)
		want=$(awk -v n=$((R + 20 * p)) -v last=$((nev - 1)) 'BEGIN {
			for (i = 0; i < last; i++) printf "%d %d 0/0 ", i, n; printf "%d 2000 2/0 ", last }')
		[ "$got" = "$want" ] || fail "package $p: got $got want $want"
		counted=$((counted + nev))
	done
	[ "$(sim_state | grep -c 'counting=1')" = 0 ] || fail "counters left counting after close"
	[ "$(nh_bad_writes)" = 0 ] || fail "reserved-bit or faulting writes"
	rmmod uncore_pmu || { fail "rmmod uncore_pmu"; break; }
	[ "$(sim_state | grep -c 'counting=1')" = 0 ] || fail "counters left counting by the driver's unload"
	rmmod uncore_sim || { fail "rmmod uncore_sim"; break; }
	[ "$(npmus)" = 0 ] || fail "$(npmus) pmus left in sysfs"
	R=$((R + 1))
done
took=$(awk -v a="$start" '{ print int($1 - a) }' /proc/uptime)
is "$((R - 1)) $bad" "$ROUNDS 0" "$ROUNDS rounds of load, $nev events on every package counted exactly, close, unload, nothing left (${took}s)"
diag "soak figures: nhmex load/unload: $((R - 1)) rounds in ${took}s, $nev events on $(echo "$PKGS" | wc -w) packages, $counted counts compared, $bad rounds wrong"
unload_modules
