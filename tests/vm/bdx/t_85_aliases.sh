#!/bin/sh
# timeout: 600
# Event aliases (drivers/uncore/bdx/bdx_events.tsv): each box type has exactly
# the aliases the table gives it, with their encodings; perf and the driver
# accept every alias of every uncore PMU; and they accept every uncore event
# of perf's own broadwellx JSON, with every alias listed (all_aliases=1) and
# with the default ones (all_aliases=0), where perf's JSON names the manual's
# events. One TAP line per box type and check.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

# The MSR boxes exist in every guest; a PCI type is checked where the driver
# registered it, and reported as skipped where it did not.
REQUIRED="ubox cbox pcu sbox"
# A perf run costs seconds under TCG whatever it opens (perf reads every
# PMU's events/ first: 10 s or more with every alias listed), an event a
# few milliseconds: perf opens as many events at once as it can, up to
# this many file descriptors. perf raises its soft limit to the hard one
# (and 1000 beyond) by itself; the shell raises the hard one.
MAXFD=16000
# shellcheck disable=SC3045 # busybox sh, the guest's, has ulimit -n
ulimit -n $((MAXFD + 1000)) 2>/dev/null || MAXFD=2000
TMP=/tmp/aliases

# Every alias, whatever the guest's command line gives (check.sh).
load_modules all_aliases=1 || exit 1
rm -rf $TMP
mkdir -p $TMP

# The PMUs of type $1: uncore_<type> or uncore_<type>_<n>.
pmus_of() {
	for d in "$PMUS/uncore_$1" "$PMUS/uncore_$1"_[0-9]*; do
		[ -d "$d" ] && echo "${d##*/}"
	done
}
first_pmu() { pmus_of "$1" | head -n1; }

required() { case " $REQUIRED " in *" $1 "*) return 0 ;; esac; return 1; }

# The aliases of PMU $1, without perf's .scale/.unit companions.
aliases_of() {
	for f in "$PMUS/$1/events"/*; do
		case $f in
		*.scale|*.unit) ;;
		*) [ -e "$f" ] && echo "${f##*/}" ;;
		esac
	done
}

# Events of PMU $1 take one file descriptor per CPU of its cpumask.
fds_of() { tr ',' '\n' <"$PMUS/$1/cpumask" | wc -l; }

# The table's alias count per type, recorded in the module by the generator
# (MODULE_INFO bdx_event_counts, "ubox=5 cbox=145 ...").
COUNTS=$(modinfo -F bdx_event_counts uncore_pmu 2>/dev/null)
[ -n "$COUNTS" ] || COUNTS=$(modinfo -F bdx_event_counts "$MODDIR/uncore_pmu.ko" 2>/dev/null)
TYPES=$(echo "$COUNTS" | tr ' ' '\n' | sed -n 's/=[0-9]*$//p' | tr '\n' ' ' | sed 's/ $//')
want_count() { echo "$COUNTS" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
PRESENT=""
for t in $TYPES; do
	[ -n "$(first_pmu "$t")" ] && PRESENT="$PRESENT $t"
done

# perf opens the aliases of the first PMU of each type: the PMUs of a type
# share its table, and (c) checks that each lists the very same aliases
# (every PMU of every type took the stock guest 117 s of perf stat for
# 6217 events, and 1305 JSON events on every PMU 52 s, beside another
# guest, 2026-12-03).

# perf_batch FILE: perf stat -a on FILE's events (one per line), in -e
# arguments of at most 100000 bytes (one argument may not exceed 128 KiB);
# fails if perf rejected the command (output in $TMP/out, messages in
# $TMP/err); the events perf printed a line for go to $TMP/seen.
perf_batch() {
	awk '{ if (n && n + length($0) >= 100000) { print s; n = 0 }
		s = n ? s "," $0 : $0; n += length($0) + 1 }
	     END { if (n) print s }' "$1" >"$TMP/eargs"
	set --
	while read -r e; do
		set -- "$@" -e "$e"
	done <"$TMP/eargs"
	perf stat -a -x, -o "$TMP/out" "$@" -- true 2>"$TMP/err" &&
		! grep -q -i -e 'syntax error' -e 'error:' -e 'invalid' "$TMP/err" &&
		awk -F, 'NF > 2 { print $3 }' "$TMP/out" >>"$TMP/seen"
}

# try_events FILE: add to $TMP/refused the events of FILE perf or the driver
# refuses: an event the driver refuses reads "<not supported>"; a batch perf
# rejects as a whole (a syntax error, a fatal open error) is retried in
# smaller pieces, then one event at a time, so that each refusal is named.
try_events() {
	if perf_batch "$1"; then
		awk -F, '$1 == "<not supported>" { print $3 }' "$TMP/out" >>"$TMP/refused"
		return
	fi
	if [ "$(wc -l <"$1")" -gt 1 ]; then
		rm -f "$1".*
		awk -v n=40 -v f="$1" '{ print > (f "." int((NR - 1) / n)) }' "$1"
		for piece in "$1".*; do
			if [ "$(wc -l <"$piece")" -gt 1 ] && perf_batch "$piece"; then
				awk -F, '$1 == "<not supported>" { print $3 }' "$TMP/out" >>"$TMP/refused"
				continue
			fi
			while read -r ev; do
				echo "$ev" >"$TMP/one"
				if ! perf_batch "$TMP/one" || grep -q '<not supported>' "$TMP/out"; then
					echo "$ev" >>"$TMP/refused"
				fi
			done <"$piece"
		done
		return
	fi
	cat "$1" >>"$TMP/refused"
}

# run_events FILE: FILE has "FDS EVENT" lines; open them all, in as few perf
# runs as MAXFD allows; the refused events end up in $TMP/refused.
run_events() {
	: >"$TMP/refused"
	: >"$TMP/seen"
	rm -f "$TMP"/batch.*
	awk -v max=$MAXFD -v d="$TMP" '
		fds + $1 > max && fds > 0 { b++; fds = 0 }
		{ fds += $1; print $2 > (d "/batch." b + 0) }' "$1"
	for b in "$TMP"/batch.*; do
		[ -f "$b" ] && try_events "$b"
	done
	sort -u -o "$TMP/refused" "$TMP/refused"
}

ok "[ -n '$TYPES' ]" "uncore_pmu.ko records the table's alias counts: $COUNTS"
for t in $REQUIRED; do
	ok "echo ' $TYPES ' | grep -q ' $t '" "the table has type $t"
	ok "echo ' $PRESENT ' | grep -q ' $t '" "uncore_$t registered"
done
for t in $TYPES; do
	echo " $PRESENT " | grep -q " $t " ||
		skip "uncore_$t: aliases" "the driver registered no uncore_$t PMU"
done

# (c) every PMU of a type lists the table's aliases, the same ones.
for t in $PRESENT; do
	want=$(want_count "$t")
	first=$(first_pmu "$t")
	aliases_of "$first" >"$TMP/first"
	bad=""
	for p in $(pmus_of "$t"); do
		aliases_of "$p" >"$TMP/this"
		n=$(wc -l <"$TMP/this")
		if [ "$n" != "$want" ] || ! cmp -s "$TMP/first" "$TMP/this"; then
			bad="$bad $p:$n"
		fi
	done
	ok "[ '$want' -gt 0 ] && [ -z '$bad' ]" \
		"uncore_$t: each of its $(pmus_of "$t" | wc -l) PMUs lists the table's $want aliases${bad:+ (got$bad)}"
done

# Encodings the table gives some aliases, one of each kind (the counts above
# would not notice an alias pointing at the wrong event).
alias_is() {
	p=$(first_pmu "$1")
	[ -n "$p" ] || return 0
	is "$(cat "$PMUS/$p/events/$2" 2>/dev/null)" "$3" "$p/$2 is $3"
}
alias_is ubox clockticks "event=0xff"
alias_is ubox unc_u_event_msg.doorbell_rcvd "event=0x42,umask=0x08"
alias_is cbox unc_c_tor_inserts.opcode "event=0x35,umask=0x01"
alias_is cbox unc_c_llc_lookup.any "event=0x34,umask=0x11,filter_state=0x1"
alias_is sbox unc_s_ring_ad_used.up "event=0x1b,umask=0x03"
alias_is pcu unc_p_power_state_occupancy.cores_c6 "event=0x80,occ_sel=3"
alias_is imc cas_count_read "event=0x04,umask=0x03"
alias_is imc cas_count_read.scale "6.103515625e-5"
alias_is imc unc_m_cas_count.wr.unit "MiB"
alias_is qpi unc_q_cto_count "event=0x138"
alias_is qpi unc_q_txl_flits_g0.data.scale "7.62939453125e-6"

# (a) perf and the driver accept each alias of the first PMU of each type.
start=$(date +%s)
for t in $PRESENT; do
	p=$(first_pmu "$t")
	aliases_of "$p" | sed "s|.*|$(fds_of "$p") $p/&/|"
done >"$TMP/sysfs"
run_events "$TMP/sysfs"
for t in $PRESENT; do
	n=$(grep -c -E "^[0-9]+ uncore_$t(_[0-9]+)?/" "$TMP/sysfs")
	r=$(grep -E "^uncore_$t(_[0-9]+)?/" "$TMP/refused" | tr '\n' ' ' | sed 's/ $//')
	is "$r" "" "uncore_$t: perf stat opens all its $n PMU/alias/ events"
done
# Each event has a line of perf's output: a count or <not supported>.
missing=$(awk 'NR == FNR { seen[$1] = 1; next } !($2 in seen) { print $2 }' \
	"$TMP/seen" "$TMP/sysfs" | head -n 5 | tr '\n' ' ')
is "$missing" "" "perf stat printed a line for each of the $(wc -l <"$TMP/sysfs") PMU/alias/ events"
diag "$(wc -l <"$TMP/sysfs") PMU/alias/ events in $(($(date +%s) - start)) s, $(find "$TMP" -name 'batch.*' | wc -l) perf runs"

# (b) perf's own uncore events for this CPU (broadwellx JSON, Family 6
# Model 0x4F), as `perf list --details` prints them: the name on a line of
# its own, then the description, then "        uncore_<type>_<n>/config/ ".
# perf lists them for the PMUs that exist; each opens here on the first
# PMU of its type, as PMU/name/. Opened by its name alone, an event opens
# on every PMU of its type: the first event of each type is opened so.
# Where a JSON name is also a sysfs alias, perf uses the sysfs encoding.
diag "CPU model $(sed -n 's/^model[^a-z]*: *//p' /proc/cpuinfo | sort -u | tr '\n' ' ')"
perf list --details pmu 2>/dev/null | awk '
	/^  [^ ]/ { name = $1; next }
	/^        uncore_[a-z0-9_]+\// {
		t = $1
		sub(/\/.*/, "", t)
		sub(/_[0-9]+$/, "", t)
		sub(/^uncore_/, "", t)
		print t, name
	}' | sort -u >"$TMP/json"
for t in $PRESENT; do
	p=$(first_pmu "$t")
	awk -v t="$t" -v f="$(fds_of "$p")" -v p="$p" '$1 == t { print f, p "/" $2 "/" }' "$TMP/json"
done >"$TMP/jsonev"
# json_opens WHAT: every event of $TMP/jsonev opens, per type.
json_opens() {
	start=$(date +%s)
	run_events "$TMP/jsonev"
	for t in $PRESENT; do
		n=$(awk -v t="$t" '$1 == t' "$TMP/json" | wc -l)
		if [ "$n" = 0 ]; then
			ok 1 "uncore_$t: perf knows broadwellx JSON events for it (perf did not match the CPU?)"
			continue
		fi
		r=$(awk -v t="$t" 'NR == FNR { if ($1 == t) j[$2] = 1; next }
			{ e = $0; sub(/^uncore_[a-z0-9_]+\//, "", e); sub(/\/$/, "", e) }
			e in j' "$TMP/json" "$TMP/refused" | tr '\n' ' ' | sed 's/ $//')
		is "$r" "" "$1uncore_$t: perf stat opens all $n events of perf's broadwellx JSON for it"
	done
	missing=$(awk 'NR == FNR { seen[$1] = 1; next } !($2 in seen) { print $2 }' \
		"$TMP/seen" "$TMP/jsonev" | head -n 5 | tr '\n' ' ')
	is "$missing" "" "$1perf stat printed a line for each of the $(wc -l <"$TMP/jsonev") JSON events"
	diag "$(wc -l <"$TMP/jsonev") JSON events in $(($(date +%s) - start)) s, $(find "$TMP" -name 'batch.*' | wc -l) perf runs"
}
json_opens ""
# by_name: the first JSON event of each type, by its name alone, has a
# line of perf stat --no-merge per PMU of the type (one perf run).
by_name() {
	what=$1
	for t in $PRESENT; do
		awk -v t="$t" '$1 == t { print t, $2; exit }' "$TMP/json"
	done >"$TMP/byname"
	# shellcheck disable=SC2046 # one -e word and one name per type
	perf stat -a --no-merge -x, -o "$TMP/out" $(awk '{ print "-e", $2 }' "$TMP/byname") -- true 2>"$TMP/err" ||
		diag "perf stat: $(head -n 3 "$TMP/err")"
	while read -r t e; do
		lines=$(awk -F, -v e="$e" '{ split($3, n, " ") } n[1] == e && $1 ~ /^[0-9]+$/' "$TMP/out" | wc -l)
		is "$lines" "$(pmus_of "$t" | wc -l)" "$what$e, by name: a count on each uncore_$t PMU"
	done <"$TMP/byname"
}
by_name ""
unload_modules

# (d) The default (all_aliases=0) lists mainline's aliases, clockticks and
# the table's %listed ones; perf's JSON names the others, in its own
# encodings, which the driver accepts: every JSON event opens by name.
load_modules all_aliases=0 || exit 1
p=$(first_pmu cbox)
is "$(aliases_of "$p" | tr '\n' ' ')" "clockticks unc_c_llc_lookup.any " \
	"all_aliases=0: $p lists clockticks and uncore-top's unc_c_llc_lookup.any"
p=$(first_pmu pcu)
is "$(aliases_of "$p" | tr '\n' ' ')" \
	"clockticks unc_p_power_state_occupancy.cores_c0 unc_p_power_state_occupancy.cores_c3 unc_p_power_state_occupancy.cores_c6 " \
	"all_aliases=0: $p lists clockticks and the three events whose JSON encoding is refused"
json_opens "all_aliases=0: "
by_name "all_aliases=0: "
unload_modules
