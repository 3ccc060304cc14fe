#!/bin/bash
# Host-side: the access tables in Documentation/benchmarks.rst say what the
# guests' t_16_access checks, row by row: each row of
# tests/vm/{bdx,nhmex}/access.expected is in the document with the same
# count. The poll rows are left out: make bench measures the tick with a
# clock that skips ahead, and t_16 (without one) sees the read's cost.
# TAP lines.
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
doc=$REPO/Documentation/benchmarks.rst
n=0
for exp in "$REPO"/tests/vm/bdx/access.expected "$REPO"/tests/vm/nhmex/access.expected; do
	while IFS='|' read -r box op want; do
		case $box in '#'*|'') continue ;; esac
		case $op in poll*) continue ;; esac
		n=$((n + 1))
		got=$(awk -v b="$box" -v o="$op" '{ sub(/^ +/, ""); split($0, f, /  +/) } f[1] == b && f[2] == o { print f[3]; exit }' "$doc")
		if [ "$got" = "$want" ]; then
			echo "ok $n - benchmarks.rst: $box, $op: $want"
		else
			echo "not ok $n - benchmarks.rst: $box, $op: ${got:-no such row}, the guest's $want (${exp#"$REPO"/})"
		fi
	done <"$exp"
done
echo "1..$n"
