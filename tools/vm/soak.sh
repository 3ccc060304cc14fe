#!/bin/bash
# `make soak`: the stress tests (t_96 to t_99 of a part's folders:
# tests/vm/bdx/t_9[6-9]_*.sh) with their full numbers, on the stock Debian
# kernel in the shape of the stock guest (tools/vm/guests.tsv: 2 sockets,
# cores 0, 1, 2 and 19): 1000 offline/online
# cycles of a reading CPU, 64 multiplexed sessions held a minute, 100
# load/unload rounds, 100 unbind/rebind rounds. `make check` runs the same
# files with small numbers; uncore.soak=1 on the kernel command line is
# what tells them apart. The figures each file ends with ("# soak
# figures: ...") are printed at the end; Documentation/stress.rst has
# those of a run. Console in build/logs/soak.log, TAP in soak.tap.
# PART=nhmex runs tests/vm/nhmex/t_96 and t_97 (hotplug, load/unload) on
# the Xeon 7500 in the nhmex2 guest's shape (2 sockets, cores 0, 2 and 5):
# the shape of the stock kernel's guest that runs all of PART's tests.
#
# The files' time limits (300 s each in `make check`) are multiplied by
# UNCORE_SOAK_SCALE (default 40: room to spare; the 1000 hotplug cycles
# took 33 minutes beside another guest on a 2-core host, 2026-11-27), and
# so is the guest's.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
# shellcheck source=tables.sh
. "$(dirname "$0")/tables.sh"
tools=$REPO/tools/vm

part=${PART:-bdx}
guest=$(guest_names kernel=6.1 tests=all "part=$part" | head -n 1)
[ -n "$guest" ] || die "PART=$part: no guest of tools/vm/guests.tsv runs its tests on the stock kernel"
stress=$(part_numbers "$part" | { grep '^t_9[6-9]$' || true; } | paste -sd,)
[ -n "$stress" ] || die "PART=$part: no stress tests (t_96 to t_99) in its folders"
guest_load "$guest"
scale=${UNCORE_SOAK_SCALE:-40}
tests=${UNCORE_SOAK_TESTS:-$stress}
limit=$((4 * 300 * scale + 600))
logs=$BUILD/logs
name=soak
[ "$part" = bdx ] || name=soak-$part
initrd=$BUILD/$name.cpio.gz

"$REPO/tools/setup-deps.sh"
v=$(stock_version)
"$tools/build-modules.sh" 6.1 "/usr/src/linux-headers-$v"
"$tools/build-helpers.sh"
"$tools/mkinitramfs.sh" "$v" "$BUILD/6.1" "$initrd"
mkdir -p "$logs"

start=$SECONDS
# A guest that hangs before /init (check.sh) is booted again.
for try in 1 2 3; do
	log "booting $v as $part for the soak ($tests), limit ${limit}s, try $try"
	set +e
	"$tools/run-qemu.sh" --timeout "$limit" "${G_SHAPE[@]}" \
		--log "$logs/$name.log" --tap "$logs/$name.tap" "/boot/vmlinuz-$v" "$initrd" check \
		loglevel=7 "uncore.tests=$tests" uncore.soak=1 "uncore.timeout_scale=$scale" |
		sed -u 's/\r$//' | grep --line-buffered -E \
			"^(# test:|# end:|# cycle|# soak figures|ok |not ok |UNCORE-GUEST-END)|$REPORT_RE"
	set -e
	grep -q '^uncore-guest:' "$logs/$name.log" && break
	cp "$logs/$name.log" "$logs/$name.boot-hang-$try.log"
done
"$tools/parse-results.sh" "$name" "$logs/$name.log" "$logs/$name.tap" "$logs/$name.counts"
log "soak took $((SECONDS - start))s"
echo
tr -d '\r' <"$logs/$name.tap" | sed -n 's/^# soak figures: //p'
read -r p f _ <"$logs/$name.counts"
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
