#!/bin/sh
# timeout: 300
# The uncore fuzzer (tests/fuzz/, Documentation/fuzzing.rst) on the part
# under test for a bounded time, then its oracles: the fuzzer's own (no
# operation stuck, no malformed ring-buffer record or read, every CPU,
# box and parameter put back), no kernel report during the run, no event
# left in the driver, the simulator's audit (no counter enabled or with
# its overflow interrupt on, no filter or match register left set, no
# reserved-bit write, no faulting access), the modules unload, and no
# kmemleak report. Every part runs it (tools/vm/parts.tsv: common).
#
# uncore.fuzz_seconds=N sets the duration (default 20 s, 60 s on a slow
# kernel: uncore.timeout_scale above 1), uncore.fuzz_seed=N the seed
# (default the date, YYYYMMDD, so one CI run uses one seed); both are
# printed so that a failure can be replayed.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

scale=${UNCORE_TIMEOUT_SCALE:-1}
start=$(date +%s)
secs=$(sed -n 's/.*uncore\.fuzz_seconds=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
if [ -z "$secs" ]; then
	secs=20
	[ "$scale" -gt 1 ] && secs=60
fi
seed=$(sed -n 's/.*uncore\.fuzz_seed=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$seed" ] || seed=$(date +%Y%m%d)
# An operation that has not returned in this long is stuck (the fuzzer
# prints its kernel stack): the hung-task detector's 60 s, with room for
# a hotplug on a slow kernel.
grace=120
[ "$scale" -gt 1 ] && grace=300
# Kernel report headlines, as tools/vm/common.sh's REPORT_RE (soft
# lockups are "BUG: soft lockup").
REPORTS='NMI received for unknown reason|WARNING:|BUG:|KASAN:|UBSAN:|possible circular locking|INFO: task .* blocked|INFO: rcu|rcu: .*detected stalls|Oops|general protection fault|Kernel panic|Call Trace:'
LOG=/tmp/fuzz.log
CLEAN="leftovers 0 rsvd_writes 0 faults 0"

# audit_field NAME: the number after NAME on the audit's last line.
audit_field() { tail -n 1 "$SIM/audit" | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }

load_modules || exit 1
part=$(cat "$SIM/part")
diag "fuzzing $part for ${secs}s with seed $seed; replay: uncore.fuzz_seed=$seed uncore.fuzz_seconds=$secs (make fuzz PART=... SEED=$seed), or /tests/bin/uncore_fuzz --seed $seed --seconds $secs in the guest"
if ! is "$(tail -n 1 "$SIM/audit")" "$CLEAN" "$part: the simulator's audit is clean after load"; then
	head -n 20 "$SIM/audit" | sed 's/^/# /'
fi

# Leaks reported before are not this test's (a scan here would cost half
# a minute under KASAN: leaks of earlier tests not yet scanned count here).
kmemleak_on && echo clear >"$KMEMLEAK"
DRV=/sys/bus/pci/drivers/uncore_pmu
bound=""
for d in "$DRV"/*:*; do
	[ -e "$d" ] && bound="$bound ${d##*/}"
done
dmesg -c >/dev/null
/tests/bin/uncore_fuzz --seed "$seed" --seconds "$secs" --grace "$grace" --log "$LOG" >/tmp/fuzz.out 2>&1 &
fuzz=$!
# It ends by itself within the run, or within two graces of a stuck
# operation (the second after it killed its workers); later, or once it
# says it is still stuck, it is stuck in the kernel where even its exit
# cannot end it. Waiting ends a minute before this file's limit (300 s,
# scaled), to report it.
n=$((secs + 2 * grace + 60 * scale))
left=$((300 * scale - 60 - ($(date +%s) - start)))
[ "$n" -le "$left" ] || n=$left
while kill -0 "$fuzz" 2>/dev/null && [ "$n" -gt 0 ] &&
	! grep -q 'still stuck' /tmp/fuzz.out; do
	sleep 1
	n=$((n - 1))
done
if kill -0 "$fuzz" 2>/dev/null; then
	rc="still running"
else
	wait "$fuzz"
	rc=$?
fi
sed 's/^/# /' /tmp/fuzz.out
if ! is "$rc" 0 "$part: the fuzzer ran ${secs}s with no operation stuck, no malformed record or read, and put the machine back"; then
	grep -E 'MALFORMED|STUCK|cleanup' "$LOG" | head -n 20 | sed 's/^/# /'
	tail -n 40 "$LOG" | sed 's/^/# /'
fi

# A run whose opens nearly all fail exercises nothing past event_init:
# `make fuzz PART=k8e` without the K8's aliases opened 14 of 43875 in 30
# minutes. Runs that exercise the driver open 17% (K8) to 35% of them;
# 5% of the whole is far below that and far above such a run.
# shellcheck disable=SC2046 # two numbers, split on purpose
set -- $(awk '$1 == "(all" && $2 == "uncore)" { print $3, $4 }' /tmp/fuzz.out)
if [ $# -eq 2 ] && [ "$1" -gt 0 ]; then
	ok "[ $(($2 * 100)) -ge $(($1 * 5)) ]" "$part: $2 of $1 uncore opens succeeded (at least 5%: the run reaches past event_init)"
else
	ok 1 "$part: the fuzzer's table has its uncore opens (the '(all uncore)' line)"
fi

# Reports are found by the host too; here they come with the operations
# that preceded them.
dmesg >/tmp/fuzz.dmesg
if ! ok "! grep -qE '$REPORTS' /tmp/fuzz.dmesg" "$part: no kernel report (WARNING, BUG, KASAN, lockdep, RCU stall, soft lockup, hung task) during the run"; then
	grep -m 1 -A 25 -E "$REPORTS" /tmp/fuzz.dmesg | sed 's/^/# /'
	diag "the last operations (log $LOG, the kernel log marks 'uncore-fuzz: wNN #N' every 2000):"
	tail -n 40 "$LOG" | sed 's/^/# /'
fi
# Nothing more can be checked, nor unloaded, under a stuck operation.
[ "$rc" = "still running" ] && exit 1
# A fuzzer that did not end normally may have left CPUs offline or boxes
# unbound: the next tests need them.
if [ "$rc" != 0 ]; then
	for f in /sys/devices/system/cpu/cpu*/online; do
		[ "$(cat "$f")" = 1 ] || echo 1 >"$f"
	done
	for d in $bound; do
		[ -e "$DRV/$d" ] || echo "$d" >"$DRV/bind"
	done
fi

# Everything is closed: the driver holds no event.
is "$(awk '!/^#/ { s += $4 } END { print s + 0 }' /sys/kernel/debug/uncore_pmu/boxes)" 0 \
	"$part: the driver holds no event once the fuzzer closed everything"

# Overflows in flight when the last event closed settle first (in sim
# microseconds: 10 s is plenty, and a register left set never settles).
n=50
while [ "$(tail -n 1 "$SIM/audit")" != "$CLEAN" ] && [ "$n" -gt 0 ]; do
	sleep 0.2
	n=$((n - 1))
done
if ! is "$(audit_field leftovers)" 0 "$part: no counter left enabled or with its overflow interrupt on, no filter or match register left set, no overflow left unhandled"; then
	head -n 30 "$SIM/audit" | sed 's/^/# /'
fi
is "$(audit_field rsvd_writes)" 0 "$part: no write of a bit the part reserves (since load)"
is "$(audit_field faults)" 0 "$part: no register access the part would fault on (since load)"

unload_modules
ok $? "$part: the modules unload after the fuzzer"

if kmemleak_on; then
	# What leaked was allocated during the run, more than kmemleak's 5 s
	# ago; a second scan drops what only looked unreferenced once.
	echo scan >"$KMEMLEAK"
	echo scan >"$KMEMLEAK"
	if ! is "$(grep -c 'unreferenced object' "$KMEMLEAK")" 0 "$part: kmemleak finds no leak after the run"; then
		head -n 40 "$KMEMLEAK" | sed 's/^/# /'
	fi
	# run-guest.sh's final scan would repeat this one.
	[ -z "${KMEMLEAK_DONE:-}" ] || : >"$KMEMLEAK_DONE"
fi
