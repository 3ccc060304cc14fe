# shellcheck shell=sh
# Helpers of the K8 (Athlon 64 / Opteron) northbridge tests, after lib.sh
# and uncore_lib.sh. The simulator's state dump for this part
# (Documentation/simulator.rst, "The K8 model"):
#   pkg0 stats reads=N writes=N faults=N rsvd_writes=N nb_clobbers=N ...
#   pkg0 nb2 event=0x.. umask=0x.. sel=0x... writer=cpuN|none
#   cpu1 pkg0 core=1 halted=0|1 pmi_owed=0|1
#   cpu1 ctr2 sel=0x... ctr=0x... total=N counting=0|1

# k8_stat PKG KEY: a number of the node's stats line.
k8_stat() { sim_state | sed -n "s/^pkg$1 stats .*[ ]$2=\([0-9]*\).*/\1/p"; }

# k8_sum KEY: KEY of every node's stats line, summed.
k8_sum() {
	sim_state | awk -v k="$1" '$2 == "stats" { for (i = 3; i <= NF; i++) {
		split($i, kv, "="); if (kv[1] == k) s += kv[2] } } END { print s + 0 }'
}

# k8_bad_writes: reserved-bit writes and faulting accesses, and writes
# that put northbridge events of two cores of a node on one counter index
# (nb_clobbers), summed over nodes; the driver and the core PMU must cause
# none.
k8_bad_writes() {
	echo $(($(k8_sum rsvd_writes) + $(k8_sum faults) + $(k8_sum nb_clobbers)))
}

# k8_ext_model: CPUID's extended model (4 bits above the model), which
# tells the K8 revision: 1 D, 2-3 E, 4 and more F and G.
k8_ext_model() {
	echo $(($(sed -n 's/^model[[:space:]]*: \([0-9]*\)$/\1/p' /proc/cpuinfo | head -n 1) >> 4))
}

# k8_topo: PKGS, FIRST_<p> the reading CPU of node p at load, and
# SIBLING_<p> another CPU of the node ("" on single-core nodes).
k8_topo() {
	PKGS=$(pkgs | tr '\n' ' ')
	for p in $PKGS; do
		eval "FIRST_$p=$(pkg_first_cpu "$p")"
		_s=""
		for c in /sys/devices/system/cpu/cpu[0-9]*; do
			n=${c##*cpu}
			[ "$(pkg_of_cpu "$n")" = "$p" ] && [ "$n" != "$(first_cpu "$p")" ] && [ -z "$_s" ] && _s=$n
		done
		eval "SIBLING_$p=$_s"
	done
}

sibling() { eval "echo \$SIBLING_$1"; }

# k8_counting CPU: the counters of CPU that count, "ctrI:sel ..." (the
# selector's low 32 bits), from the state or DUMP.
k8_counting() {
	if [ -n "${2:-}" ]; then cat "$2"; else sim_state; fi |
		awk -v c="cpu$1" '$1 == c && $2 ~ /^ctr/ && $NF == "counting=1" {
			split($3, kv, "="); printf "%s:0x%s ", $2, substr(kv[2], 11) }'
}

# cpulist LIST: a kernel CPU list ("0-1,4") as single CPUs ("0,1,4").
cpulist() {
	echo "$1" | awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-");
		for (c = r[1]; c <= r[n]; c++) printf "%s%d", (o++ ? "," : ""), c } print "" }'
}
