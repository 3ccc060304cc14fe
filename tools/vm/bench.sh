#!/bin/bash
# `make bench`: build the modules against the stock Debian kernel, boot it
# under QEMU as a two-socket Xeon E5 v4 (as `make demo` does) twice, and
# print three tables. tests/vm/bdx/bench.sh: register accesses per read, per
# add/del pair and per poll tick on a few boxes, ours measured, mainline
# 6.1's counted in its source. tests/vm/bdx/bench_sample.sh: perf record's
# samples per second on each sampling PMU, and register accesses per PMI.
# tests/vm/bdx/bench_load.sh, in a third boot with 8 sockets (the stock8
# guest's shape, tools/vm/guests.tsv): load time and memory with every box
# present.
# Documentation/benchmarks.rst holds copies. The tables are also left in
# build/logs/bench.rst and bench-sample.rst, the consoles in *.log.
#
# For the first table, the poll timer fires every 33 minutes or more on
# most boxes. So that a tick can be measured rather than inferred, the
# guest runs with QEMU's -icount shift=auto,sleep=off: whenever every vCPU idles, the virtual clock
# jumps to the next timer deadline, and hours of guest time pass in seconds
# (only time: register accesses do not depend on it). -icount needs
# single-threaded TCG. run-qemu.sh has no option for either, so a stand-in
# named qemu-system-x86_64, first in PATH, adjusts its command line.
# UNCORE_BENCH_WARP=0 boots without it; the tick rows then repeat the read
# cost (the tick runs the same code per event). The second table's rates
# are per second of real time: that boot runs without -icount.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
# shellcheck source=tables.sh
. "$(dirname "$0")/tables.sh"
tools=$REPO/tools/vm

"$REPO/tools/setup-deps.sh"
v=$(stock_version)
"$tools/build-modules.sh" 6.1 "/usr/src/linux-headers-$v"
"$tools/build-helpers.sh"
"$tools/mkinitramfs.sh" "$v" "$BUILD/6.1" "$BUILD/bench.cpio.gz"
logs=$BUILD/logs
mkdir -p "$logs"

limit=${UNCORE_BENCH_TIMEOUT:-1200}

# boot [--like GUEST | --part PART] MODE NAME [CMDLINE...]: run the guest
# in MODE, as the Broadwell in its default shape, or in the part and shape
# of GUEST (tools/vm/guests.tsv), or as PART in its default shape, with
# the initramfs BENCH_INITRD (default bench.cpio.gz), console in
# $logs/NAME.log, its table in
# $logs/NAME.rst. Progress lines only; the console is in the log. A boot
# that hangs before /init (TCG on a loaded host, see check.sh) is stopped
# by run-qemu.sh's boot watchdog and retried. With the kernel's default
# mitigations (run-qemu.sh turns them off for the tests' speed): the rates
# and times here are what a user's kernel on the part would see.
boot() {
	local shape=(--part bdx) desc="bdx, 8 vCPUs in 2 sockets" mode name try rc
	local initrd=${BENCH_INITRD:-$BUILD/bench.cpio.gz}
	if [ "$1" = --like ]; then
		guest_load "$2"
		shape=("${G_SHAPE[@]}") desc="as guest $2: ${G_SHAPE[*]}"
		shift 2
	elif [ "$1" = --part ]; then
		shape=(--part "$2") desc="$2 in its default shape"
		shift 2
	fi
	mode=$1 name=$2
	shift 2
	for try in 1 2 3; do
		log "booting $v (QEMU TCG, $desc) for $mode, try $try"
		set +e
		"$tools/run-qemu.sh" --timeout "$limit" "${shape[@]}" \
			--log "$logs/$name.log" "/boot/vmlinuz-$v" "$initrd" \
			"$mode" quiet mitigations=auto "$@" | sed -u 's/\r$//' | grep --line-buffered '^bench:'
		set -e
		grep -aq 'uncore-guest:' "$logs/$name.log" && break
		cp "$logs/$name.log" "$logs/$name.boot-hang-$try.log"
	done
	tr -d '\r' <"$logs/$name.log" |
		sed -n '/^BENCH-TABLE-BEGIN$/,/^BENCH-TABLE-END$/p' | sed '1d;$d' >"$logs/$name.rst"
	rc=$(tr -d '\r' <"$logs/$name.log" | sed -n 's/^UNCORE-GUEST-END rc=//p' | tail -n1)
	if [ "${rc:-1}" -ne 0 ] || [ ! -s "$logs/$name.rst" ]; then
		die "bench failed (guest status ${rc:-unknown}); console in $logs/$name.log"
	fi
}

# startup KERNEL PART: perf's start-up with the driver's aliases
# (tests/vm/common/bench_startup.sh) in a boot of KERNEL (6.1 or 6.12:
# common.sh, kernel_version) as PART, with both perfs: the static one of
# DEBUG_SERIES (build-perf.sh) and Debian's (6.1). Its table goes to
# $logs/bench-startup-KERNEL-PART.rst.
startup() {
	local k=$1 part=$2 kv
	kv=$(kernel_version "$k") || die "no $k kernel with headers (tools/setup-deps.sh)"
	"$tools/build-modules.sh" "$k" "/usr/src/linux-headers-$kv"
	UNCORE_PERF=$("$tools/build-perf.sh") UNCORE_PERF_DEBIAN=1 \
		"$tools/mkinitramfs.sh" "$kv" "$BUILD/$k" "$BUILD/bench-startup.cpio.gz"
	v=$kv BENCH_INITRD=$BUILD/bench-startup.cpio.gz \
		boot --part "$part" startup "bench-startup-$k-$part"
}

# UNCORE_BENCH=access, sampling, load, startup or nhmex runs one of them;
# startup, every kernel series as each part whose aliases are many (the
# Xeon E5 v4, the Xeon 7500) is not part of all (four boots); nhmex,
# the Xeon 7500's access table (tests/vm/nhmex/bench.sh, in the nhmex2
# guest's shape), also runs with all.
what=${UNCORE_BENCH:-all}
if [ "$what" = startup ]; then
	for k in 6.1 6.12; do
		for p in bdx nhmex; do
			startup "$k" "$p"
			echo
			cat "$logs/bench-startup-$k-$p.rst"
		done
	done
	exit 0
fi
if [ "$what" = all ] || [ "$what" = nhmex ]; then
	boot --like nhmex2 bench bench-nhmex
	if [ "$what" = nhmex ]; then
		echo
		cat "$logs/bench-nhmex.rst"
		exit 0
	fi
fi
if [ "$what" = all ] || [ "$what" = load ]; then
	boot --like stock8 load bench-load
	if [ "$what" = load ]; then
		echo
		cat "$logs/bench-load.rst"
		exit 0
	fi
fi
# Sampling rates are per second of guest time: real time, no -icount.
[ "$what" = access ] || boot sampling bench-sample
if [ "$what" = sampling ]; then
	echo
	cat "$logs/bench-sample.rst"
	exit 0
fi

warp=()
path=$PATH
if [ "${UNCORE_BENCH_WARP:-1}" = 1 ]; then
	shim=$(mktemp -d)
	trap 'rm -rf "$shim"' EXIT
	real=$(command -v qemu-system-x86_64) || die "qemu-system-x86_64 not found"
	cat >"$shim/qemu-system-x86_64" <<EOF
#!/bin/bash
# make bench: run-qemu.sh's QEMU, with a virtual clock that skips idle time.
args=()
for a in "\$@"; do
	[ "\$a" = tcg,thread=multi ] && a=tcg,thread=single
	args+=("\$a")
done
exec "$real" "\${args[@]}" -icount shift=auto,sleep=off
EOF
	chmod +x "$shim/qemu-system-x86_64"
	path=$shim:$PATH
	warp=(uncore.warp=1)
fi
PATH=$path boot bench bench "${warp[@]}"

echo
cat "$logs/bench.rst"
if [ "$what" = all ]; then
	echo
	cat "$logs/bench-sample.rst"
	echo
	cat "$logs/bench-load.rst"
	echo
	cat "$logs/bench-nhmex.rst"
fi
