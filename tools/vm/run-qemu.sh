#!/bin/bash
# run-qemu.sh [--tap FILE] [--log FILE] [--timeout SECS] [--boot-timeout SECS]
#             [--part NAME] [--smp SPEC | --topo SOCKETS:CORE-IDS]
#             [--tcg-thread single|multi]
#             KERNEL INITRD MODE [CMDLINE...]
#
# Boot KERNEL with INITRD under QEMU TCG on a machine that looks like the
# part NAME (tools/vm/parts.tsv; by default bdx, a two-socket Broadwell-EP:
# Xeon E5 v4, family 6, model 79), with the guest running
# /tests/lib/run-guest.sh MODE for that part (uncore.part=NAME on its
# command line). The serial console goes to stdout (and to --log); --tap
# gives the guest a second serial port for clean test output. Exits 124
# if the guest is still running after --timeout seconds.
# --topo 2:0,1,2,19 gives 2 sockets whose vCPUs are cores 0, 1, 2 and 19
# (the APIC IDs of a 20-core die with some cores missing, as on parts with
# fewer cores enabled than the die has): the guest's core IDs are those.
# With --log, a guest that prints nothing on its console for --boot-timeout
# seconds (by default a tenth of --timeout, at least 360) before it reaches
# /init is stopped early: a boot hang should not cost the full timeout.
# So is a guest whose kernel keeps reporting a lockup (lockup_watchdog()),
# after the state of its vCPUs has been added to the log.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
# shellcheck source=tables.sh
. "$(dirname "$0")/tables.sh"

tap="" logfile=/dev/null limit=900 boot_limit="" smp="" topo="" part=bdx
TCG_THREAD=multi
while [ $# -gt 0 ]; do
	case $1 in
	--tap) tap=$2; shift 2 ;;
	--log) logfile=$2; shift 2 ;;
	--timeout) limit=$2; shift 2 ;;
	--boot-timeout) boot_limit=$2; shift 2 ;;
	--part) part=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--topo) topo=$2; shift 2 ;;
	--tcg-thread) TCG_THREAD=$2; shift 2 ;;
	*) break ;;
	esac
done
[[ $TCG_THREAD =~ ^(single|multi)$ ]] || die "--tcg-thread $TCG_THREAD: single or multi"
[ $# -ge 3 ] || die "usage: $0 [--tap F] [--log F] [--timeout S] KERNEL INITRD MODE [CMDLINE...]"
kernel=$1 initrd=$2 mode=$3
shift 3
# The debug kernel's guests (limit 7200 s) took up to 5 minutes to reach
# /init with kmemleak under one TCG thread beside another guest, before
# the slots' AML went (below; 2026-11-29).
[ -n "$boot_limit" ] || boot_limit=$((limit / 10 > 360 ? limit / 10 : 360))
part_load "$part"
[ -n "$smp" ] || smp=$PART_SMP
tmpdir=$(mktemp -d)
pidfile=$tmpdir/pid monitor=$tmpdir/monitor
trap 'rm -rf "$tmpdir"' EXIT

# /init prints "uncore-guest:" first thing. A kernel that hangs while
# booting (secondary CPU bring-up under TCG) stops printing; one that is
# only slow goes on: the debug kernel's boot under kmemleak and one TCG
# thread took 517 s to /init beside other guests (2026-12-03), with
# silent stretches of up to 127 s, and a fixed limit of 720 s stopped it
# and booted it again. So the boot is stopped only after boot_limit
# seconds without a byte of console output. Not anchored at a line
# start: with `quiet` the firmware's escape codes share that line. No
# kernel message has the marker (the command line says uncore.mode=).
# The sleep must not hold our stdout open.
boot_watchdog() {
	local size=-1 now quiet=0 step=10
	while ! grep -aq 'uncore-guest:' "$logfile"; do
		now=$(stat -c %s "$logfile")
		if [ "$now" != "$size" ]; then
			size=$now quiet=0
		elif [ "$quiet" -ge "$boot_limit" ]; then
			log "guest printed nothing for ${boot_limit}s before /init; stopping it"
			kill "$(cat "$pidfile")"
			return
		fi
		sleep "$step" >/dev/null 2>&1
		quiet=$((quiet + step))
	done
}

# Headlines of a CPU that stays stuck: each kind repeats while it lasts (a
# soft lockup every ~25 s, an RCU stall every ~60 s, a blocked task every
# 120 s). The reports themselves fail the run (parse-results.sh); this is
# only about not waiting for the guest's timeout once it is wedged.
LOCKUP_RE='soft lockup - CPU#|hard LOCKUP|rcu: INFO: .*detected stalls|INFO: task .* blocked for more than'
LOCKUP_REPEATS=4

# Every vCPU's local APIC (IRR, ISR: an interrupt pending or in service
# that no EOI ended blocks every vector of its priority and below, NMIs
# excepted) and registers, through the human monitor on $monitor.
dump_vcpus() {
	perl -MIO::Socket::UNIX -e '
		my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "monitor: $!\n";
		sub cmd {
			my ($c) = @_;
			print $s "$c\n";
			my $out = "";
			# The prompt after the command echo ends its output.
			while (1) {
				my $buf;
				my $rin = "";
				vec($rin, fileno($s), 1) = 1;
				last unless select($rin, undef, undef, 5);
				last unless sysread($s, $buf, 65536);
				$out .= $buf;
				last if $out =~ /\Q$c\E.*\(qemu\) $/s;
			}
			$out =~ s/\e\[[0-9;]*[A-Za-z]//g;
			$out =~ s/\r//g;
			$out =~ s/^.*?\Q$c\E\n//s;
			$out =~ s/\(qemu\) $//;
			return $out;
		}
		cmd("");
		my $cpus = cmd("info cpus");
		print "== info cpus\n$cpus";
		my @n = $cpus =~ /CPU #(\d+):/g;
		for my $n (@n) {
			cmd("cpu $n");
			print "== vCPU $n: info lapic\n", cmd("info lapic");
			print "== vCPU $n: info registers\n", cmd("info registers");
		}
		# Where each vCPU is, twice more: a stuck one does not move.
		for my $round (1, 2) {
			sleep 2;
			for my $n (@n) {
				cmd("cpu $n");
				my ($ip, $fl) = cmd("info registers") =~ /[RE]IP=(\S+).*?[RE]FL=(\S+)/s;
				print "== vCPU $n, +${\($round * 2)} s: RIP=$ip RFL=$fl\n";
			}
		}' "$monitor"
}

lockup_watchdog() {
	local n
	while sleep 10; do
		n=$(grep -acE "$LOCKUP_RE" "$logfile" || true)
		[ "$n" -ge "$LOCKUP_REPEATS" ] || continue
		log "guest reported a lockup $n times; its vCPUs' state follows, then it is stopped"
		{
			echo "uncore-host: vCPU state at the lockup (QEMU monitor)"
			dump_vcpus 2>&1 | sed 's/^/uncore-host: /'
		} >>"$logfile"
		kill "$(cat "$pidfile")"
		return
	done
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

# --tcg-thread single has one host thread run every vCPU in turn, as the
# guests that run the fuzzer need; by default each vCPU has its own
# (multi). With a thread per vCPU, QEMU 7.2 sometimes kept running the old
# translation of kernel text the guest had just live-patched (a static key
# flipped by perf_event_open(), text_poke_bp()): the vCPU hit an int3
# already gone from memory, the kprobes int3 handler found no int3 there
# and sent it back to the address, where the stale translation raised it
# again, forever, interrupts off; the other CPUs then waited for it in
# their IPIs (soft lockups, RCU stalls). The fuzzer, which flips perf's
# static keys thousands of times a minute, hit it within minutes on the
# Xeon 7500 and K8 guests; ten minutes each in one thread did not
# (Documentation/fuzzing.rst, "What it found"). The other tests flip them
# seldom and never hit it; some of them (t_48) time a loop on one vCPU
# against work on the others, which one thread would serialise.
# Without PCI hotplug in its ACPI tables (the guests plug no device; the
# simulator's PCI boxes sit on a root bus of their own): the AML of its 32
# slots took the debug kernel under one TCG thread 60 to 100 s to parse
# and evaluate with kmemleak on: debugfuzzbdx reached /init after 124 s
# without it, 170 to 295 s with it, and debugfuzzp4 (no kmemleak) after
# 43 s rather than 84 (2026-11-29, two of them at once).
# mitigations=off: the parts' CPUIDs name CPUs that Meltdown, Spectre and
# MDS affect, so the guest kernel would isolate page tables, use
# retpolines and return thunks and clear buffers on every return to user.
# Under TCG a CR3 write flushes QEMU's whole soft TLB, twice a system call
# with page-table isolation: on 2026-12-02's machine the stock guest ran
# t_20 in 22 s rather than 38 and t_85 in 186 s rather than 417 without
# them. Nothing of the driver's depends on them. The kernel takes the last
# mitigations= it is given, so a caller's command line (a guests.tsv row,
# make bench) can ask for the kernel's default with mitigations=auto.
# shellcheck disable=SC2054 # commas belong to QEMU option values
args=(
	-accel "tcg,thread=$TCG_THREAD"
	-cpu "$PART_CPU"
	-smp "$smp" "${cpu_devs[@]}" -m 2G
	-nic none -nographic -no-reboot
	-global PIIX4_PM.acpi-root-pci-hotplug=off
	-global PIIX4_PM.acpi-pci-hotplug-with-bridge-support=off
	-kernel "$kernel" -initrd "$initrd"
	-pidfile "$pidfile"
	-monitor "unix:$monitor,server=on,wait=off"
	-append "console=ttyS0 panic=-1 mitigations=off uncore.mode=$mode uncore.part=$part $*"
)
if [ -n "$tap" ]; then
	: >"$tap"
	args+=(-serial mon:stdio -serial "file:$tap")
fi

# Without a terminal (CI), QEMU must not read the monitor from stdin.
[ -t 0 ] || exec </dev/null

start=$(date +%s)
# The log is appended to: lockup_watchdog() adds to it while tee writes it.
: >"$logfile"
watchdogs=()
if [ "$logfile" != /dev/null ]; then
	boot_watchdog >/dev/null &
	watchdogs+=($!)
	lockup_watchdog >/dev/null &
	watchdogs+=($!)
fi
set +e
timeout -k 10 "$limit" qemu-system-x86_64 "${args[@]}" | tee -a "$logfile"
rc=${PIPESTATUS[0]}
set -e
[ "${#watchdogs[@]}" -eq 0 ] || kill "${watchdogs[@]}" 2>/dev/null || true
log "guest ($mode, ${kernel##*/}) ran $(( $(date +%s) - start ))s, qemu status $rc"
exit "$rc"
