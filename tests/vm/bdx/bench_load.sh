#!/bin/sh
# make bench, third table: what loading the driver costs on the largest
# machine it drives, 8 packages (an E7 v4's node-ID map has 8 fields) with
# every box present: all 24 CBos and 4 SBos (CAPID5, CAPID4), 3 QPI links
# and R3QPI links, every iMC channel. Times insmod and rmmod of
# uncore_pmu with the simulator loaded (kernel log timestamps around them),
# counts the PMUs, and takes the memory the module holds: its text and
# data (/sys/module), and the kernel memory the load takes and the unload
# gives back (Slab, Percpu, VmallocUsed of /proc/meminfo). Runs in real
# time, 5 times; the table gives the median. Prints the table between
# BENCH-TABLE-BEGIN and BENCH-TABLE-END as reStructuredText.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

RUNS=5
fail() { echo "bench: FAILED: $*"; exit 1; }

npkg=$(pkgs | wc -l)
[ "$npkg" = 8 ] || fail "want 8 packages, the guest has $npkg"
all8() { echo "$1,$1,$1,$1,$1,$1,$1,$1"; }
insmod "$MODDIR/uncore_sim.ko" capid5="$(all8 0xffffff)" capid4="$(all8 0x80)" \
	imc_mask="$(all8 0xff)" || fail "insmod uncore_sim"

# kmsg MARK: a line in the kernel log; stamp MARK: its timestamp in us.
kmsg() { echo "bench: $1" >/dev/kmsg; }
stamp() {
	dmesg | sed -n "s/^\[ *\([0-9]*\)\.\([0-9]*\)\] bench: $1\$/\1 \2/p" | tail -n1 |
		awk '{ printf "%d\n", $1 * 1000000 + $2 }'
}
# mem: kernel memory in kB that a load can take (slab, per-CPU, vmalloc),
# once what RCU frees late is freed and the slab caches are shrunk.
mem() {
	sleep 1
	echo 3 >/proc/sys/vm/drop_caches
	awk '/^(Slab|Percpu|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo
}
# parts: the same, part by part, and the bytes of the slab objects in use
# (/proc/slabinfo active_objs times objsize): "SLAB PERCPU VMALLOC OBJS" in
# kB. Slab pages a cache keeps after its objects are freed count in SLAB,
# not in OBJS: a leak grows OBJS.
parts() {
	mem >/dev/null
	m=$(awk '/^Slab:/ { s = $2 } /^Percpu:/ { p = $2 } /^VmallocUsed:/ { v = $2 }
		END { print s, p, v }' /proc/meminfo)
	echo "$m $(awk 'NR > 2 { s += $2 * $4 } END { printf "%d\n", s / 1024 }' /proc/slabinfo)"
}

: >/tmp/load.txt
parts >/tmp/parts0
cp /proc/slabinfo /tmp/slab0
i=0
while [ $i -lt $RUNS ]; do
	sync
	m0=$(mem)
	kmsg "load-$i"
	insmod "$MODDIR/uncore_pmu.ko" || fail "insmod uncore_pmu"
	kmsg "loaded-$i"
	m1=$(mem)
	npmu=0
	for d in "$PMUS"/uncore_*; do [ -e "$d" ] && npmu=$((npmu + 1)); done
	core=$(cat /sys/module/uncore_pmu/coresize)
	kmsg "unload-$i"
	rmmod uncore_pmu || fail "rmmod uncore_pmu"
	kmsg "unloaded-$i"
	m2=$(mem)
	echo "$(( $(stamp "loaded-$i") - $(stamp "load-$i") )) $(( $(stamp "unloaded-$i") - $(stamp "unload-$i") )) $((m1 - m0)) $((m1 - m2)) $npmu $core $m0" >>/tmp/load.txt
	i=$((i + 1))
done
parts >/tmp/parts1
cp /proc/slabinfo /tmp/slab1
# The same rounds without the driver: how much the measurement itself
# (shells, the kernel log, page cache) moves the baseline.
c0=$(mem)
i=0
while [ $i -lt $((RUNS - 1)) ]; do
	sync
	mem >/dev/null
	kmsg "idle-$i"
	mem >/dev/null
	for d in "$PMUS"/uncore_*; do [ -e "$d" ]; done
	cat /sys/module/uncore_sim/coresize >/dev/null
	kmsg "idle-done-$i"
	mem >/dev/null
	stamp "idle-$i" >/dev/null
	stamp "idle-done-$i" >/dev/null
	i=$((i + 1))
done
idle_growth=$(($(mem) - c0))
rmmod uncore_sim

# median COLUMN of /tmp/load.txt
median() { awk -v c="$1" '{ print $c }' /tmp/load.txt | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p"; }

rule() { echo "==============================  ==============="; }
echo "BENCH-TABLE-BEGIN"
echo "Loading uncore_pmu on 8 packages with every box present ($(nproc) CPUs;"
echo "median of $RUNS loads, QEMU TCG, real time)."
echo
rule
printf "%-30s  %s\n" "" "value"
rule
printf "%-30s  %s\n" "PMUs registered" "$(median 5)"
printf "%-30s  %s\n" "insmod (ms)" "$(awk -v v="$(median 1)" 'BEGIN { printf "%.1f", v / 1000 }')"
printf "%-30s  %s\n" "rmmod (ms)" "$(awk -v v="$(median 2)" 'BEGIN { printf "%.1f", v / 1000 }')"
printf "%-30s  %s\n" "module text and data (KiB)" "$(( $(median 6) / 1024 ))"
printf "%-30s  %s\n" "kernel memory taken (KiB)" "$(median 3)"
printf "%-30s  %s\n" "given back by rmmod (KiB)" "$(median 4)"
printf "%-30s  %s\n" "growth over $RUNS loads (KiB)" "$(awk 'NR == 1 { a = $7 } { b = $7 } END { print b - a }' /tmp/load.txt)"
printf "%-30s  %s\n" "the same rounds, no load (KiB)" "$idle_growth"
# grow N: column N of parts after the loads, less before them.
grow() { echo $(( $(cut -d' ' -f"$1" /tmp/parts1) - $(cut -d' ' -f"$1" /tmp/parts0) )); }
printf "%-30s  %s\n" "  of the loads': slab pages" "$(grow 1)"
printf "%-30s  %s\n" "  per-CPU" "$(grow 2)"
printf "%-30s  %s\n" "  vmalloc" "$(grow 3)"
printf "%-30s  %s\n" "slab objects in use, growth" "$(grow 4)"
rule
echo
echo "Kernel memory: Slab + Percpu + VmallocUsed of /proc/meminfo after the"
echo "load, less before it (the PMUs' devices and sysfs files, the boxes, the"
echo "event attributes); the unload's row is the same difference across rmmod,"
echo "and growth what the last load started from, less the first: what the"
echo "loads and unloads between them did not give back. The rounds without a"
echo "load do everything else the same: what the measuring itself moves."
echo "The growth is then split by kind, from before the first load to after"
echo "the last unload, and \"slab objects in use\" adds up the objects the"
echo "slab caches hold (/proc/slabinfo): pages a cache keeps after its objects"
echo "were freed count as slab pages, not as objects in use."
echo
echo "The slab caches whose objects in use grew most over the loads (KiB)::"
echo
awk 'FNR > 2 { k = $1; b = $2 * $4 / 1024 }
     FNR == NR && FNR > 2 { a[k] = b; next }
     FNR > 2 { d = b - a[k]; if (d >= 16) printf "  %-28s %6d\n", k, d }' \
	/tmp/slab0 /tmp/slab1 | sort -k2 -n -r | head -n 8
echo "BENCH-TABLE-END"
