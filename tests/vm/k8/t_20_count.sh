#!/bin/sh
# timeout: 600
# Each node's northbridge events count exactly what the simulator was made
# to see, on the node's reading CPU, once per node: DRAM, crossbar (system
# request interface, probes) and HyperTransport events, with threshold,
# invert and edge. Raw core events of the same code count the node once
# per core, which is what uncore_nb is for. A core event (cycles) counts
# beside them on the stand-in core PMU; northbridge events of two cores of
# a node never share a counter index; a halted reading core misses what
# the node does meanwhile (004:40-42), as the BKDG warns.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=k8_lib.sh
. /tests/k8/k8_lib.sh

load_modules || exit 1
k8_topo
rev=$(k8_ext_model)
out=/tmp/stat.csv

# NAME EVENT-TERMS INJECTION (without pkg= and count=): one per line.
# Aliases with a .scale are given by their encoding: perf would scale.
LIST="dh dram_accesses.page_hit event=0xe0 umask=0x1
dc event=0xe0,umask=0x6 event=0xe0 umask=0x4
tr memory_controller_turnarounds.read_to_write event=0xe3 umask=0x2
sc sized_commands.posted_write_dword event=0xeb umask=0x8
ph event=0xec,umask=0x8 event=0xec umask=0x8
ht event=0xf8,umask=0x2 event=0xf8 umask=0x2
po memory_controller_page_table_overflows event=0xe1"
if [ "$rev" -ge 2 ]; then
	LIST="$LIST
io cpu_io_requests.local_cpu_to_mem event=0xe9 umask=0x98
cb event=0xea,umask=0x10 event=0xea umask=0x10"
fi

# Node p, event number k: 1000 (p + 1) + k, distinct everywhere. Four
# events at a time, so that none is multiplexed (perf would scale it).
check_group() { # LIST-LINES
	events="" cmds="" k=0
	while read -r name terms inj; do
		k=$((k + 1))
		events="$events${events:+,}uncore_nb/$terms,name=$name/"
		for p in $PKGS; do
			cmds="$cmds inject 'pkg=$p $inj count=$((1000 * (p + 1) + k))';"
		done
	done <<EOT
$1
EOT
	pstat "$out" -a -A -e "$events" -- sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; $cmds"
	k=0
	while read -r name terms inj; do
		k=$((k + 1))
		for p in $PKGS; do
			c=$(first_cpu "$p")
			is "$(val_cpu "$out" "$c" "$name")" $((1000 * (p + 1) + k)) \
				"node $p: uncore_nb/$terms/ counts $((1000 * (p + 1) + k)) on CPU $c"
		done
	done <<EOT
$1
EOT
}
grp="" n=0
while read -r line; do
	grp="$grp${grp:+
}$line" n=$((n + 1))
	[ $n -lt 4 ] && continue
	check_group "$grp" </dev/null
	grp="" n=0
done <<EOT
$LIST
EOT
[ -z "$grp" ] || check_group "$grp" </dev/null
is "$(k8_sum dropped)" 0 "no injected event went uncounted" || sim_state | grep stats

# The scale: 16384 DRAM accesses of 64 bytes are 1 MiB; HT dwords are 4
# bytes, 262144 of them 1 MiB.
pstat "$out" -a -e "uncore_nb/dram_accesses.all,name=mib/,uncore_nb/ht_link1_tx.data,name=htm/" -- sh -c \
	". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; inject 'pkg=0 event=0xe0 umask=0x4 count=16384' 'pkg=1 event=0xf7 umask=0x2 count=262144'"
is "$(val_total "$out" mib):$(awk -F, '$3 == "mib" { print $2 }' "$out")" "1.00:MiB" "dram_accesses.all: 16384 accesses are 1.00 MiB"
is "$(val_total "$out" htm)" "1.00" "ht_link1_tx.data: 262144 dwords are 1.00 MiB"

# The threshold (CNT_MASK, 004:72): clocks with at least 2 events; with
# INV, those with fewer; edge, the clocks a run of 2 or more starts.
i="pkg=0 event=0xe0 umask=0x1"
pstat "$out" -a -e "uncore_nb/event=0xe0,umask=0x1,cmask=2,name=t2/,uncore_nb/event=0xe0,umask=0x1,cmask=2,inv=1,name=ti/,uncore_nb/event=0xe0,umask=0x1,cmask=2,edge=1,name=te/,uncore_nb/event=0xe0,umask=0x1,name=tr/" -- \
	sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; inject '$i count=10 inc=3' '$i count=4 inc=1' '$i count=7 inc=2'"
is "$(val_total "$out" t2)" 17 "cmask=2: the 10 + 7 clocks with 2 or more page hits"
is "$(val_total "$out" ti)" 4 "cmask=2,inv: the 4 clocks with fewer"
is "$(val_total "$out" te)" 2 "cmask=2,edge: two runs start"
is "$(val_total "$out" tr)" $((30 + 4 + 14)) "no cmask: every page hit, 48"

# Once per node: uncore_nb on each node's reading CPU, where a raw core
# event of the same code counts on every core of the node.
ev="uncore_nb/dram_accesses.page_miss,name=nb/,cpu/event=0xe0,umask=0x2,name=raw/"
pstat "$out" -a -e "$ev" -- sh -c ". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; inject 'pkg=0 event=0xe0 umask=0x2 count=500' 'pkg=1 event=0xe0 umask=0x2 count=700'"
is "$(val_total "$out" nb)" 1200 "perf stat -a uncore_nb: each node once, 500 + 700"
ncpu=$(grep -c '^processor' /proc/cpuinfo)
per=$((ncpu / $(echo "$PKGS" | wc -w)))
is "$(val_total "$out" raw)" $((1200 * per)) "the raw core event: each node once per core ($per)"
is "$(k8_sum nb_clobbers)" 0 "no two cores of a node held northbridge events on one counter index"

# A core event beside northbridge events, on the stand-in core PMU.
c0=$(first_cpu 0)
pstat "$out" -a -A -e "cycles,uncore_nb/dram_accesses.page_hit,name=hit/" -- sh -c \
	". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; inject 'cpu=$c0 event=0x76 count=123456' 'pkg=0 event=0xe0 umask=0x1 count=777'"
is "$(val_cpu "$out" "$c0" cycles)" 123456 "cycles counts on CPU $c0 beside uncore_nb"
is "$(val_cpu "$out" "$c0" hit)" 777 "and uncore_nb counts beside cycles"

# Northbridge events on both cores of a node: the owner table puts them on
# different counter indexes; each counts the node's events once.
s0=$(sibling 0)
if [ -n "$s0" ]; then
	rm -f /tmp/sib.done
	perf stat -x, -o /tmp/sib.csv -C "$s0" -e cpu/event=0xe0,umask=0x4,name=sib/ -- \
		sh -c 'until [ -e /tmp/sib.done ]; do sleep 0.1; done' &
	pid=$!
	until_true "k8_counting $s0 | grep -q ctr"
	pstat "$out" -a -e "uncore_nb/dram_accesses.page_conflict,name=own/" -- sh -c \
		". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; inject 'pkg=0 event=0xe0 umask=0x4 count=300'; cat $SIM/state > /tmp/during"
	touch /tmp/sib.done
	wait $pid
	is "$(val_total "$out" own)" 300 "uncore_nb beside a raw northbridge event on CPU $s0"
	is "$(awk -F, '$3 == "sib" { print $1 }' /tmp/sib.csv)" 300 "which counts the same 300"
	a=$(k8_counting "$c0" /tmp/during | sed 's/:.*//') b=$(k8_counting "$s0" /tmp/during | sed 's/:.*//')
	ok "[ -n '$a' ] && [ -n '$b' ] && [ '$a' != '$b' ]" "on different counter indexes ($a on CPU $c0, $b on CPU $s0)"
	is "$(k8_sum nb_clobbers)" 0 "no clobber"
else
	skip "northbridge events on both cores of a node" "single-core nodes"
fi

# The NMI watchdog's index (004:38; uncore_pmu.rst, "The BKDG's sibling
# rule"). A pinned cycles on every CPU stands in for the watchdog, which
# the stand-in core PMU cannot run (it does not sample). The core PMU puts
# a node's first northbridge event on index 0 of the reading CPU, moving
# cycles there to another counter, while the other cores' cycles stay on
# index 0: the conflict the BKDG leaves undefined, in every measurement.
# Without the watchdog there is none. The counts are the model's, which
# lets both count.
if [ -n "$s0" ]; then
	for wd in 1 0; do
		sc0=$(k8_sum sibling_conflicts)
		if [ $wd = 1 ]; then
			rm -f /tmp/wd.done
			perf stat -x, -o /tmp/wd.csv -a -e cycles:D -- \
				sh -c 'until [ -e /tmp/wd.done ]; do sleep 0.1; done' &
			pid=$!
			until_true "k8_counting $s0 | grep -q ctr0"
		fi
		pstat "$out" -a -e "uncore_nb/dram_accesses.page_hit,name=wd/" -- sh -c \
			". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; inject 'pkg=0 event=0xe0 umask=0x1 count=400'; cat $SIM/state > /tmp/during"
		if [ $wd = 1 ]; then
			touch /tmp/wd.done
			wait "$pid"
		fi
		sc=$(($(k8_sum sibling_conflicts) - sc0))
		nbi=$(k8_counting "$c0" /tmp/during | tr ' ' '\n' | sed -n 's/^ctr\([0-3]\):0x....01e0$/\1/p')
		is "$(val_total "$out" wd)" 400 "watchdog $wd: uncore_nb counts the 400 (on index $nbi of CPU $c0)"
		if [ $wd = 1 ]; then
			is "$nbi" 0 "watchdog on: the northbridge event takes index 0, the watchdog's, as the core PMU places it"
			ok "[ $sc -gt 0 ]" "watchdog on: the other cores' watchdog shares index 0 ($sc sibling conflicts)"
		else
			is "$sc" 0 "watchdog off: no sibling conflict"
		fi
	done
else
	skip "the watchdog's index" "single-core nodes"
fi

# The single-write start (004:32-34; uncore_pmu.rst): the core PMU
# enables with one write over whatever selection the index held.
# inv=1,edge=1 counts the starts of runs of clocks with fewer than cmask
# events: on an idle node that condition holds from before the start, and
# the BKDG's two writes would count 0; started in one write over the
# page-hit selection that index 0 held, it counts one false edge a node.
npkg=$(echo "$PKGS" | wc -w)
pstat "$out" -a -e "uncore_nb/dram_accesses.page_hit,name=ph/" -- true
fe0=$(k8_sum false_edges)
pstat "$out" -a -e "uncore_nb/event=0xe0,umask=0x1,cmask=1,inv=1,edge=1,name=fe/" -- true
is "$(val_total "$out" fe)" "$npkg" "inv=1,edge=1 started over another selection, no event: one false edge a node"
is "$(($(k8_sum false_edges) - fe0))" "$npkg" "the model counted the same false edges"

# The halt caveat (004:40-42): while the reading core is halted its
# counters stop, and the node's events go uncounted.
pstat "$out" -a -e "uncore_nb/dram_accesses.page_hit,name=hl/" -- sh -c \
	". /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh; inject 'pkg=1 event=0xe0 umask=0x1 count=100';
	 echo 'cpu=$(first_cpu 1) halted=1' > $SIM/halt; inject 'pkg=1 event=0xe0 umask=0x1 count=1000';
	 echo 'cpu=$(first_cpu 1) halted=0' > $SIM/halt; inject 'pkg=1 event=0xe0 umask=0x1 count=10'"
is "$(val_total "$out" hl)" 110 "a halted reading core misses the node's 1000 (documented caveat)"

is "$(k8_bad_writes)" 0 "no reserved bit written, no clobber, no fault"
unload_modules
