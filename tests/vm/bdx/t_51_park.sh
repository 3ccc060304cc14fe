#!/bin/sh
# timeout: 300
# A package whose CPUs all go offline, and come back. Its boxes keep
# counting, but no CPU can read them: its events are parked, off, on a CPU
# that reads no box of theirs, and resume on the first CPU of the package
# to return. What the boxes count meanwhile is not the events' (the box is
# reset on return), and perf's time_running leaves that time out, so perf
# stat scales the count over it. Counted here: a CBo counting event and an
# iMC sampling event of package 1, with injections before the package
# goes, while it is gone, and after it is back; and a freeze that lands
# while it is gone.
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
r1=$(first_cpu 1)
if [ -z "$r1" ]; then
	skip "a package offline and back" "no package 1"
	unload_modules
	exit 0
fi
cbo=""
for i in $(seq 0 23); do
	has_cbo 1 "$i" && [ -d "$PMUS/uncore_cbox_$i" ] && { cbo=$i; break; }
done
cpus=$(for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}; [ "$(pkg_of_cpu "$n")" = 1 ] && echo "$n"; done | sort -n | tr '\n' ' ')

cat >/tmp/t51.sh <<END
inj() {
	sim_inject "pkg=1 box=cbox idx=$cbo event=0x35 umask=0x08 count=\$1" &&
		sim_inject "pkg=1 box=imc idx=0 event=0x04 umask=0x01 count=\$2"
}
inj 7 200 && sim_settle 1 || exit 1
pkg1() { awk '\$1 == 1 { print "cpu=" \$2, "up=" \$5 }' /sys/kernel/debug/uncore_pmu/packages; }
for c in $cpus; do echo 0 >/sys/devices/system/cpu/cpu\$c/online || exit 1; done
pkg1 >/tmp/pkg_off
inj 1000 1000 || exit 1
echo 1 >/sys/devices/system/cpu/cpu$r1/online || exit 1
pkg1 >/tmp/pkg_on
inj 42 300 && sim_settle 1 && echo ok >/tmp/done
END
rm -f /tmp/done
pstat "$out" --no-scale -a -e "uncore_cbox_$cbo/event=0x35,umask=0x08,name=cbo/" -- \
	perf record -q -a -o $DATA -c 100 -e 'uncore_imc_0/event=0x04,umask=0x03,name=imc/' -- \
	sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tmp/t51.sh" >/dev/null 2>/tmp/rec.err
for c in $cpus; do echo 1 >"/sys/devices/system/cpu/cpu$c/online"; done
grep -v "^#" "$out" | sed 's/^/# /'
is "$(cat /tmp/done 2>/dev/null)" ok "package 1 went offline and came back, every injection settled"
is "$(cat /tmp/pkg_off 2>/dev/null)" "cpu=-1 up=0" "package 1's exit ran with its last CPU"
is "$(cat /tmp/pkg_on 2>/dev/null)" "cpu=$r1 up=1" "its init ran again with CPU $r1"
is "$(val_total "$out" cbo)" 49 "the CBo event counts 7 before and 42 after, nothing while parked"
pct=$(awk -F, '$3 == "cbo" { print int($5) }' "$out")
ok "[ '$pct' -gt 0 ] && [ '$pct' -lt 100 ]" "perf saw the parked time as not running ($pct%)"
is "$(perf script -i $DATA -F event 2>/dev/null | grep -c '^ *imc:')" 5 \
	"iMC 0 samples 2 periods before and 3 after, none while parked"
is "$(tr ',' '\n' <"$PMUS/uncore_cbox_$cbo/cpumask" | tail -n1)" "$r1" "CPU $r1, back first, reads package 1"
is "$(sim_violations)" 0 "no reserved bit written"

# A filter whose last event is closed while its package has no CPU stays
# set until a CPU comes back and the box is reset (uncore_box_init()):
# nothing can write it meanwhile.
pstat "$out" -a -e "uncore_cbox_$cbo/event=0x35,umask=0x8,tid_en=1,filter_tid=0x1,name=tf/" -- \
	sh -c "for c in $cpus; do echo 0 >/sys/devices/system/cpu/cpu\$c/online || exit 1; done"
ok "grep -q '^pkg1 cbox$cbo filter0=0x00000001' $SIM/audit" "the CBo's thread filter stays set while package 1 has no CPU"
echo 1 >"/sys/devices/system/cpu/cpu$r1/online"
is "$(sim_leftovers)" 0 "CPU $r1 back: the filter is cleared with the box's reset"
for c in $cpus; do echo 1 >"/sys/devices/system/cpu/cpu$c/online"; done

# A freeze that lands while the package has no CPU (review N1): its PMI
# is dropped, and the first CPU back must end it, also when that CPU is
# the one that went last, the package's reading CPU. freeze_delay_ns holds
# the freeze of one overflow of iMC channel 0 back until package 1 is
# offline; channel 1 samples what comes after the return: 1000 events, 10
# periods. (Channel 0's period that ended while no PMI could come is
# emitted by no one: the owed periods of an event perf stops and starts
# are review N4's.)
rd=$(tr ',' '\n' <"$PMUS/uncore_imc_0/cpumask" | tail -n1)
rest=$(echo "$cpus" | tr ' ' '\n' | grep -vx "$rd" | tr '\n' ' ')
cat >/tmp/t51b.sh <<END
imc() { sim_inject "pkg=1 box=imc idx=\$1 event=0x04 umask=0x01 count=\$2"; }
g1() { sim_state | grep '^pkg1 global '; }
echo 3000000000 >$SIMPARAM/freeze_delay_ns
imc 0 150 || exit 1
for c in $rest $rd; do echo 0 >/sys/devices/system/cpu/cpu\$c/online || exit 1; done
g1 >/tmp/g_off
until_true 'g1 | grep -q " frozen=1 "'
g1 >/tmp/g_frozen
echo 1 >/sys/devices/system/cpu/cpu$rd/online || exit 1
sim_settle 1 || exit 1
echo 1000 >$SIMPARAM/freeze_delay_ns
imc 1 1000 && sim_settle 1 && echo ok >/tmp/done
END
rm -f /tmp/done
if has_imc 1 1 && [ -d "$PMUS/uncore_imc_1" ]; then
	perf record -q -a -o $DATA -c 100 -e 'uncore_imc_0/event=0x04,umask=0x03,name=imc/' \
		-e 'uncore_imc_1/event=0x04,umask=0x03,name=imc1/' -- \
		sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; . /tmp/t51b.sh" >/dev/null 2>/tmp/rec.err
	echo 1000 >"$SIMPARAM/freeze_delay_ns"
	for c in $rest; do echo 1 >"/sys/devices/system/cpu/cpu$c/online"; done
	if grep -q ' freeze_pending=1 ' /tmp/g_off 2>/dev/null; then
		ok "grep -q ' frozen=1 ' /tmp/g_frozen" "the iMC overflow's freeze landed with package 1 offline"
		is "$(cat /tmp/done 2>/dev/null)" ok \
			"CPU $rd, its last CPU, back first: the freeze ends, 1000 more events settle"
		is "$(perf script -i $DATA -F event 2>/dev/null | grep -c '^ *imc1:')" 10 \
			"iMC channel 1 samples the 10 periods after the return"
	else
		skip "a freeze that lands while package 1 is offline" "package 1 took over 3 s to go offline: $(cat /tmp/g_off)"
	fi
else
	skip "a freeze that lands while package 1 is offline" "package 1 has no iMC channel 1"
fi
is "$(sim_leftovers)" 0 "nothing left enabled, frozen or unhandled"
unload_modules
