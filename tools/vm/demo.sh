#!/bin/bash
# `make demo [PART=p4mp]`: build the modules against the stock Debian
# kernel, boot it under QEMU as the part (tools/vm/parts.sh; by default bdx,
# a two-socket Xeon E5 v4), load the simulator and the driver and run the
# part's demo.sh (tests/vm/demo.sh, tests/vm/<part>/demo.sh), with the guest
# console shown live.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tools=$REPO/tools/vm

"$REPO/tools/setup-deps.sh"
v=$(stock_version)
"$tools/build-modules.sh" stock "/usr/src/linux-headers-$v"
"$tools/build-helpers.sh"
"$tools/mkinitramfs.sh" "$v" "$BUILD/stock" "$BUILD/demo.cpio.gz"
mkdir -p "$BUILD/logs"
part=${PART:-bdx}
case $part in
bdx | p4mp | nhmex | k8d | k8e | k8f) ;;
*) die "PART=$part: the demo runs on bdx, p4mp, nhmex, k8d, k8e or k8f" ;;
esac
log "booting $v (QEMU TCG) as part $part; console follows"
# quiet: the demo's output, not the boot log, is what the user came for.
"$tools/run-qemu.sh" --timeout "${UNCORE_DEMO_TIMEOUT:-900}" --log "$BUILD/logs/demo.log" \
	--part "$part" "/boot/vmlinuz-$v" "$BUILD/demo.cpio.gz" demo quiet "uncore.part=$part"

# QEMU exits 0 whenever the guest powers off; the demo's own status is in
# the end marker /init prints.
rc=$(tr -d '\r' <"$BUILD/logs/demo.log" | sed -n 's/^UNCORE-GUEST-END rc=//p' | tail -n1)
[ "${rc:-1}" -eq 0 ] || die "demo failed (guest status ${rc:-unknown})"
