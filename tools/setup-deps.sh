#!/bin/bash
# Install (once) every Debian package the build, lint, demo and check need.
# Idempotent and quick: dpkg-query decides, apt runs only when something is
# missing, so `make check` can call this every time.
set -euo pipefail
# shellcheck source=vm/common.sh
. "$(dirname "$0")/vm/common.sh"

pkgs=(
	qemu-system-x86 linux-image-amd64 linux-headers-amd64 linux-source-6.1
	# The second kernel series the driver builds for and is tested on
	# (its headers pull in its images): bookworm's 6.12, stock and
	# PREEMPT_RT; its source, of which the debug kernel and the static
	# perf are built (tools/vm/common.sh, DEBUG_SERIES).
	linux-headers-6.12-amd64 linux-headers-6.12-rt-amd64 linux-source-6.12
	busybox-static linux-perf sparse
	build-essential bc bison flex libelf-dev libssl-dev dwarves cpio kmod
	xz-utils rsync perl gzip shellcheck
	# The static perf of the debug and 6.12 guests (tools/vm/build-perf.sh):
	# libelf.a, libz.a, libtraceevent.a (perf 6.12 will not build without
	# it), and python3 for perf's JSON event tables.
	zlib1g-dev libtraceevent-dev python3
	# The dkms build of uncore_pmu against the stock headers (dkms.conf),
	# and `make deb`: dh_dkms (dh-sequence-dkms) under debhelper, lintian.
	dkms dh-dkms debhelper lintian
	# `tools/uncore-top --plot`: the CSV it writes drawn as SVG or PNG,
	# on the host (the guests have no gnuplot); -nox has svg and pngcairo.
	gnuplot-nox
	# Intel PCM: pcm-memory reads the iMC through the driver in the
	# Broadwell guests (tests/vm/bdx/t_88_pcm.sh, tools/vm/mkinitramfs.sh).
	pcm
	# promtool, which checks uncore-top --prom's file on the host
	# (tests/host/uncore_top_prom.sh); the package's server is not used.
	prometheus
	# rst2html, which checks the generated event lists in Documentation/
	# (tests/gen/run.sh).
	python3-docutils
)

missing_pkgs() {
	local p status
	for p in "${pkgs[@]}"; do
		status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
		[[ $status == ii* ]] || echo "$p"
	done
}

# rt_pkgs RT-VERSION: the packages of Debian's PREEMPT_RT build of the
# stock kernel's ABI (6.1.0-N-rt-amd64 beside 6.1.0-N-amd64: the same
# source and patches, so the rt guest differs from the stock one by the
# preemption model only), or, if the archive no longer has that ABI, the
# metapackages' newest one. Installed like the stock image: its hooks only
# build an initrd no one boots and move the /vmlinuz symlinks, which
# nothing here uses (the guests are given their kernel, there is no boot
# loader to update).
rt_pkgs() {
	local v=$1
	if [ -n "$(apt-cache show "linux-image-$v" 2>/dev/null)" ]; then
		echo "linux-image-$v linux-headers-$v"
	else
		echo "linux-image-rt-amd64 linux-headers-rt-amd64"
	fi
}

install_missing() {
	mapfile -t missing < <(missing_pkgs)
	[ "${#missing[@]}" -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup-deps: missing ${missing[*]}; run as root (apt-get install)" >&2
		exit 1
	fi
	echo "setup-deps: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	[ "$updated" = 1 ] || apt-get update -q >&2
	updated=1
	apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

updated=0
install_missing
# The rt kernel follows the stock one: once that is installed, and only
# when its rt twin is not (the package lists are fresh before choosing).
v=$(stock_version 2>/dev/null) || exit 0
rt=${v%-amd64}-rt-amd64
[ -f "/usr/src/linux-headers-$rt/Makefile" ] && [ -f "/boot/vmlinuz-$rt" ] && exit 0
if [ "$(id -u)" -eq 0 ] && [ "$updated" = 0 ]; then
	apt-get update -q >&2
	updated=1
fi
read -r -a pkgs <<<"$(rt_pkgs "$rt")"
install_missing
