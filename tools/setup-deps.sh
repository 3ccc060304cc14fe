#!/bin/bash
# Install (once) every Debian package the build, lint, demo and check need.
# Idempotent and quick: dpkg-query decides, apt runs only when something is
# missing, so `make check` can call this every time.
set -euo pipefail

pkgs=(
	qemu-system-x86 linux-image-amd64 linux-headers-amd64 linux-source-6.1
	busybox-static linux-perf sparse
	build-essential bc bison flex libelf-dev libssl-dev dwarves cpio kmod
	xz-utils rsync perl gzip shellcheck
)

missing_pkgs() {
	local p status
	for p in "${pkgs[@]}"; do
		status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
		[[ $status == ii* ]] || echo "$p"
	done
}

mapfile -t missing < <(missing_pkgs)
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "setup-deps: missing ${missing[*]}; run as root (apt-get install)" >&2
	exit 1
fi
echo "setup-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
