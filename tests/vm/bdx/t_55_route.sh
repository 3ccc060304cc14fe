#!/bin/sh
# timeout: 300
# A reading CPU the PMI cannot reach. pmi_core_sel has a bit for cores 0-17
# only; the test guests give every package a core 19. When that is all a
# package has left online, its sampling events on boxes that interrupt are
# sampled by the box's timer, without ov_en: the same samples, and no
# overflow freezes the package with no PMI to unfreeze it (which would stop
# every counter of the package for good). A CPU the PMI reaches coming
# back online takes the reading over again, and the PMIs with it.
#
# Package 1: x86 does not take CPU 0 offline.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
DATA=/tmp/perf.data
out=/tmp/stat.csv
set_online() { echo "$2" >"/sys/devices/system/cpu/cpu$1/online"; }
core_id() { cat "/sys/devices/system/cpu/cpu$1/topology/core_id"; }
sim1() { sim_state | sed -n "s/^pkg1 stats .* $1=\([0-9]*\).*/\1/p"; }
# reader PMU: the CPU of PMU's cpumask that is in package 1.
reader() {
	tr ',' '\n' <"$PMUS/$1/cpumask" |
		awk -F- '{ for (c = $1; c <= (NF > 1 ? $2 : $1); c++) print c }' |
		while read -r c; do [ "$(pkg_of_cpu "$c")" = 1 ] && echo "$c"; done
}

# Helpers the recordings' workloads use too.
cat >/tmp/t55.sh <<'END'
# pkg1_samples PMU COL, pkg1_pmi COL: package 1's line of the driver's
# debugfs "samples" and "pmi" (see box_stat and pmi_stat).
pkg1_samples() { awk -v p="$1" -v c="$2" '$1 == p && $2 == 1 { print $c }' /sys/kernel/debug/uncore_pmu/samples; }
pkg1_pmi() { awk -v c="$1" '$1 == "1" { print $c }' /sys/kernel/debug/uncore_pmu/pmi; }
# ov_en (bit 20) of package 1's iMC0 counter 0 control, as the part has it.
ov_en() {
	_c=$(sim_state | sed -n 's/^pkg1 imc0 ctr0 ctl=\(0x[0-9a-f]*\).*/\1/p')
	echo $(((_c >> 20) & 1))
}
# due N: wait until package 1's iMC0 has emitted N samples since $s0.
due() { until_true "[ \$(pkg1_samples uncore_imc_0 4) -ge $((s0 + $1)) ]"; }
imc="pkg=1 box=imc idx=0 event=0x04 umask=0x01"
ha="pkg=1 box=ha idx=1 event=0x01 umask=0x04"
END
# shellcheck source=/dev/null
. /tmp/t55.sh

pmi_cores 1
far=$FAR near=$NEAR
if [ -z "$far" ] || [ -z "$near" ]; then
	skip "PMI routing to a core beyond pmi_core_sel" "package 1 has no core beyond 17 (CPUs $near)"
	unload_modules
	exit 0
fi
hi=${far%% *}
r1=$(first_cpu 1)
ok "[ $(core_id "$r1") -lt 18 ]" "package 1 reads from CPU $r1, core $(core_id "$r1"), which the PMI reaches"

# samples CPU: samples of "imc" on CPU in $DATA.
samples() {
	perf script -i $DATA -F event,cpu 2>/dev/null |
		awk -v c="$(printf '[%03d]' "$1")" '$2 == "imc:" && $1 == c { n++ } END { print n + 0 }'
}
# record SCRIPT: perf record of package 1's iMC0 at period 1000, HA1
# counted by perf stat around it, SCRIPT (shell, with the helpers of
# /tmp/t55.sh) as the workload, which injects into iMC0 and HA1 and waits
# after each injection until the driver has taken the samples it owes.
record() {
	s0=$(pkg1_samples uncore_imc_0 4)
	perf stat -x, -o $out -a -A -e 'uncore_ha_1/event=0x01,umask=0x0c,name=cnt/' -- \
		perf record -q -a -o $DATA -c 1000 -e 'uncore_imc_0/event=0x04,umask=0x03,name=imc/' -- \
		sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tmp/t55.sh; s0=$s0; $1" \
		>/dev/null 2>/tmp/rec.err || { diag "perf record: $(cat /tmp/rec.err)"; return 1; }
}

# All of package 1 but core 19 offline: the reading moves there.
for c in $near; do set_online "$c" 0; done
is "$(reader uncore_imc_0)" "$hi" "package 1 reads from CPU $hi (core $(core_id "$hi")) with CPUs $near offline"
is "$(pkg1_samples uncore_imc_0 3)" timer "iMC0 of package 1 samples by timer there"
nmi0=$(pkg1_pmi 3) frz0=$(sim1 freezes)
if record "sim_inject \"\$imc count=3500\" && sim_inject \"\$imc count=1\" && sim_inject \"\$imc count=2499\" &&
		sim_inject \"\$ha count=11\" && due 6 && ov_en >/tmp/ov_en"; then
	is "$(samples "$hi")" 6 "6000 events at period 1000: 6 timer samples on CPU $hi"
	is "$(cat /tmp/ov_en)" 0 "the sampling counter has no ov_en"
	is "$(val_cpu $out "$hi" cnt)" 11 "HA1 counts exactly beside it"
	is "$(pkg1_pmi 3) $(sim1 freezes)" "$nmi0 $frz0" "no PMI and no freeze in package 1"
fi

# Back: CPU $r1 takes the reading over, and the PMIs.
for c in $near; do set_online "$c" 1; done
is "$(reader uncore_imc_0)" "$r1" "CPU $r1, which the PMI reaches, reads package 1 again"
is "$(pkg1_samples uncore_imc_0 3)" pmi "iMC0 of package 1 samples by PMI again"

# Both ways in one recording: 3500 events by PMI on CPU $r1; the reading
# goes to core 19 and 2500 more come, 3 samples by timer there with the 500
# left over; back on $r1, 1000 more by PMI. HA1 counts throughout.
nmi0=$(pkg1_pmi 3)
offline="" online=""
for c in $near; do
	offline="$offline echo 0 >/sys/devices/system/cpu/cpu$c/online;"
	online="$online echo 1 >/sys/devices/system/cpu/cpu$c/online;"
done
if record "sim_inject \"\$imc count=3500\" && due 3 && sim_settle 1 && ov_en >/tmp/ov_en && sim_inject \"\$ha count=5\" &&
		$offline sim_inject \"\$imc count=2500\" && due 6 && sim_inject \"\$ha count=6\" && ov_en >>/tmp/ov_en &&
		$online sim_inject \"\$imc count=1000\" && due 7 && sim_settle 1 && sim_inject \"\$ha count=7\""; then
	is "$(samples "$r1") $(samples "$hi")" "4 3" "3 + 1 samples by PMI on CPU $r1, 3 by timer on CPU $hi"
	is "$(tr '\n' ' ' </tmp/ov_en)" "1 0 " "ov_en on the PMI path only"
	is $(($(pkg1_pmi 3) - nmi0)) 2 "2 PMIs: the burst of 3500 and the 1000"
	# perf stat -A files the count under the CPU it opened the event on.
	is "$(val_cpu $out "$r1" cnt)" 18 "HA1 counts exactly across both moves (5 + 6 + 7)"
fi

is "$(sim_violations)" 0 "no reserved bit written"
unload_modules
