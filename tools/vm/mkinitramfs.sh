#!/bin/bash
# mkinitramfs.sh KVER MODDIR OUT [KUNITDIR]
#
# Build a gzip'd newc initramfs for kernel release KVER: static busybox,
# Debian's perf with its libraries (or the static perf UNCORE_PERF names),
# the modules from MODDIR (and the KUnit modules from KUNITDIR), the guest
# tests under /tests and tools/vm/init.
# With UNCORE_DKMS_KO set (build-dkms.sh's module), that uncore_pmu.ko is
# installed where `dkms install` puts it, updates/dkms, which modprobe
# prefers to the build tree's copy in extra/.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

[ $# -ge 3 ] || die "usage: $0 KVER MODDIR OUT [KUNITDIR]"
kver=$1 moddir=$2 out=$3 kunitdir=${4:-}

root=$(mktemp -d "${out}.root.XXXXXX")
trap 'rm -rf "$root"' EXIT

add_busybox() {
	local path
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin}
	cp /bin/busybox "$root/bin/busybox"
	# What `busybox --install -s` would do, done here so /init can use it.
	for path in $(/bin/busybox --list-full); do
		[ -e "$root/$path" ] || ln -s /bin/busybox "$root/$path"
	done
}

# Debian's perf is dynamically linked: copy it with every library ldd
# names, at the same paths, plus the dynamic loader. With UNCORE_PERF set
# (the debug kernel's guests: build-perf.sh), that static perf instead.
# UNCORE_PERF_DEBIAN=1 adds Debian's beside the static one, as
# /usr/bin/perf-debian (make bench's start-up table runs both).
add_perf() {
	local lib
	if [ -n "${UNCORE_PERF:-}" ]; then
		install -D -m 0755 "$UNCORE_PERF" "$root/usr/bin/perf"
		[ "${UNCORE_PERF_DEBIAN:-0}" = 1 ] || return 0
		install -m 0755 /usr/bin/perf "$root/usr/bin/perf-debian"
	else
		cp --parents /usr/bin/perf "$root"
	fi
	for lib in $(ldd /usr/bin/perf | grep -o '/[^ ]*'); do
		cp -L --parents "$lib" "$root"
	done
	[ -e "$root/lib64/ld-linux-x86-64.so.2" ] || cp -L --parents /lib64/ld-linux-x86-64.so.2 "$root"
}

# Intel PCM's pcm-memory (Debian's pcm), as perf: with every library ldd
# names. PCM opens /dev/cpu/N/msr whatever it counts through,
# so the kernel's msr.ko goes where modprobe finds it (decompressed:
# busybox's modprobe may not read .ko.xz). Nothing if pcm is not installed.
add_pcm() {
	local lib msr dir=lib/modules/$kver/kernel/arch/x86/kernel
	[ -x /usr/sbin/pcm-memory ] || return 0
	cp --parents /usr/sbin/pcm-memory "$root"
	for lib in $(ldd /usr/sbin/pcm-memory | grep -o '/[^ ]*'); do
		cp -L --parents "$lib" "$root"
	done
	for msr in "/$dir/msr.ko" "/$dir/msr.ko.xz"; do
		[ -e "$msr" ] || continue
		mkdir -p "$root/$dir"
		xz -dcf "$msr" >"$root/$dir/msr.ko"
	done
}

# Modules go where modprobe looks, with a modules.dep, so a KUnit suite can
# pull in uncore_pmu.ko; /modules and /kunit are the short names tests use.
add_modules() {
	local lm=lib/modules/$kver
	mkdir -p "$root/$lm/extra" "$root/$lm/kunit"
	cp "$moddir"/*.ko "$root/$lm/extra/"
	if [ -n "$kunitdir" ] && compgen -G "$kunitdir/*.ko" >/dev/null; then
		cp "$kunitdir"/*.ko "$root/$lm/kunit/"
	fi
	# Test fixtures (tests/fixtures/) beside the modules under test.
	if compgen -G "$moddir/tests/fixtures/*.ko" >/dev/null; then
		cp "$moddir"/tests/fixtures/*.ko "$root/$lm/extra/"
	fi
	if [ -n "${UNCORE_DKMS_KO:-}" ]; then
		mkdir -p "$root/$lm/updates/dkms"
		cp "$UNCORE_DKMS_KO" "$root/$lm/updates/dkms/"
	fi
	# depmod warns about these when absent; nothing is built in for us.
	touch "$root/$lm"/modules.{order,builtin,builtin.modinfo}
	depmod -b "$root" "$kver"
	ln -s "$lm/extra" "$root/modules"
	ln -s "$lm/kunit" "$root/kunit"
}

# The guest's tests, as tests/vm/ lays them out (lib/, bin/, a folder per
# family, common/), with the static programs build-helpers.sh built in
# bin/ and the parts table run-guest.sh reads.
add_tests() {
	mkdir -p "$root/tests"
	cp -r "$REPO"/tests/vm/. "$root/tests/"
	rm -f "$root"/tests/bin/*.[ch]
	if compgen -G "$BUILD/helpers/*" >/dev/null; then
		cp "$BUILD"/helpers/* "$root/tests/bin/"
	fi
	cp "$REPO/tools/vm/parts.tsv" "$root/tests/parts.tsv"
	chmod -R +x "$root"/tests
	# The tool t_87 drives, where a user would find it.
	install -m 0755 "$REPO/tools/uncore-top" "$root/usr/bin/uncore-top"
}

add_init() {
	mkdir -p "$root"/{proc,sys,dev,tmp,root,etc}
	cp "$REPO/tools/vm/init" "$root/init"
	chmod +x "$root/init"
	# The kernel opens /dev/console for init before devtmpfs is mounted.
	mknod -m 600 "$root/dev/console" c 5 1
}

add_busybox
add_perf
add_pcm
add_modules
add_tests
add_init
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --quiet) | gzip -4 >"$out.tmp"
mv "$out.tmp" "$out"
log "initramfs $out ($(du -h "$out" | cut -f1))"
