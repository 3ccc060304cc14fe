#!/bin/bash
# Host-side test of the Grafana dashboard for uncore-top --prom
# (tools/grafana/uncore-top.json), as TAP lines: it is JSON with a panel
# per quantity; every series its queries name is one uncore-top writes
# (the views' columns, named as uncore-top.rst says: uncore_, the column,
# its count unit unless the name ends in it, _total), and every series
# uncore-top writes is shown; each query, with Grafana's variables given
# values, is PromQL that promtool accepts.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ut=$here/../../tools/uncore-top
dash=$here/../../tools/grafana/uncore-top.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/host/lib/tap.sh
. "$here/lib/tap.sh"

if python3 - "$dash" >"$tmp/exprs" 2>"$tmp/err" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["panels"]:
    assert p["type"] == "timeseries" and p["targets"], p["title"]
    for t in p["targets"]:
        print(t["expr"])
PY
then
	ok "the dashboard is JSON, every panel a time series with queries ($(wc -l <"$tmp/exprs") of them)"
else
	notok "the dashboard is JSON, every panel a time series with queries: $(head -c 300 "$tmp/err")"
fi

# The series uncore-top writes: each view's columns (the rows of its
# view_<name> here-document: name, pmus, aliases, per, count unit, ...).
sed -n "/^view_[a-z0-9]*() {/,/^}/p" "$ut" |
	awk -F'\t+' '/^EOF$/ { on = 0 } on { n = $1; if (n !~ ("_" $5 "$")) n = n "_" $5; print "uncore_" n "_total" }
		/<<.EOF.$/ { on = 1 }' | sort -u >"$tmp/written"
grep -o 'uncore_[a-z0-9_]*_total' "$tmp/exprs" | sort -u >"$tmp/shown"
check "[ \$(wc -l <$tmp/written) -ge 10 ]" "uncore-top's views write $(wc -l <"$tmp/written") series names"
extra=$(comm -13 "$tmp/written" "$tmp/shown" | tr '\n' ' ')
check "[ -z '$extra' ]" "every series the dashboard queries is one uncore-top writes${extra:+ (not: $extra)}"
unshown=$(comm -23 "$tmp/written" "$tmp/shown" | tr '\n' ' ')
check "[ -z '$unshown' ]" "every series uncore-top writes has a panel${unshown:+ (not: $unshown)}"

# PromQL: as recording rules, which promtool parses.
{
	echo "groups:"
	echo "  - name: uncore_top_dashboard"
	echo "    rules:"
	i=0
	while read -r e; do
		i=$((i + 1))
		e=${e//\$__rate_interval/5m}
		e=${e//\$instance/.*}
		printf '      - record: uncore:dashboard_%d\n        expr: %s\n' "$i" "'${e//\'/\'\'}'"
	done <"$tmp/exprs"
} >"$tmp/rules.yml"
if promtool check rules "$tmp/rules.yml" >"$tmp/out" 2>&1; then
	ok "every query is PromQL promtool accepts"
else
	notok "every query is PromQL promtool accepts"
	sed 's/^/# /' "$tmp/out" | head -20
fi
tap_end
