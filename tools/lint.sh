#!/bin/bash
# `make lint`: checkpatch (strict) on our C sources, sparse and W=1 on the
# modules against the headers of every kernel series the driver builds for
# (Debian's 6.1 and 6.12, stock and PREEMPT_RT), what the compat probes
# find there, shellcheck on the harness. Exits non-zero on any finding, so
# it can gate a commit.
set -euo pipefail
# shellcheck source=vm/common.sh
. "$(dirname "$0")/vm/common.sh"

findings=0
finding() { echo "lint: $*" >&2; findings=$((findings + 1)); }

# Not the event tables an in-place `make` generates (drivers/uncore/*/
# *_events.c, from the .tsv files by gen_events.awk; .gitignore).
c_sources() {
	(cd "$REPO" && find drivers include tests/kunit tests/fixtures -name '*.[ch]' \
		! -path 'drivers/uncore/*/*_events.c' 2>/dev/null | sort)
}

# checkpatch.pl reads spelling.txt and const_structs.checkpatch from its own
# directory, so it runs from the unpacked Debian source (no kernel build).
run_checkpatch() {
	local src files
	mapfile -t files < <(c_sources)
	[ "${#files[@]}" -gt 0 ] || return 0
	src=$("$REPO/tools/vm/unpack-source.sh")
	(cd "$REPO" && perl "$src/scripts/checkpatch.pl" --strict --no-tree --quiet \
		--show-types -f "${files[@]}") || finding "checkpatch"
}

# A from-scratch build: W=1 warnings of unchanged files are only printed
# when they compile, and C=2 runs sparse on every file.
# lint_build NAME KDIR [--kunit]
lint_build() {
	local out
	out=$("$REPO/tools/vm/build-modules.sh" "$@" -- C=2 2>&1) || finding "build ($1 ${3:-}) failed"
	echo "$out"
	if grep -qE '(warning|error):' <<<"$out"; then finding "compiler or sparse warnings ($1 ${3:-})"; fi
}

# What drivers/uncore/core/probes/ must find in each series (a probe that
# fails to compile for another reason would pick the fallback silently):
# 6.2's context rewrite took ->filter_match, gave events ->pmu_ctx and
# pmus ->cpu_pmu_context.
declare -A SERIES_PROBES=(
	[6.1]="pmu_filter_match"
	[6.12]="cpu_pmu_context perf_event_pmu_ctx"
)

# lint_probes KDIR SERIES: `make probes` against KDIR finds what SERIES has.
lint_probes() {
	local got
	got=$(make -s -C "$REPO" probes KDIR="$1" | sed -n 's/^probes: \([^(]*\) (of .*/\1/p')
	got=$(xargs <<<"$got")
	[ "$got" = "${SERIES_PROBES[$2]}" ] ||
		finding "probes against $1: '$got', want '${SERIES_PROBES[$2]}' (Linux $2)"
}

# The modules against each series' headers (the newest installed of each:
# tools/setup-deps.sh installs them); the KUnit suites need a kernel with
# KUnit, so they are checked only if the debug kernel is already built.
run_sparse_w1() {
	local kdir series flavour v
	rm -rf "$BUILD/lint" "$BUILD"/lint-*
	for series in 6.1 6.12; do
		for flavour in amd64 rt-amd64; do
			v=$(newest_headers "$series" "$flavour") ||
				{ finding "no $series $flavour headers (tools/setup-deps.sh)"; continue; }
			lint_build "lint-$v" "/usr/src/linux-headers-$v"
			lint_probes "/usr/src/linux-headers-$v" "$series"
		done
	done
	compgen -G "$REPO/tests/kunit/*_test.c" >/dev/null || return 0
	if kdir=$("$REPO/tools/vm/build-kernel.sh" --if-built); then
		lint_build lint-debug "$kdir"
		lint_build lint-debug "$kdir" --kunit
	else
		echo "lint: debug kernel not built yet, KUnit suites not compiled" >&2
	fi
}

# The harness, the guest-side tests and tools/uncore-top (busybox sh).
run_shellcheck() {
	command -v shellcheck >/dev/null || { echo "lint: shellcheck not installed, skipped" >&2; return 0; }
	(cd "$REPO" && shellcheck -x tools/*.sh tools/vm/*.sh tests/gen/*.sh tests/host/*.sh .ci/run) || finding "shellcheck (host)"
	(cd "$REPO" && shellcheck -x -s sh tools/vm/init tools/uncore-top tests/vm/*/*.sh) ||
		finding "shellcheck (guest)"
}

"$REPO/tools/setup-deps.sh"
run_checkpatch
run_sparse_w1
run_shellcheck
if [ "$findings" -ne 0 ]; then
	echo "lint: $findings kind(s) of findings" >&2
	exit 1
fi
echo "lint: clean"
