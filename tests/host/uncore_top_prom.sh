#!/bin/bash
# Host-side test of `tools/uncore-top --prom`, as TAP lines: with a PMU
# tree of two Broadwell packages (UNCORE_TOP_SYS) and a stand-in perf that
# prints known counts (PERF), the file holds every series' total since the
# start, in the Prometheus text format that `promtool check metrics`
# accepts (HELP and TYPE lines, counters named _total with their unit),
# one series per package and PMU; it is replaced whole at every interval.
# Needs promtool (tools/setup-deps.sh installs prometheus).
set -u
here=$(cd "$(dirname "$0")" && pwd)
ut=$here/../../tools/uncore-top
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/host/lib/tap.sh
. "$here/lib/tap.sh"

# The PMU tree: CPU 0 reads package 0, CPU 4 package 1; the aliases of
# the bdx view, each with a config of its own.
sys=$tmp/sys
dev=$sys/bus/event_source/devices
pmu() { # NAME ALIAS...
	d=$dev/$1
	mkdir -p "$d/events"
	echo 0,4 >"$d/cpumask"
	shift
	for a in "$@"; do echo "event=0x1" >"$d/events/$a"; done
}
pmu uncore_imc_0 cas_count_read cas_count_write
pmu uncore_imc_1 cas_count_read cas_count_write
pmu uncore_qpi_0 unc_q_txl_flits_g0.data unc_q_rxl_flits_g0.data
pmu uncore_qpi_1 unc_q_txl_flits_g0.data unc_q_rxl_flits_g0.data
pmu uncore_cbox_0 unc_c_llc_lookup.any
pmu uncore_ubox clockticks
for c in 0 4; do
	mkdir -p "$sys/devices/system/cpu/cpu$c/topology"
	echo $((c / 4)) >"$sys/devices/system/cpu/cpu$c/topology/physical_package_id"
done

# The stand-in perf: perf stat -I's CSV on stderr, --interval-count
# intervals of 0.1 s; every event counts 1000 on CPU 0 and 3000 on CPU 4
# in each, and the test looks at the file between the intervals.
cat >"$tmp/perf" <<'EOF'
#!/bin/bash
count=1 events=""
while [ $# -gt 0 ]; do
	case $1 in
	--interval-count) count=$2; shift ;;
	-e) events=$2; shift ;;
	esac
	shift
done
names=$(echo "$events" | grep -o 'name=[^/]*' | cut -d= -f2)
for i in $(seq 1 "$count"); do
	t=$(printf '%d.100000000' $((i - 1)))
	for nm in $names; do
		echo "$t,CPU0,1000,,$nm,100000000,100.00,," >&2
		echo "$t,CPU4,3000,,$nm,100000000,100.00,," >&2
	done
	sleep 0.3
	[ "$i" = 1 ] && cp "$PROM" "$PROM.first"
done
exit 0
EOF
chmod +x "$tmp/perf"

prom=$tmp/uncore.prom
PROM=$prom PERF=$tmp/perf UNCORE_TOP_SYS=$sys "$ut" -i 100 -n 3 --prom "$prom" >/dev/null 2>"$tmp/err"
check "[ \$? = 0 ] && [ ! -s $tmp/err ]" "uncore-top --prom runs three intervals, nothing on stderr ($(head -c 200 "$tmp/err"))"
promtool check metrics <"$prom" >"$tmp/promtool" 2>&1
check "[ \$? = 0 ]" "promtool check metrics accepts the file $(head -c 300 "$tmp/promtool")"
check "[ ! -e $prom.tmp ]" "no temporary file left beside it"

# value METRIC SOCKET PMU [FILE]
value() { awk -v m="$1{socket=\"$2\",pmu=\"$3\"}" '$1 == m { print $2 }' "${4:-$prom}"; }
# Three intervals of 1000 (package 0) and 3000 (package 1).
check "[ \"\$(value uncore_mem_read_bytes_total 0 uncore_imc_0)\" = $((3 * 1000 * 64)) ]" \
	"mem_read: 3 x 1000 CAS x 64 bytes on package 0's uncore_imc_0"
check "[ \"\$(value uncore_mem_write_bytes_total 1 uncore_imc_1)\" = $((3 * 3000 * 64)) ]" \
	"mem_write: 3 x 3000 CAS x 64 bytes on package 1's uncore_imc_1"
check "[ \"\$(value uncore_qpi_out_bytes_total 1 uncore_qpi_0)\" = $((3 * 3000 * 8)) ]" \
	"qpi_out: per link (PMU), 8 bytes a flit"
check "[ \"\$(value uncore_llc_miss_misses_total 0 uncore_cbox_0)\" = 3000 ]" \
	"llc_miss: a count, its unit in the name"
check "[ \"\$(value uncore_uclk_ticks_total 1 uncore_ubox)\" = 9000 ]" "uclk: ticks"
check "[ \"\$(grep -c '^uncore_' $prom)\" = 20 ]" \
	"20 series: 2 packages x (2 iMCs x 2 + 2 QPI links x 2 + 1 CBo + 1 UBox)"
check "[ \"\$(grep -c '^# TYPE uncore_[a-z_]*_total counter$' $prom) \$(grep -c '^# HELP uncore_' $prom)\" = '6 6' ]" \
	"a TYPE counter and a HELP line for each of the view's 6 columns"
check "grep -q '^# HELP uncore_mem_read_bytes_total mem_read: cas_count_read on uncore_imc_\*, 64 bytes each' $prom" \
	"HELP says what is counted where, and what a count is worth"
# After the first interval: the totals of one.
check "[ \"\$(value uncore_mem_read_bytes_total 0 uncore_imc_0 $prom.first)\" = 64000 ]" \
	"the file after the first interval holds that interval's total"

PERF=$tmp/perf UNCORE_TOP_SYS=$sys "$ut" -n 1 --prom "$tmp/it's.prom" >/dev/null 2>"$tmp/err"
check "[ \$? = 2 ] && grep -q 'no quote or backslash' $tmp/err" "a file name with a quote is refused"

tap_end
