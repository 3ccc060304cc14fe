#!/bin/sh
# timeout: 300
# PERF_SAMPLE_READ: a sample reads the count at which its period ended. One
# PMI may owe several samples (a burst past several periods); the k-th of
# them reads k periods past the previous PMI's, never the count at the
# handler plus what perf added for the samples before it. Leader sampling
# ({a,b}:S) reads the sibling as the handler found it, frozen. Both values
# come from perf report -D's dump of each sample's read group.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
CPU0=$(first_cpu 0)
DATA=/tmp/perf.data
imc="pkg=0 box=imc idx=0 event=0x04 umask=0x01"

# read_values: "lead/sib" of each sample in $DATA, in order, decimal.
read_values() {
	perf report -D -i $DATA 2>/dev/null | awk '
		function flush() { if (n) { out = out sep v[1] "/" v[2]; sep = " " } n = 0 }
		/PERF_RECORD_SAMPLE/ { flush(); insample = 1; next }
		/^\.\.\.\.\. id .*value/ && insample { n++; v[n] = $NF }
		/^$/ { flush(); insample = 0 }
		END { flush(); print out }' |
		tr ' ' '\n' | while IFS=/ read -r a b; do
			[ -n "$a" ] && printf '%d/%d ' "0x$a" "0x$b"
		done
}

if perf record -q -a -o $DATA -c 1000 \
	-e '{uncore_imc_0/event=0x04,umask=0x03,name=lead/,uncore_imc_0/event=0x04,umask=0x01,name=sib/}:S' -- \
	taskset -c "$CPU0" sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh
		sim_inject '$imc count=3500' && sim_settle 0 &&
		sim_inject '$imc count=1' && sim_settle 0 &&
		sim_inject '$imc count=2499' && sim_settle 0" >/dev/null 2>/tmp/rec.err; then
	is "$(read_values)" "1000/3500 2000/3500 3000/3500 4000/6000 5000/6000 6000/6000 " \
		"iMC leader sampling, bursts of 3500, 1, 2499 at period 1000: each sample reads its period's end"
else
	ok 1 "perf record {lead,sib}:S: $(cat /tmp/rec.err)"
fi

# The timer path (a CBo cannot interrupt) follows the same rule.
cbo=$(lowest_box cbox has_cbo 24)
idx=${cbo##*_}
c="pkg=0 box=cbox idx=$idx event=0x35 umask=0x08"
s0=$(box_stat "$cbo" 4)
if perf record -q -a -o $DATA -c 1000 \
	-e "{$cbo/event=0x35,umask=0x08,name=lead/,$cbo/event=0x35,umask=0x08,name=sib/}:S" -- \
	taskset -c "$CPU0" sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh
		sim_inject '$c count=2500' && until_true '[ \$(box_stat $cbo 4) -ge $((s0 + 2)) ]'" \
	>/dev/null 2>/tmp/rec.err; then
	is "$(read_values)" "1000/2500 2000/2500 " \
		"$cbo timer leader sampling, a burst of 2500 at period 1000: 1000 and 2000"
else
	ok 1 "perf record $cbo {lead,sib}:S: $(cat /tmp/rec.err)"
fi
unload_modules
