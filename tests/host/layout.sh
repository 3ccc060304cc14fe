#!/bin/bash
# Host-side test of the harness's tables (tools/vm/parts.tsv,
# tools/vm/guests.tsv) against tests/vm/, as TAP lines: every row has its
# columns and values the readers take; every part's test folders exist
# and, taken together, give each test number one file (uncore.tests= and
# uncore.skip= select by number); every test a guest names or skips
# exists among its part's; no test file sits in a folder no part runs.
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tools/vm/common.sh
. "$REPO/tools/vm/common.sh"
# shellcheck source=tools/vm/tables.sh
. "$REPO/tools/vm/tables.sh"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if [ -z "$1" ]; then ok "$2"; else notok "$2: $1"; fi; }

# Rows with the wrong number of columns (a space where a tab belongs).
bad=$(awk -F'\t' '!/^#/ && NF != 5 { print $1 }' "$PARTS_TSV" | tr '\n' ' ')
check "$bad" "parts.tsv: every row has 5 columns"
bad=$(awk -F'\t' '!/^#/ && NF != 12 { print $1 }' "$GUESTS_TSV" | tr '\n' ' ')
check "$bad" "guests.tsv: every row has 12 columns"

used=" "
for p in $(part_names); do
	part_load "$p"
	bad=""
	for d in $PART_TESTS; do
		[ -d "$REPO/tests/vm/$d" ] || bad+="$d "
		used+="$d "
	done
	check "$bad" "part $p: its test folders exist ($PART_TESTS)"
	bad=$(part_numbers "$p" | uniq -d | tr '\n' ' ')
	check "$bad" "part $p: each test number names one file across its folders"
done

for d in "$REPO"/tests/vm/*/; do
	d=$(basename "$d")
	compgen -G "$REPO/tests/vm/$d/t_*.sh" >/dev/null || continue
	case $used in *" $d "*) ok "tests/vm/$d: a part runs its tests" ;;
	*) notok "tests/vm/$d: no part of parts.tsv runs its tests" ;; esac
done

# shellcheck disable=SC2119 # no filter: every guest
for g in $(guest_names); do
	guest_load "$g"
	bad=""
	table_row "$PARTS_TSV" "$G_PART" >/dev/null || bad+="part $G_PART "
	[[ $G_KERNEL =~ ^(6\.[0-9]+(-rt)?|debug)$ ]] || bad+="kernel $G_KERNEL "
	[[ $G_TCG =~ ^(single|multi)$ ]] || bad+="tcg $G_TCG "
	[[ $G_LIMIT =~ ^[1-9][0-9]*$ ]] || bad+="limit $G_LIMIT "
	[[ $G_CHECK =~ ^(yes|no)$ ]] || bad+="check $G_CHECK "
	# KUnit needs the debug kernel; dkms builds against Debian's headers.
	[[ $G_WITH:$G_KERNEL =~ ^(-:.*|kunit:debug|dkms:6\.[0-9]+(-rt)?)$ ]] || bad+="with $G_WITH "
	check "$bad" "guest $g: its values are ones the readers take"
	[ -z "$bad" ] || continue
	have=" $(part_numbers "$G_PART" | tr '\n' ' ') "
	bad=""
	for t in ${G_TESTS//,/ } ${G_SKIP//,/ }; do
		[ "$t" = all ] || [ "$t" = - ] || [[ $have == *" $t "* ]] || bad+="$t "
	done
	check "$bad" "guest $g: the tests it names or skips are its part's"
done
echo "1..$n"
