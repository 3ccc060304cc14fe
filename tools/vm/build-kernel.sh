#!/bin/bash
# Build (once) the debug test kernel from Debian's linux-source of the
# series DEBUG_SERIES names (common.sh) and print the path of its build
# tree. The tree is cached outside the repository, keyed by the hash of
# tools/vm/kernel.config and the linux-source version, so a second run is
# immediate and a fragment change forces a rebuild.
# With --if-built, print the tree only if it is already built (never build,
# never wait for a build in progress): for `make lint`.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"
cache=${UNCORE_CACHE:-/var/cache/uncore_pmu}

srcver=$(dpkg-query -W -f='${Version}' "linux-source-$DEBUG_SERIES")
key=$( (cat "$here/kernel.config"; echo "$srcver") | sha256sum | cut -c1-12)
out=$cache/kernel-$key

if [ "${1:-}" = --if-built ]; then
	[ -f "$out/.done" ] && echo "$out"
	exit $?
fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9

if [ -f "$out/.done" ]; then
	echo "$out"
	exit 0
fi

src=$("$here/unpack-source.sh")

echo "build-kernel: configuring $out" >&2
rm -rf "$out"
mkdir -p "$out"
make -s -C "$src" O="$out" x86_64_defconfig >&2
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
	"$src/kernel/configs/kvm_guest.config" "$here/kernel.config" >&2
make -s -C "$src" O="$out" olddefconfig >&2

# merge_config silently drops what Kconfig refuses; check what we rely on.
for opt in KASAN PROVE_LOCKING DEBUG_ATOMIC_SLEEP DEBUG_OBJECTS DEBUG_KMEMLEAK KUNIT MODULE_UNLOAD; do
	grep -q "^CONFIG_$opt=y" "$out/.config" || { echo "build-kernel: CONFIG_$opt did not stick" >&2; exit 1; }
done
! grep -q '^CONFIG_PERF_EVENTS_INTEL_UNCORE=y' "$out/.config" || { echo "build-kernel: intel_uncore still built in" >&2; exit 1; }

echo "build-kernel: building (this takes a while the first time)" >&2
start=$(date +%s)
make -s -C "$src" O="$out" -j"$(nproc)" bzImage modules >&2
make -s -C "$src" O="$out" modules_prepare >&2
echo "build-kernel: built in $(( $(date +%s) - start )) s" >&2
touch "$out/.done"
echo "$out"
