#!/bin/bash
# build-dkms.sh KVER
#
# Build uncore_pmu.ko for kernel release KVER the way a user's machine does,
# through dkms from the sources `make dkms-src` ships (dkms.conf, no
# simulator), in a private dkms tree under build/dkms-KVER: nothing is added to
# /var/lib/dkms or installed on this machine, and dkms's signing key is a
# throw-away one made there (Documentation/uncore_pmu.rst, "Installing").
# Prints the path of the built module. mkinitramfs.sh installs it in the
# guest where modprobe finds it (updates/dkms, as `dkms install` would);
# tests/vm/bdx/t_12_dkms.sh loads it.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

[ $# -eq 1 ] || die "usage: $0 KVER"
kver=$1
ver=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$REPO/debian/changelog")
[ -n "$ver" ] || die "no version in debian/changelog"
# One tree per kernel: two lanes of make check may build at once.
src=$BUILD/dkms-$kver/src tree=$BUILD/dkms-$kver/tree
rm -rf "$BUILD/dkms-$kver"
mkdir -p "$src" "$tree"
# uncore-top, which dkms-src installs beside the sources, into the tree too.
make -s -C "$REPO" dkms-src DKMS_SRC="$src/uncore-pmu-$ver" DESTDIR="$BUILD/dkms-$kver/stage" >&2
export mok_signing_key=$tree/mok.key mok_certificate=$tree/mok.pub
log "dkms build of uncore-pmu $ver for $kver"
dkms add --dkmstree "$tree" --sourcetree "$src" -m uncore-pmu -v "$ver" >&2
if ! dkms build --dkmstree "$tree" --sourcetree "$src" -m uncore-pmu -v "$ver" -k "$kver" >&2; then
	cat "$tree/uncore-pmu/$ver/build/make.log" >&2 || true
	die "dkms build failed"
fi
ko=$tree/uncore-pmu/$ver/$kver/x86_64/module/uncore_pmu.ko
# dkms compresses the module as the kernel's own are (6.12:
# CONFIG_MODULE_COMPRESS_XZ); the guest's busybox modprobe takes it plain.
if [ ! -f "$ko" ] && [ -f "$ko.xz" ]; then
	xz -dk "$ko.xz"
fi
[ -f "$ko" ] || die "dkms built no $ko"
echo "$ko"
