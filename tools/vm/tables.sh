# shellcheck shell=bash
# The readers of tools/vm/parts.tsv (what a guest's CPU is) and
# tools/vm/guests.tsv (which kernel boots which part in which shape, to run
# which tests). Sourced after common.sh by run-qemu.sh, check.sh, demo.sh,
# fuzz.sh, soak.sh and bench.sh; the guest reads parts.tsv itself
# (tests/vm/lib/run-guest.sh). The tables say what each column means.

PARTS_TSV=$REPO/tools/vm/parts.tsv
GUESTS_TSV=$REPO/tools/vm/guests.tsv

# table_row FILE NAME: the row of FILE whose first column is NAME.
table_row() {
	awk -F'\t' -v n="$2" '!/^#/ && $1 == n { print; found = 1; exit }
		END { exit !found }' "$1"
}

# words VALUE: VALUE split on spaces, none for "-", into WORDS.
words() {
	WORDS=()
	[ "$1" = - ] || read -r -a WORDS <<<"$1"
}

# part_load NAME sets PART_CPU, PART_CPU_DEV, PART_SMP and PART_TESTS (the
# part's test folders, space-separated).
# shellcheck disable=SC2034 # for the script that sources this
part_load() {
	local row
	row=$(table_row "$PARTS_TSV" "$1") || die "unknown part '$1' (tools/vm/parts.tsv)"
	IFS=$'\t' read -r _ PART_CPU PART_CPU_DEV PART_SMP PART_TESTS <<<"$row"
	PART_TESTS=${PART_TESTS//,/ }
}

# part_names: every part, one a line.
part_names() { awk -F'\t' '!/^#/ { print $1 }' "$PARTS_TSV"; }

# guest_load NAME sets, from NAME's row: G_KERNEL, G_PART, G_TCG, G_TESTS,
# G_SKIP, G_WITH, G_LIMIT and G_CHECK as the columns say; G_SHAPE, the
# options that give run-qemu.sh the part and its shape; G_MODARGS and
# G_CMDLINE, the guest's command line words (arrays).
# shellcheck disable=SC2034 # for the script that sources this
guest_load() {
	local row shape modargs cmdline
	row=$(table_row "$GUESTS_TSV" "$1") || die "unknown guest '$1' (tools/vm/guests.tsv)"
	IFS=$'\t' read -r _ G_KERNEL G_PART shape G_TCG G_TESTS G_SKIP modargs cmdline G_WITH \
		G_LIMIT G_CHECK <<<"$row"
	G_SHAPE=(--part "$G_PART")
	case $shape in
	-) ;;
	smp=*) G_SHAPE+=(--smp "${shape#smp=}") ;;
	*) G_SHAPE+=(--topo "$shape") ;;
	esac
	words "$modargs"
	G_MODARGS=("${WORDS[@]}")
	words "$cmdline"
	G_CMDLINE=("${WORDS[@]}")
}

# guest_names [COLUMN=VALUE...]: the guests, one a line, in the table's
# order; with COLUMN=VALUE (guest, kernel, part, tests, check), only those
# whose column has that value.
guest_names() {
	awk -F'\t' -v sel="$*" '
		BEGIN {
			split("guest kernel part shape tcg tests skip modargs cmdline with limit check", col, " ")
			for (i in col) idx[col[i]] = i
			n = split(sel, want, " ")
		}
		!/^#/ {
			for (i = 1; i <= n; i++) {
				split(want[i], kv, "=")
				if ($idx[kv[1]] != kv[2])
					next
			}
			print $1
		}' "$GUESTS_TSV"
}

# part_numbers PART: the test numbers (t_NN) of the part's folders, one a
# line, sorted.
part_numbers() {
	local d t
	part_load "$1"
	for d in $PART_TESTS; do
		for t in "$REPO/tests/vm/$d"/t_*.sh; do
			[ -e "$t" ] && basename "$t" | cut -c1-4
		done
	done | sort
}
