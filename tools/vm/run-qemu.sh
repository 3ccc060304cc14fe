#!/bin/bash
# run-qemu.sh [--tap FILE] [--log FILE] [--timeout SECS] [--boot-timeout SECS]
#             [--part NAME] [--smp SPEC | --topo SOCKETS:CORE-IDS]
#             KERNEL INITRD MODE [CMDLINE...]
#
# Boot KERNEL with INITRD under QEMU TCG on a machine that looks like the
# part NAME (parts.sh; by default bdx, a two-socket Broadwell-EP: Xeon E5
# v4, family 6, model 79), with the guest running /tests/run-guest.sh MODE. The serial console goes to stdout (and
# to --log); --tap gives the guest a second serial port for clean test
# output. Exits 124 if the guest is still running after --timeout seconds.
# --topo 2:0,1,2,19 gives 2 sockets whose vCPUs are cores 0, 1, 2 and 19
# (the APIC IDs of a 20-core die with some cores missing, as on parts with
# fewer cores enabled than the die has): the guest's core IDs are those.
# With --log, a guest that has not reached /init after --boot-timeout
# seconds is stopped early: a boot hang should not cost the full timeout.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
# shellcheck source=parts.sh
. "$(dirname "$0")/parts.sh"

tap="" logfile=/dev/null limit=900 boot_limit=360 smp="" topo="" part=bdx
while [ $# -gt 0 ]; do
	case $1 in
	--tap) tap=$2; shift 2 ;;
	--log) logfile=$2; shift 2 ;;
	--timeout) limit=$2; shift 2 ;;
	--boot-timeout) boot_limit=$2; shift 2 ;;
	--part) part=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--topo) topo=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 3 ] || die "usage: $0 [--tap F] [--log F] [--timeout S] KERNEL INITRD MODE [CMDLINE...]"
kernel=$1 initrd=$2 mode=$3
shift 3
part_load "$part"
[ -n "$smp" ] || smp=$PART_SMP
pidfile=$(mktemp)
trap 'rm -f "$pidfile"' EXIT

# /init prints "uncore-guest:" first thing; no such line in time means the
# kernel hung while booting. Not anchored at a line start: with `quiet` the
# firmware's escape codes share that line. No kernel message has the
# marker (the command line says uncore.mode=). The sleep must not hold our
# stdout open.
boot_watchdog() {
	sleep "$boot_limit" >/dev/null 2>&1
	grep -aq 'uncore-guest:' "$logfile" && return
	log "guest did not reach /init in ${boot_limit}s; stopping it"
	kill "$(cat "$pidfile")"
}

# --topo: QEMU starts the boot CPU (socket 0, core 0) and the other vCPUs
# are cold-plugged with their socket and core IDs; the -cpu features below
# apply to them too (QEMU makes them global properties of the CPU type).
cpu_devs=()
if [ -n "$topo" ]; then
	[[ $topo =~ ^[1-9][0-9]*:0(,[0-9]+)*$ ]] ||
		die "--topo $topo: want SOCKETS:0,ID,... (core 0 first)"
	sockets=${topo%%:*} ids=${topo#*:}
	ncores=$(( $(tr ',' '\n' <<<"$ids" | sort -n | tail -n1) + 1 ))
	smp=1,sockets=$sockets,cores=$ncores,threads=1,maxcpus=$((sockets * ncores))
	for ((s = 0; s < sockets; s++)); do
		for c in ${ids//,/ }; do
			[ "$s:$c" = 0:0 ] && continue
			cpu_devs+=(-device "$PART_CPU_DEV,socket-id=$s,core-id=$c,thread-id=0")
		done
	done
fi

# shellcheck disable=SC2054 # commas belong to QEMU option values
args=(
	-accel tcg,thread=multi
	-cpu "$PART_CPU"
	-smp "$smp" "${cpu_devs[@]}" -m 2G
	-nic none -nographic -no-reboot
	-kernel "$kernel" -initrd "$initrd"
	-pidfile "$pidfile"
	-append "console=ttyS0 panic=-1 uncore.mode=$mode $*"
)
if [ -n "$tap" ]; then
	: >"$tap"
	args+=(-serial mon:stdio -serial "file:$tap")
fi

# Without a terminal (CI), QEMU must not read the monitor from stdin.
[ -t 0 ] || exec </dev/null

start=$(date +%s)
watchdog=''
if [ "$logfile" != /dev/null ]; then
	boot_watchdog >/dev/null &
	watchdog=$!
fi
set +e
timeout -k 10 "$limit" qemu-system-x86_64 "${args[@]}" | tee "$logfile"
rc=${PIPESTATUS[0]}
set -e
[ -z "$watchdog" ] || kill "$watchdog" 2>/dev/null || true
log "guest ($mode, ${kernel##*/}) ran $(( $(date +%s) - start ))s, qemu status $rc"
exit "$rc"
