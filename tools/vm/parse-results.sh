#!/bin/bash
# parse-results.sh NAME CONSOLE_LOG TAP_LOG COUNTS_FILE
#
# Turn one guest run into results: TAP from our test scripts (TAP_LOG, the
# guest's second serial port), KTAP from KUnit and kernel problem reports
# (CONSOLE_LOG, the full serial console). Prints what failed and a summary
# for the kernel; writes "PASSED FAILED SKIPPED" to COUNTS_FILE.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

[ $# -eq 4 ] || die "usage: $0 NAME CONSOLE_LOG TAP_LOG COUNTS_FILE"
name=$1 console=$2 tap=$3 counts=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$console" "$tap"

# Console lines without CRs and without the printk timestamp; anything a
# userspace write left on the line before a kernel message is dropped too.
clean_console() {
	tr -d '\r' <"$console" | sed -E 's/^[^[]*\[ *[0-9]+\.[0-9]+\] //'
}

# TAP from run-guest.sh: `ok - d`, `ok - d # SKIP why`, `not ok - d`, with
# `# ...` diagnostics after a failure; plus the end marker from /init.
parse_tap() {
	tr -d '\r' <"$tap" | awk -v cf="$tmp/tap" '
		/^ok - .*# SKIP/ { s++; infail = 0; next }
		/^ok - /         { p++; infail = 0; next }
		/^not ok - /     { f++; infail = 1; print "  FAIL " substr($0, 10); next }
		/^# (test|end): / { infail = 0; next }
		/^# / && infail  { print "       " $0; next }
		/^UNCORE-GUEST-END rc=/ { done = 1; rc = substr($0, 22) + 0 }
		END {
			if (!done) { f++; print "  FAIL guest never finished (timeout, panic or hang): see the console log" }
			else if (rc) { f++; print "  FAIL run-guest.sh exited with status " rc }
			print p + 0, f + 0, s + 0 > cf
		}'
}

# KTAP from KUnit modules, only between run-guest.sh's markers around a
# module load. A result is a test case if nothing deeper was reported under
# it: suite summaries and parameterised-test summaries are not counted.
parse_ktap() {
	clean_console | awk -v cf="$tmp/ktap" '
		/^uncore-test: begin / { inkunit = ($3 !~ /\.sh$/); mod = $3; next }
		/^uncore-test: end /   { inkunit = 0; next }
		!inkunit { next }
		match($0, /^ *(not )?ok [0-9]+ /) {
			d = match($0, /[^ ]/) - 1
			leaf = !deeper[d]; deeper[d] = 0
			for (k = 0; k < d; k++) deeper[k] = 1
			if (!leaf) next
			line = substr($0, d + 1)
			if (line ~ /# SKIP/) s++
			else if (line ~ /^ok/) p++
			else { f++; print "  FAIL kunit " mod ": " line }
		}
		END { print p + 0, f + 0, s + 0 > cf }'
}

# Kernel problem reports anywhere in the console log. Each headline is one
# failure, printed with the lines after it. Reports between expect-report
# markers (lib.sh) and headlines matching tools/vm/known-reports are not.
# REPORT_RE is in common.sh.
parse_reports() {
	local known
	known=$(grep -vE '^(#|$)' "$REPO/tools/vm/known-reports" 2>/dev/null | paste -sd'|' || true)
	clean_console | awk -v re="$REPORT_RE" -v known="${known:-^$}" -v cf="$tmp/reports" '
		/^uncore-test: / {
			# A test that stops inside its expect-report window
			# leaves it at its end.
			if ($2 == "begin") { where = $3; expected = 0 }
			else if ($2 == "end") { where = ""; expected = 0 }
			else if ($2 == "expect-report") expected = ($3 == "begin")
			ctx = 0; next
		}
		$0 ~ re {
			# A call trace soon after a headline belongs to that report.
			trace = ($0 ~ /Call Trace:/ && last && NR - last < 200)
			if (!trace) {
				last = NR; ctx = 0
				if (expected || (known != "^$" && $0 ~ known)) next
				n++; ctx = 12
				print "  FAIL kernel report" (where ? " during " where : "") ": " $0
				next
			}
		}
		ctx > 0 { print "       | " $0; ctx-- }
		END { print 0, n + 0, 0 > cf }'
}

echo "== $name"
parse_tap
parse_ktap
parse_reports
read -r tp tf ts <"$tmp/tap"
read -r kp kf ks <"$tmp/ktap"
read -r _ rf _ <"$tmp/reports"
echo "   tests: $tp passed, $tf failed, $ts skipped; kunit: $kp passed, $kf failed, $ks skipped; kernel reports: $rf"
echo "$((tp + kp)) $((tf + kf + rf)) $((ts + ks))" >"$counts"
