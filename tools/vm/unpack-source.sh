#!/bin/bash
# unpack-source.sh [SERIES]: unpack (once) Debian's linux-source-SERIES
# (default: the debug kernel's, common.sh) into the cache and print its
# path. Used by build-kernel.sh and build-perf.sh and, on its own, by
# `make lint` for checkpatch.pl, which needs the source tree but not a
# built kernel.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

series=${1:-$DEBUG_SERIES}
cache=${UNCORE_CACHE:-/var/cache/uncore_pmu}
tarball=/usr/src/linux-source-$series.tar.xz
[ -f "$tarball" ] || die "$tarball missing (apt-get install linux-source-$series)"

srcver=$(dpkg-query -W -f='${Version}' "linux-source-$series")
src=$cache/src-$srcver

mkdir -p "$cache"
# A lock of its own, not build-kernel's: lint must not wait for a kernel build.
exec 8>"$cache/.src.lock"
flock 8

if [ ! -f "$src/.done" ]; then
	echo "unpack-source: unpacking $tarball" >&2
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" --strip-components=1 -xf "$tarball"
	mv "$src.tmp" "$src"
	touch "$src/.done"
fi
echo "$src"
