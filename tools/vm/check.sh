#!/bin/bash
# `make check`: build everything, boot the debug test kernel (KUnit +
# integration tests) and the stock Debian kernel (integration tests) under
# QEMU, and end with one line "N passed, M failed". A step that cannot run
# (a build error, a guest that never finishes) counts as a failure, so the
# summary line is always printed and the exit status is non-zero on failure.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
# shellcheck source=tables.sh
. "$(dirname "$0")/tables.sh"
tools=$REPO/tools/vm

# The guests, their kernels, parts, shapes, tests and limits are the rows
# of tools/vm/guests.tsv (read by tables.sh), which says why each runs
# what it runs. Which to boot: UNCORE_KERNELS=stock (names of rows; by
# default those whose check column says yes).
KERNELS=${UNCORE_KERNELS:-$(guest_names check=yes | tr '\n' ' ')}
# The guests that run the fuzzer alone (tests t_95: the debugfuzz rows)
# run it for FUZZ_SECONDS: 2 to 3 minutes each with the boot, 4 to 6 with
# kmemleak and its leak scans. UNCORE_FUZZ_SEED=N sets the seed (default:
# the guest's date). Documentation/fuzzing.rst.
FUZZ_SECONDS=${UNCORE_FUZZ_SECONDS:-30}
FUZZ_ARGS=("uncore.fuzz_seconds=$FUZZ_SECONDS")
[ -z "${UNCORE_FUZZ_SEED:-}" ] || FUZZ_ARGS+=("uncore.fuzz_seed=$UNCORE_FUZZ_SEED")
# `UNCORE_TESTS=t_35,t_90 make check` runs, in each guest, those of its
# tests (KUnit still runs in full), and boots no guest that has none of
# them; for iterating on one test.
ONLY=${UNCORE_TESTS:-}

passed=0 failed=0 skipped=0
fail_step() { echo "  FAIL $*"; failed=$((failed + 1)); }

# Guests run in two lanes at once (main()); UNCORE_JOBS=1 runs one at a time.
JOBS=${UNCORE_JOBS:-2}
LANE_TAG=""

# Only our markers, TAP lines and report headlines, as the guest runs;
# tagged with the guest's name ($1) when two guests run at once.
progress() {
	local tag=""
	[ -z "$LANE_TAG" ] || tag="$1| "
	sed -u 's/\r$//' | grep --line-buffered -E \
		"^(uncore-guest:|# test:|# end:|# kunit:|ok |not ok |UNCORE-GUEST-END)|^\[[ 0-9.]+\] +(not )?ok [0-9]+ |$REPORT_RE" |
		sed -u "s/^/$tag/" || true
}

# guest NAME KERNEL KVER MODDIR KUNITDIR [CMDLINE...]: boot guest NAME
# (guest_load NAME done) with its part, shape, TCG threads and limit
# (KUNITDIR may be "").
guest() {
	local name=$1 kernel=$2 kver=$3 moddir=$4 kunitdir=$5 limit=$G_LIMIT rc
	shift 5
	local initrd=$BUILD/$name.cpio.gz logs=$BUILD/logs
	mkdir -p "$logs"
	"$tools/mkinitramfs.sh" "$kver" "$moddir" "$initrd" "$kunitdir" || { fail_step "$name: initramfs"; return; }
	# A TCG guest can hang in early boot (secondary CPU bring-up) when the
	# host is loaded: before /init, so before any code of ours has run. Such
	# a boot is retried; a guest that reached /init is never run again.
	# It is stopped once its console has been silent for 150 s: no boot of
	# Debian's kernels was silent for more than 3 s (every guest of a make
	# check, 2026-12-03), and a hung k8f boot cost that run the 360 s of
	# run-qemu.sh's default. The debug kernel keeps the default (up to
	# 127 s of silence seen, under kmemleak and one TCG thread).
	local try boot=()
	[ "$G_KERNEL" = debug ] || boot=(--boot-timeout 150)
	for try in 1 2 3; do
		log "booting $name ($kver), limit ${limit}s, try $try"
		set +e
		"$tools/run-qemu.sh" --timeout "$limit" "${boot[@]}" "${G_SHAPE[@]}" --tcg-thread "$G_TCG" \
			--log "$logs/$name.log" --tap "$logs/$name.tap" "$kernel" "$initrd" check \
			"$@" | progress "$name"
		rc=${PIPESTATUS[0]}
		set -e
		grep -q '^uncore-guest:' "$logs/$name.log" && break
		cp "$logs/$name.log" "$logs/$name.boot-hang-$try.log"
	done
	[ "$rc" -eq 124 ] && echo "  guest $name killed after ${limit}s"
	"$tools/parse-results.sh" "$name" "$logs/$name.log" "$logs/$name.tap" "$logs/$name.counts"
	local p f s
	read -r p f s <"$logs/$name.counts"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

# build_once NAME KDIR [--kunit]: build-modules.sh, once per `make check`
# for each NAME (and KUnit step), however many guests use the build. The
# two lanes may ask for the same build at once: the second waits for the
# first, whose make would otherwise share build/NAME with its own, and
# then finds it done. A failed build is tried again by the next guest.
build_once() {
	local mark=$BUILD/logs/built-$1${3:+-kunit}
	(
		flock 8
		[ -e "$mark" ] && exit 0
		"$tools/build-modules.sh" "$@" && : >"$mark"
	) 8>"$BUILD/logs/build-$1.lock"
}

# debug_build NAME: for guest NAME, the debug kernel's build tree in KDIR
# and its modules built.
debug_build() {
	KDIR=$("$tools/build-kernel.sh") || { fail_step "$1: kernel build"; return 1; }
	build_once debug "$KDIR" || { fail_step "$1: module build"; return 1; }
}

# guest_perf NAME: for guest NAME (guest_load done), the perf it runs in
# GPERF: "" for Debian's own (linux-perf), which the stock guests of its
# series run, as their users do; otherwise the static perf build-perf.sh
# builds from linux-source-DEBUG_SERIES: the debug guests' (Debian's perf
# costs seconds per run there in loading its libraries) and that of a
# series Debian 12 ships no perf of (6.12). A perf that does not build is
# a failure, but the guest still runs, with Debian's.
guest_perf() {
	local series debian
	series=$(kernel_series "$G_KERNEL")
	debian=$(dpkg-query -W -f='${Version}' linux-perf)
	GPERF=""
	if [ "$G_KERNEL" != debug ] && [[ $debian == "$series".* ]]; then
		return 0
	fi
	if [ "$series" != "$DEBUG_SERIES" ]; then
		fail_step "$1: no perf of $series (Debian's is $debian; build-perf.sh builds $DEBUG_SERIES's)"
		return 0
	fi
	GPERF=$("$tools/build-perf.sh") || { fail_step "$1: perf build"; GPERF=""; }
}

# guest_tests: what the loaded guest runs under UNCORE_TESTS: "all", or
# the numbers of its tests column (or of its part's folders) that
# UNCORE_TESTS names, comma-separated; nothing when none is left.
guest_tests() {
	local t have out=""
	if [ -z "$ONLY" ]; then
		echo "$G_TESTS"
		return
	fi
	if [ "$G_TESTS" = all ]; then
		have=" $(part_numbers "$G_PART" | tr '\n' ' ') "
	else
		have=" ${G_TESTS//,/ } "
	fi
	for t in ${ONLY//,/ }; do
		[[ $have == *" $t "* ]] && out+=${out:+,}$t
	done
	echo "$out"
}

# run_kernel NAME: boot guest NAME of guests.tsv on its kernel, with the
# modules built against it. A guest whose with column says dkms also gets
# uncore_pmu.ko as dkms builds it against its kernel's headers
# (build-dkms.sh), which t_12 loads with modprobe; kunit, the KUnit
# suites. A KUnit suite that does not build is a failure, but the
# integration tests still run.
run_kernel() {
	local name=$1 tests v image kver moddir kunit="" ko="" args
	guest_load "$name"
	tests=$(guest_tests)
	if [ -z "$tests" ]; then
		log "$name: none of UNCORE_TESTS=$ONLY is among its tests; not booted"
		return
	fi
	args=(loglevel=7 "${G_MODARGS[@]}" "${G_CMDLINE[@]}")
	[ "$tests" = all ] || args+=("uncore.tests=$tests")
	[ "$G_SKIP" = - ] || args+=("uncore.skip=$G_SKIP")
	[ "$G_TESTS" != t_95 ] || args+=("${FUZZ_ARGS[@]}")
	if [ "$G_KERNEL" = debug ]; then
		debug_build "$name" || return
		image=$KDIR/arch/x86/boot/bzImage moddir=$BUILD/debug
		kver=$(cat "$KDIR/include/config/kernel.release")
	else
		v=$(kernel_version "$G_KERNEL") ||
			{ fail_step "$name: no $G_KERNEL kernel with headers (tools/setup-deps.sh)"; return; }
		build_once "$G_KERNEL" "/usr/src/linux-headers-$v" || { fail_step "$name: module build"; return; }
		image=/boot/vmlinuz-$v kver=$v moddir=$BUILD/$G_KERNEL
	fi
	guest_perf "$name"
	case $G_WITH in
	dkms) ko=$("$tools/build-dkms.sh" "$v") || fail_step "$name: dkms build" ;;
	kunit)
		kunit=$BUILD/debug/tests/kunit
		build_once debug "$KDIR" --kunit || { fail_step "$name: KUnit build"; kunit=""; }
		;;
	esac
	UNCORE_PERF=$GPERF UNCORE_DKMS_KO=$ko guest "$name" "$image" "$kver" "$moddir" "$kunit" "${args[@]}"
}

# Host-side tests: the event-table generator's (tests/gen/run.sh) and
# tests/host/*.sh (uncore-top --plot, which the guests cannot run: they
# have no gnuplot). TAP lines, counted as the guests' are.
host_tests() {
	local t out p f
	for t in "$REPO/tests/gen/run.sh" "$REPO"/tests/host/*.sh; do
		out=$("$t" 2>&1) || true
		p=$(grep -c '^ok ' <<<"$out" || true)
		f=$(grep -c '^not ok ' <<<"$out" || true)
		grep '^not ok\|^#' <<<"$out" | sed 's/^/  /' || true
		echo "== host: ${t#"$REPO"/}: $p passed, $f failed"
		[ "$p" -gt 0 ] || fail_step "host: ${t#"$REPO"/} did not run"
		passed=$((passed + p)) failed=$((failed + f))
	done
}

# The guests still to run, one a line, shared by the lanes.
QUEUE=$BUILD/logs/queue
# next_guest: take the first guest off the queue and print it; nothing once
# the queue is empty.
next_guest() {
	local k
	{
		flock 9
		k=$(head -n 1 "$QUEUE")
		sed -i 1d "$QUEUE"
	} 9>"$QUEUE.lock"
	echo "$k"
}

# lane NAME: run guests from the queue, one after the other, until it is
# empty, and leave their totals in $BUILD/logs/lane-NAME.counts. Each lane
# is a subshell: the counters it adds to are its own.
lane() {
	local name=$1 k
	passed=0 failed=0 skipped=0
	while k=$(next_guest) && [ -n "$k" ]; do run_kernel "$k"; done
	echo "$passed $failed $skipped" >"$BUILD/logs/lane-$name.counts"
}

main() {
	local start=$SECONDS
	"$REPO/tools/setup-deps.sh"
	"$tools/build-helpers.sh" || fail_step "test helpers build"
	host_tests
	mkdir -p "$BUILD/logs"
	rm -f "$BUILD"/logs/lane-*.counts "$BUILD"/logs/built-*
	# A guest keeps about one host CPU busy (QEMU's vCPU threads mostly
	# wait in HLT: the tests sleep while the simulator counts), so on two
	# cores two lanes take guests from one queue, each the next one as it
	# finishes the last. The queue is guests.tsv's order, longest guest
	# first, so that the lanes end together, but for the first debug
	# kernel guest, which goes first: its lane builds the debug kernel
	# (12.5 minutes with an empty cache) while the other runs the stock
	# guest (19), so the kernel is there for the fuzzers after it (a lane
	# that asked for it earlier would wait for the build).
	# UNCORE_JOBS=1 runs them one at a time, as for timing a guest.
	local first=() rest=() k l p f s lanes=1
	for k in $KERNELS; do
		guest_load "$k"
		if [ "$G_KERNEL" = debug ] && [ ${#first[@]} -eq 0 ]; then
			first+=("$k")
		else
			rest+=("$k")
		fi
	done
	printf '%s\n' "${first[@]}" "${rest[@]}" | grep . >"$QUEUE" || true
	if [ "$JOBS" -gt 1 ] && [ "$(wc -l <"$QUEUE")" -gt 1 ]; then
		lanes=2 LANE_TAG=1
		lane 1 &
		lane 2 &
		wait
	else
		(lane all)
	fi
	for l in "$BUILD"/logs/lane-*.counts; do
		[ -e "$l" ] || continue
		read -r p f s <"$l"
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
		lanes=$((lanes - 1))
	done
	# A lane that died before writing its totals (set -e) is a failure.
	[ "$lanes" -eq 0 ] || fail_step "$lanes lane(s) of guests did not finish"
	log "check took $((SECONDS - start))s; logs in $BUILD/logs"
	[ "$skipped" -eq 0 ] || echo "($skipped skipped)"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

main "$@"
