#!/bin/bash
# Host-side tests of the event-table generator (drivers/uncore/gen_events.awk),
# as TAP lines: a table with key fields and an availability column against
# its expected C, malformed tables refused with FILE:LINE, and the Broadwell
# table generated alike by every awk the build may find.
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

for a in "${awks[@]}"; do
	# shellcheck disable=SC2086
	if $a -f "$gen" "$here/key_avail.tsv" >"$tmp/out.c" 2>"$tmp/err" &&
	   cmp -s "$tmp/out.c" "$here/key_avail.c"; then
		ok "$a: key fields and availability generate key_avail.c"
	else
		notok "$a: key fields and availability generate key_avail.c"
		diff "$here/key_avail.c" "$tmp/out.c" | sed 's/^/# /' | head -20
	fi
	# shellcheck disable=SC2086
	$a -f "$gen" "$here/../../drivers/uncore/bdx/bdx_events.tsv" >"$tmp/bdx.$n.c" 2>/dev/null
done
same=1
for f in "$tmp"/bdx.*.c; do
	cmp -s "$tmp/bdx.1.c" "$f" || same=0
done
if [ "$same" = 1 ] && [ "$(grep -c 'uncore_event_desc bdx_' "$tmp/bdx.1.c")" = 10 ]; then
	ok "every awk generates the same bdx_events.c, 10 types (${#awks[@]} awks)"
else
	notok "every awk generates the same bdx_events.c, 10 types (${#awks[@]} awks)"
fi

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
bad ten_fields 3 'nb\ta\tevent=0xe0\t-\t-\t0-3\t1\tx\trev_d\textra\n'

echo "1..$n"
[ "$bad" -eq 0 ]
