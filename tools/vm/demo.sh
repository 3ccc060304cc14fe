#!/bin/bash
# `make demo [PART=p4mp]`: build the modules against the stock Debian
# kernel, boot it under QEMU as the part (tools/vm/parts.tsv; by default
# bdx, a two-socket Xeon E5 v4), load the simulator and the driver and run
# the part's demo.sh (in the first of its test folders: tests/vm/bdx/,
# tests/vm/k8/ for k8e), with the guest console shown live.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
# shellcheck source=tables.sh
. "$(dirname "$0")/tables.sh"
tools=$REPO/tools/vm

# The parts with a demo (those the driver drives).
demo_parts() {
	local p
	for p in $(part_names); do
		part_load "$p"
		[ -e "$REPO/tests/vm/${PART_TESTS%% *}/demo.sh" ] && echo "$p"
	done | paste -sd' '
}
part=${PART:-bdx}
case " $(demo_parts) " in
*" $part "*) ;;
*) die "PART=$part: the demo runs on $(demo_parts)" ;;
esac

"$REPO/tools/setup-deps.sh"
v=$(stock_version)
"$tools/build-modules.sh" 6.1 "/usr/src/linux-headers-$v"
"$tools/build-helpers.sh"
"$tools/mkinitramfs.sh" "$v" "$BUILD/6.1" "$BUILD/demo.cpio.gz"
mkdir -p "$BUILD/logs"
log "booting $v (QEMU TCG) as part $part; console follows"
# quiet: the demo's output, not the boot log, is what the user came for.
"$tools/run-qemu.sh" --timeout "${UNCORE_DEMO_TIMEOUT:-900}" --log "$BUILD/logs/demo.log" \
	--part "$part" "/boot/vmlinuz-$v" "$BUILD/demo.cpio.gz" demo quiet

# QEMU exits 0 whenever the guest powers off; the demo's own status is in
# the end marker /init prints.
rc=$(tr -d '\r' <"$BUILD/logs/demo.log" | sed -n 's/^UNCORE-GUEST-END rc=//p' | tail -n1)
[ "${rc:-1}" -eq 0 ] || die "demo failed (guest status ${rc:-unknown})"
