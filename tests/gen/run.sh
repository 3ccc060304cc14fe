#!/bin/bash
# Host-side tests of the event-table generator (drivers/uncore/gen_events.awk),
# as TAP lines: a table with key fields and an availability column, and one
# of uneven box types (an event field above bit 0, an "each" key, a type
# without an event field, a fixed counter with a zero unit mask), against
# their expected C; malformed tables refused with FILE:LINE; and the
# Broadwell and Xeon 7500 tables generated alike by every awk the build may
# find.
set -u
here=$(cd "$(dirname "$0")" && pwd)
gen=$here/../../drivers/uncore/gen_events.awk
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); bad=$((bad + 1)); echo "not ok $n - $1"; }

awks=()
for a in mawk gawk "busybox awk" original-awk; do
	# shellcheck disable=SC2086 # "busybox awk" is two words
	command -v ${a%% *} >/dev/null && $a 'BEGIN { exit 0 }' 2>/dev/null && awks+=("$a")
done

root=$(cd "$here/../.." && pwd)

# generates AWK MODE TSV WANT WHAT: the generator, run by AWK from the top
# of the tree (the event list names its table by that path), makes WANT
# from TSV (both from the top; MODE c or rst), into $tmp/gen.out.
generates() {
	local mode=()

	[ "$2" = rst ] && mode=(-v mode=rst)
	# shellcheck disable=SC2086 # "busybox awk" is two words
	if (cd "$root" && $1 "${mode[@]}" -f "$gen" "$3") >"$tmp/gen.out" 2>"$tmp/err" &&
	   cmp -s "$tmp/gen.out" "$root/$4"; then
		ok "$5"
	else
		notok "$5"
		diff "$root/$4" "$tmp/gen.out" | sed 's/^/# /' | head -20
		sed 's/^/# /' "$tmp/err"
	fi
}

# fixture NAME WHAT: NAME.tsv generates NAME.c with awk $a.
fixture() {
	generates "$a" c "tests/gen/$1.tsv" "tests/gen/$1.c" "$a: $2 generate $1.c"
}

tables="bdx nhmex"
for a in "${awks[@]}"; do
	fixture key_avail "key fields and availability"
	fixture asym "an event field in bits 1-5, an each key, a type without an event field, a fixed counter with umask=0"
	for t in $tables; do
		# shellcheck disable=SC2086
		$a -f "$gen" "$here/../../drivers/uncore/$t/${t}_events.tsv" \
			>"$tmp/$t.$n.c" 2>/dev/null || : >"$tmp/$t.$n.c"
	done
done
# same TABLE TYPES: every awk generated the same non-empty C, TYPES types.
same() {
	local t=$1 types=$2 f s=1 first=

	for f in "$tmp/$t".*.c; do
		[ -n "$first" ] || first=$f
		cmp -s "$first" "$f" || s=0
	done
	if [ "$s" = 1 ] && [ "$(grep -c "uncore_event_desc ${t}_" "$first")" = "$types" ]; then
		ok "every awk generates the same ${t}_events.c, $types types (${#awks[@]} awks)"
	else
		notok "every awk generates the same ${t}_events.c, $types types (${#awks[@]} awks)"
	fi
}
same bdx 10
same nhmex 7

# bad NAME LINE TABLE-BODY: the generator refuses the table, naming LINE.
bad() {
	local name=$1 line=$2
	printf '%%prefix\tx\n%%type\tnb\t4\t0-7\tevent,umask\n%b' "$3" >"$tmp/$name.tsv"
	if awk -f "$gen" "$tmp/$name.tsv" >"$tmp/$name.c" 2>"$tmp/$name.err"; then
		notok "refused: $name (it generated C)"
	elif [ -s "$tmp/$name.c" ]; then
		notok "refused: $name (but printed C)"
	elif [ "$(wc -l <"$tmp/$name.err")" = 1 ] &&
	     grep -q "/$name.tsv:$line: " "$tmp/$name.err"; then
		msg=$(cat "$tmp/$name.err")
		ok "refused: $name (${msg#"$tmp"/})"
	else
		notok "refused: $name, at line $line"
		sed 's/^/# /' "$tmp/$name.err"
	fi
}

bad disagree_without_key 4 \
	'nb\ta\tevent=0xf6,umask=0x1\t-\t-\t0\t1\tx\nnb\tb\tevent=0xf6,umask=0x2\t-\t-\t1\t1\tx\n'
bad avail_disagree_without_key 4 \
	'nb\ta\tevent=0xec,umask=0x1\t-\t-\t0-3\t1\tx\trev_d\nnb\tb\tevent=0xec,umask=0x2\t-\t-\t0-3\t1\tx\n'
bad key_rows_disagree 5 \
	'%key\tnb\tumask\t8-15\nnb\ta\tevent=0xf6,umask=0x1\t-\t-\t0\t1\tx\nnb\tb\tevent=0xf6,umask=0x01\t-\t-\t1\t1\tx\n'
bad bad_avail_token 3 'nb\ta\tevent=0xe5\t-\t-\t0-3\t1\tx\tRev-D\n'
bad key_unknown_field 3 '%key\tnb\tthresh\t24-31\n'
bad key_overlaps_event 3 '%key\tnb\tumask\t4-11\n'
bad key_value_too_wide 4 '%key\tnb\tumask\t8-11\nnb\ta\tevent=0xe0,umask=0x10\t-\t-\t0-3\t1\tx\n'
bad eleven_fields 3 'nb\ta\tevent=0xe0\t-\t-\t0-3\t1\tx\trev_d\tdesc\textra\n'
bad desc_not_ascii 3 'nb\ta\tevent=0xe0\t-\t-\t0-3\t1\tx\t-\tPage \xc2\xb5hit\n'
bad desc_empty 3 'nb\ta\tevent=0xe0\t-\t-\t0-3\t1\tx\t-\t - \n'
bad event5_too_wide 4 \
	'%type\tbb\t4\t1-5\tevent,counter\nbb\ta\tevent=0x20\t-\t-\t0\t1\tx\n'
bad each_key_not_set 5 \
	'%type\tbb\t4\t1-5\tevent,counter\n%key\tbb\tcounter\t6-7\teach\nbb\ta\tevent=0x1\t-\t-\t0\t1\tx\n'
bad key_bad_flag 3 '%key\tnb\tumask\t8-15\tsometimes\n'
bad event_field_without_bits 3 '%type\tmb\t6\t-\tevent,inc_sel\n'
bad no_event_no_key 5 \
	'%type\tmb\t6\t-\tinc_sel,fvc\n%key\tmb\tinc_sel\t9-13\nmb\ta\tfvc=0x1\t-\t-\t0-5\t0\tx\n'
bad fixed_nonzero_umask 3 'nb\tclk\tevent=0xff,umask=0x1\t-\t-\tfixed\t1\tx\n'
bad listed_no_such_alias 3 '%listed\tnb\tb\nnb\ta\tevent=0xe0\t-\t-\t0-3\t1\tx\n'
bad listed_unknown_type 3 '%listed\tmb\ta\n'

# The event lists in Documentation/ (mode=rst): the fixture's list by every
# awk; each family's list as committed, so that a table changed without
# `make event-docs` fails here; a list that lacks what it must say refused.
for a in "${awks[@]}"; do
	generates "$a" rst tests/gen/desc.tsv tests/gen/desc.rst \
		"$a: a title, %about and %cond, listed rows, markup and wrapping generate desc.rst"
done
for tsv in "$root"/drivers/uncore/*/*_events.tsv; do
	t=${tsv##*/}
	t=${t%_events.tsv}
	doc=Documentation/events-$t.rst
	generates awk rst "drivers/uncore/$t/${t}_events.tsv" "$doc" \
		"$doc is what ${t}_events.tsv generates (make event-docs)"
	if rst2html --strict "$tmp/gen.out" >/dev/null 2>"$tmp/err"; then
		ok "$doc is valid reStructuredText (docutils' rst2html --strict)"
	else
		notok "$doc is valid reStructuredText (docutils' rst2html --strict; Debian's python3-docutils)"
		sed 's/^/# /' "$tmp/err" | head -10
	fi
done

# bad_rst NAME WHAT TABLE-BODY: mode=rst refuses the table with WHAT.
bad_rst() {
	printf '%%prefix\tx\n%%type\tnb\t4\t0-7\tevent,umask\n%b' "$3" >"$tmp/$1.tsv"
	if awk -v mode=rst -f "$gen" "$tmp/$1.tsv" >"$tmp/$1.rst" 2>"$tmp/$1.err"; then
		notok "event list refused: $1 (it was generated)"
	elif [ ! -s "$tmp/$1.rst" ] && grep -q "$2" "$tmp/$1.err"; then
		ok "event list refused: $1 ($2)"
	else
		notok "event list refused: $1, with '$2'"
		sed 's/^/# /' "$tmp/$1.err"
	fi
}
bad_rst no_title "no %title line" 'nb\ta\tevent=0xe0\t-\t-\t0-3\t1\tx\t-\tA\n'
bad_rst no_desc "alias nb/a without a desc" '%title\tT\nnb\ta\tevent=0xe0\t-\t-\t0-3\t1\tx\n'
bad_rst no_cond "no %cond line for 'rev_d'" '%title\tT\nnb\ta\tevent=0xe0\t-\t-\t0-3\t1\tx\trev_d\tA\n'
bad_rst about_unknown_type "malformed %about" '%title\tT\n%about\tmb\tM\n'

echo "1..$n"
[ "$bad" -eq 0 ]
