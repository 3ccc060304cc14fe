#!/bin/bash
# `make fuzz PART=bdx MINUTES=N [SEED=S]`: boot the debug test kernel
# (KASAN, lockdep, kmemleak) as PART (bdx, nhmex, p4mp, k8e: the parts a
# debugfuzz guest of tools/vm/guests.tsv fuzzes) with that guest's shape
# and module arguments, run only tests/vm/common/t_95_fuzz.sh (the uncore
# fuzzer, Documentation/fuzzing.rst) for MINUTES minutes, and print the
# fuzzer's table and the oracles' results.
# The seed is SEED, by default today's date (YYYYMMDD); the same seed and
# duration give the same operations. UNCORE_FUZZ_KERNEL=stock runs it on
# the stock Debian 12 kernel (6.1) instead (faster, fewer checks). Logs:
# build/logs/fuzz-PART.log (console) and .tap; the exit status is non-zero
# if a check failed.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
# shellcheck source=tables.sh
. "$(dirname "$0")/tables.sh"
tools=$REPO/tools/vm

part=${PART:-bdx}
minutes=${MINUTES:-5}
seed=${SEED:-$(date +%Y%m%d)}
kernel=${UNCORE_FUZZ_KERNEL:-debug}
[[ $minutes =~ ^[1-9][0-9]*$ ]] || die "MINUTES=$minutes: a whole number of minutes, at least 1"
[[ $seed =~ ^[0-9]+$ ]] || die "SEED=$seed: a number"

# As the make check guest that fuzzes PART on the debug kernel.
guest=$(guest_names kernel=debug tests=t_95 "part=$part" | head -n 1)
[ -n "$guest" ] || die "PART=$part: the fuzzer runs on $(guest_names kernel=debug tests=t_95 |
	while read -r g; do guest_load "$g"; echo "$G_PART"; done | paste -sd,)"
guest_load "$guest"

secs=$((minutes * 60))
# t_95_fuzz.sh's limit is its "# timeout: 300" times uncore.timeout_scale:
# room for the run, a stuck operation's two graces (300 s each: the
# fuzzer's, then the one after it kills its workers), loading, the audit
# and the leak scans. The guest's own limit adds the boot.
scale=$(((secs + 1200 + 299) / 300))
[ "$kernel" = stock ] || [ "$scale" -ge 10 ] || scale=10
limit=$((300 * scale + 900))

"$REPO/tools/setup-deps.sh"
"$tools/build-helpers.sh"
case $kernel in
debug)
	kdir=$("$tools/build-kernel.sh")
	"$tools/build-modules.sh" debug "$kdir"
	moddir=$BUILD/debug
	image=$kdir/arch/x86/boot/bzImage kver=$(cat "$kdir/include/config/kernel.release")
	extra=(kmemleak=on)
	# The debug kernel's guests' perf, as check.sh's (build-perf.sh).
	UNCORE_PERF=$("$tools/build-perf.sh")
	export UNCORE_PERF
	;;
stock)
	kver=$(stock_version)
	"$tools/build-modules.sh" 6.1 "/usr/src/linux-headers-$kver"
	moddir=$BUILD/6.1
	image=/boot/vmlinuz-$kver
	extra=()
	;;
*) die "UNCORE_FUZZ_KERNEL=$kernel: debug or stock" ;;
esac

name=fuzz-$part
initrd=$BUILD/$name.cpio.gz logs=$BUILD/logs
mkdir -p "$logs"
"$tools/mkinitramfs.sh" "$kver" "$moddir" "$initrd"
# A TCG guest may hang before /init on a loaded host: boot it again then.
for try in 1 2 3; do
	log "fuzzing $part for $minutes min, seed $seed, on the $kernel kernel (limit ${limit}s, try $try)"
	set +e
	"$tools/run-qemu.sh" --timeout "$limit" "${G_SHAPE[@]}" --tcg-thread "$G_TCG" --log "$logs/$name.log" \
		--tap "$logs/$name.tap" "$image" "$initrd" check loglevel=7 \
		"${extra[@]}" "uncore.timeout_scale=$scale" uncore.tests=t_95 \
		"uncore.fuzz_seconds=$secs" "uncore.fuzz_seed=$seed" "${G_MODARGS[@]}" |
		sed -u 's/\r$//' | grep --line-buffered -E "^(ok |not ok |UNCORE-GUEST-END)|$REPORT_RE"
	set -e
	grep -aq 'uncore-guest:' "$logs/$name.log" && break
done

# The fuzzer's table and what it said, from the test's output.
echo "== $part, $minutes min, seed $seed: the fuzzer's table"
tr -d '\r' <"$logs/$name.tap" | sed -n '/^# test: t_95/,/^# end:/p' |
	grep -E '^# ' | grep -vE '^# (test|end):' | sed 's/^# //'
echo "== oracles"
tr -d '\r' <"$logs/$name.tap" | grep -E '^(not )?ok ' || true
"$tools/parse-results.sh" "$name" "$logs/$name.log" "$logs/$name.tap" "$logs/$name.counts"
read -r p f _ <"$logs/$name.counts"
echo "$p passed, $f failed (logs: $logs/$name.log, $logs/$name.tap)"
[ "$f" -eq 0 ]
