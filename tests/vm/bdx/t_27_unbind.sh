#!/bin/sh
# PCI boxes come and go with their devices: unbinding a box with live
# events stops them with the counts they had; the pmu goes with its last
# box when no event is open on it, and comes back with a box.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
out=/tmp/stat.csv
DRV=/sys/bus/pci/drivers/uncore_pmu
imc0_init
# The packages with the channel, and the cpumask listing all of them but $1.
imc0_pkgs=""
for p in $PKGS; do has_imc "$p" 0 && imc0_pkgs="$imc0_pkgs $p"; done
mask_without() {
	m=""
	for p in $imc0_pkgs; do
		[ "$p" = "$1" ] || m="$m${m:+,}$(first_cpu "$p")"
	done
	echo "$m"
}
unbind_all() { for p in $imc0_pkgs; do imc0_dev "$p" > $DRV/unbind; done; }
bind_all() { for p in $imc0_pkgs; do imc0_dev "$p" > $DRV/bind; done; }
all_devs=""
for p in $imc0_pkgs; do all_devs="$all_devs $(imc0_dev "$p")"; done
d0=$(imc0_dev 0) d1=$(imc0_dev 1)
c0=$(first_cpu 0) c1=$(first_cpu 1)
ok "has_imc 0 0 && has_imc 1 0 && [ -e $DRV/$d0 ] && [ -e $DRV/$d1 ]" "iMC0 channel 0 of packages 0 and 1 bound ($d0, $d1)"

# Unbind package 0's box while its event counts; package 1 goes on. The
# event is taken off the hardware: unscaled, it shows the count it had,
# and that it stopped running part way (stopped_part_way(): how depends
# on the kernel; perf stat would scale the count by its share). The run
# goes on a second after the unbind: perf enables the CPUs' events one
# after the other, tens of ms apart under TCG, more than the rest of the
# run would take.
pstat "$out" --no-scale -a -A -e 'uncore_imc_0/event=0x04,umask=0x03,name=cas/' -- sh -c ". /tests/lib/lib.sh
	sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=100'
	sim_inject 'pkg=1 box=imc idx=0 event=0x04 umask=0x01 count=30'
	echo $d0 > $DRV/unbind
	sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=50'
	sim_inject 'pkg=1 box=imc idx=0 event=0x04 umask=0x01 count=40'
	sleep 1"
is "$(val_cpu "$out" "$c0" cas)" 100 "unbound box: its event kept the count it had"
is "$(val_cpu "$out" "$c1" cas)" 70 "the other package's box counted on"
ok "stopped_part_way $out $c0 cas $c1 cas" \
	"the unbound box's event stopped running ($(run_share "$out" "$c0" cas): ns, %), the other ran all along ($(run_share "$out" "$c1" cas))"
is "$(cat $PMUS/uncore_imc_0/cpumask)" "$(mask_without 0)" "uncore_imc_0 no longer lists package 0"

echo "$d0" > $DRV/bind
is "$(cat $PMUS/uncore_imc_0/cpumask)" "$(mask_without none)" "rebound: uncore_imc_0 on every package with the channel again"
pstat "$out" -a -A -e 'uncore_imc_0/event=0x04,umask=0x03,name=cas/' -- sh -c ". /tests/lib/lib.sh
	sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=11'
	sim_inject 'pkg=1 box=imc idx=0 event=0x04 umask=0x01 count=22'"
is "$(val_cpu "$out" "$c0" cas) $(val_cpu "$out" "$c1" cas)" "11 22" "rebound box counts exactly"

# Six events on package 0's box of four counters take turns: at the unbind
# two are off the box. With the six still open on the pmu, the box bound
# again counts for an event opened on it all of its time: perf passes the
# six over (6.1), or the driver has them disabled, the two that were off
# the box when add() first refuses them (6.12; perf_compat.h). Left
# enabled there, they would end each scheduling pass, and the new event
# would get the counter only in turns with them.
six=""
for i in 1 2 3 4 5 6; do six="$six${six:+,}uncore_imc_0/event=0x04,umask=0x03,name=old$i/"; done
pstat /tmp/six.csv -a -A -e "$six" -- sh -c "sleep 0.5
	echo $d0 > $DRV/unbind
	sleep 0.5
	echo $d0 > $DRV/bind
	perf stat -x, -o /tmp/new.csv -a -A --no-scale -e uncore_imc_0/event=0x04,umask=0x03,name=new/ -- \
		sh -c '. /tests/lib/lib.sh; sim_inject \"pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=9\"; sleep 0.5'"
is "$(val_cpu /tmp/new.csv "$c0" new)" 9 "rebound under six events that took turns: an event opened on it counts exactly"
ok "[ '$(run_share /tmp/new.csv "$c0" new | cut -d' ' -f2)' = 100 ]" \
	"and runs all of its time ($(run_share /tmp/new.csv "$c0" new): ns, %)"

# No event open: the pmu goes with its last box and returns with a box.
unbind_all
ok "[ ! -e $PMUS/uncore_imc_0 ]" "uncore_imc_0 unregistered with its last box"
echo "$d1" > $DRV/bind
is "$(cat $PMUS/uncore_imc_0/cpumask 2>/dev/null)" "$c1" "uncore_imc_0 registered again with one box"
echo "$d1" > $DRV/unbind
bind_all

# The last box leaves under a live event: counts stay, nothing crashes; the
# pmu stays registered, boxless, until a box returns (perf 6.1 cannot drop
# a pmu under open events), and refuses new events meanwhile.
pstat "$out" --no-scale -a -A -e 'uncore_imc_0/event=0x04,umask=0x03,name=cas/' -- sh -c ". /tests/lib/lib.sh
	sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=5'
	sim_inject 'pkg=1 box=imc idx=0 event=0x04 umask=0x01 count=6'
	for d in $all_devs; do echo \$d > $DRV/unbind; done
	sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=50'"
is "$(val_cpu "$out" "$c0" cas) $(val_cpu "$out" "$c1" cas)" "5 6" "every box removed under live events: counts kept"
ok "refused uncore_imc_0/event=0x04,umask=0x03/" "a boxless pmu refuses new events"
bind_all
pstat "$out" -a -A -e 'uncore_imc_0/event=0x04,umask=0x03,name=cas/' -- sh -c ". /tests/lib/lib.sh
	sim_inject 'pkg=0 box=imc idx=0 event=0x04 umask=0x01 count=7'"
is "$(val_cpu "$out" "$c0" cas)" 7 "boxes back: the same pmu counts again"

# Removing the device (not just unbinding) takes the same path.
echo 1 > "/sys/bus/pci/devices/$d1/remove"
is "$(cat $PMUS/uncore_imc_0/cpumask)" "$(mask_without 1)" "removed device: its box is gone"
is "$(sim_violations)" 0 "no reserved-bit writes"

unload_modules
