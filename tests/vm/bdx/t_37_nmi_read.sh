#!/bin/sh
# An event read from NMI context (review pmi-protocol N8): a BPF program of
# a hardware sampling event reads perf events through
# perf_event_read_local(), which calls the pmu's ->read() when the event is
# on the NMI's CPU. tests/fixtures/nmi_reader.ko does so at every NMI on
# the reading CPU of package 0's iMC 0, and the simulator raises an NMI in
# the middle of a config access of that box, where the part holds the
# kernel's pci_config_lock: a config access from the NMI would wait for
# itself there. The simulator answers it busy instead (nmi_busy), and the
# driver would report a failed read. The driver touches no register from
# NMI context: the NMI's read returns the count of the event's last read,
# and the count stays exact.
# timeout: 300
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
FAULT=$SIM/fault
R=/sys/module/nmi_reader/parameters
cpu=$(cut -d, -f1 "$PMUS/uncore_imc_0/cpumask")
busy() { sim_state | sed -n 's/^pkg0 stats .* nmi_busy=\([0-9]*\).*/\1/p'; }
imc0="pkg=0 box=imc idx=0 event=0x04 umask=0x03"

echo "uncore-test: t_37 mark" >/dev/kmsg
insmod "$MODDIR/nmi_reader.ko" type="$(cat "$PMUS/uncore_imc_0/type")" config=0x0304 cpu="$cpu" ||
	{ echo "not ok - nmi_reader.ko loaded"; unload_modules; exit 1; }
sim_inject "$imc0 count=1000"
is "$(cat $R/count)" 1000 "the fixture's event counts 1000 of 1000"
b0=$(busy)
# The box's next config access, from a perf read on the reading CPU,
# raises the NMI inside it.
echo "nmi pkg=0 box=imc idx=0" >$FAULT
sim_inject "$imc0 count=500"
got=$(cat $R/count)
is "$(sed -n 's/.* hits=\([0-9]*\)$/\1/p' $FAULT)" 1 "an NMI came inside a config access of iMC 0"
echo clear >$FAULT
ok "[ $(cat $R/reads) -ge 1 ] && [ $(cat $R/failed) = 0 ]" \
	"the NMI read the event ($(cat $R/reads) reads, $(cat $R/failed) refused)"
is "$(cat $R/last)" 1000 "the NMI's read returned the count of the last read"
is "$(($(busy) - b0))" 0 "no config access from NMI context (nmi_busy)"
is "$got" 1500 "the event counts 1500 of 1500 across the NMI"
is "$(dmesg | sed -n '/t_37 mark$/,$p' | grep -c 'uncore_imc_0, package 0: config read')" 0 \
	"no failed config read reported"
rmmod nmi_reader

# The PMI handler's own reads (review pmi-protocol N15): an NMI that
# interrupts the reading CPU inside an MSR access of the simulator finds
# it busy, which on the part cannot happen (an MSR read never waits).
# The rule raises it inside the GLOBAL_STATUS read that routing the PMI
# makes when the sampling event starts, so the handler's status read gets
# -EBUSY. That is no fault of the UBox: no report, and its counts (and
# the pass's own tell-tale of a failed write) stay as they were. The
# event then samples as it would have.
DATA=/tmp/perf.data
echo "uncore-test: t_37 mark2" >/dev/kmsg
b0=$(busy)
echo "nmi pkg=0 msr=0x701 locked" >$FAULT
if perf record -q -a -o $DATA -c 1000 -e 'uncore_imc_0/event=0x04,umask=0x03,name=imc/' -- \
	taskset -c "$cpu" sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh
		sim_inject '$imc0 count=1000' && sim_settle 0" >/dev/null 2>/tmp/rec.err; then
	is "$(perf script -i $DATA -F event 2>/dev/null | grep -c 'imc:')" 1 \
		"an NMI inside the routing's status read: 1000 events at period 1000, one sample"
else
	ok false "perf record with an NMI inside the routing's status read: $(cat /tmp/rec.err)"
fi
is "$(sed -n 's/.* hits=\([0-9]*\)$/\1/p' $FAULT)" 1 "an NMI came inside the read of GLOBAL_STATUS"
echo clear >$FAULT
ok "[ $(($(busy) - b0)) -ge 1 ]" "the handler's status read found the simulator busy ($(($(busy) - b0)) times)"
is "$(dmesg | sed -n '/t_37 mark2$/,$p' | grep -c 'uncore_ubox, package 0: read of MSR')" 0 \
	"no failed MSR read reported"
unload_modules
