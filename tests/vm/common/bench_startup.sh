# shellcheck shell=sh
# What the driver's events/ aliases cost perf at start-up (make bench,
# UNCORE_BENCH=startup: tools/vm/bench.sh boots each kernel series with
# this): perf reads the aliases of the PMUs it looks at when it starts, one
# file and one parse per alias, and perf 6.1 reads every PMU's.
#
# For each perf in the guest (/usr/bin/perf and, if there, Debian's as
# /usr/bin/perf-debian), the median of three timings (median_ms) of
#   perf stat -e task-clock -- true                  (no uncore event)
#   perf stat -a -e <pmu>/<alias>/ -- true           (one uncore alias)
# without the driver, with mainline's aliases only (all_aliases=0) and with
# every alias (all_aliases=1, the default), in milliseconds of guest time.
# The alias is the first of the first uncore PMU that all_aliases=0 lists,
# so it is the same alias in every column. Prints the table between
# BENCH-TABLE-BEGIN and BENCH-TABLE-END; Documentation/benchmarks.rst,
# "perf start-up", holds copies.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh

BATCH=10
PMUS=/sys/bus/event_source/devices

fail() { echo "bench: FAILED: $*" >&2; exit 1; }

# now_ms: guest uptime in milliseconds (busybox date has no %N).
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# run_ms N CMD...: N runs of CMD back to back, in milliseconds per run; a
# run that fails fails the bench.
run_ms() {
	n=$1
	shift
	i=0
	t0=$(now_ms)
	while [ $i -lt "$n" ]; do
		"$@" >/dev/null 2>/tmp/startup.err || fail "$*: $(cat /tmp/startup.err)"
		i=$((i + 1))
	done
	echo $((($(now_ms) - t0 + n / 2) / n))
}

# median_ms CMD...: the median of 3 timings of CMD, in milliseconds, after
# one run that warms the page cache. The guest's clock (/proc/uptime) has
# 10 ms steps: a CMD that takes under a second is timed BATCH runs at a
# time, its figure their mean.
median_ms() {
	b=1
	[ "$(run_ms 1 "$@")" -lt 1000 ] && b=$BATCH
	for _ in 1 2 3; do run_ms $b "$@" || exit 1; done | sort -n | sed -n 2p
}

alias_files() {
	find "$PMUS"/uncore_*/events/ -type f ! -name '*.scale' ! -name '*.unit' \
		2>/dev/null | wc -l
}

PERFS=perf
[ -x /usr/bin/perf-debian ] && PERFS="$PERFS perf-debian"

# The alias: loaded with mainline's aliases, the first file of the first
# uncore PMU's events/.
load_modules all_aliases=0 || fail "load"
EV=""
for f in "$PMUS"/uncore_*/events/*; do
	case $f in *.scale | *.unit) continue ;; esac
	[ -e "$f" ] || continue
	d=${f%/events/*}
	EV="${d##*/}/${f##*/}/"
	break
done
unload_modules
[ -n "$EV" ] || fail "no uncore alias with all_aliases=0"

echo "BENCH-TABLE-BEGIN"
echo "Kernel $(uname -r); the median of 3 timings, in ms of guest time a run;"
echo "the alias: $EV."
echo
rule() { echo "===============  ================  ===========  ============  =============="; }
rule
printf "%-15s  %-16s  %-11s  %-12s  %-14s\n" perf driver "alias files" task-clock "one alias"
rule
for mode in none 0 1; do
	case $mode in
	none) what="not loaded" ;;
	0) what="all_aliases=0" ;;
	1) what="all_aliases=1" ;;
	esac
	if [ "$mode" != none ]; then
		load_modules "all_aliases=$mode" || fail "load all_aliases=$mode"
	fi
	files=$(alias_files)
	for p in $PERFS; do
		v=$("$p" --version | awk '{ print $3 }')
		tc=$(median_ms "$p" stat -e task-clock -- true) || exit 1
		one=-
		if [ "$mode" != none ]; then
			one=$(median_ms "$p" stat -a -e "$EV" -- true) || exit 1
		fi
		printf "%-15s  %-16s  %-11s  %-12s  %-14s\n" "$p $v" "$what" "$files" "$tc" "$one"
	done
	[ "$mode" = none ] || unload_modules
done
rule
echo "BENCH-TABLE-END"
