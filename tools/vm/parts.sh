# shellcheck shell=bash
# The parts the guests can be: what QEMU is told the CPU is, and the shape
# of the machine when nobody asks for another. Sourced by run-qemu.sh;
# check.sh says which guests boot which part and run which tests.
#
# part_load NAME sets
#   PART_CPU      the -cpu option
#   PART_CPU_DEV  the CPU device type of hot-added vCPUs (--topo)
#   PART_SMP      the default -smp
# shellcheck disable=SC2034 # for the script that sources this
part_load() {
	case $1 in
	# Xeon E5 v4: the model number is what the driver matches on. TSX is
	# dropped because TCG does not emulate it, and so are the features TCG
	# would drop anyway (with a warning per vCPU).
	bdx)
		PART_CPU=Broadwell,model=79,-hle,-rtm,-pcid,-x2apic,-tsc-deadline,-invpcid,-rdseed,-3dnowprefetch
		PART_CPU_DEV=Broadwell-x86_64-cpu
		PART_SMP=8,sockets=2
		;;
	# 64-bit Xeon MP with L3 (NetBurst, family 0Fh model 04h): 2 sockets of
	# one core with Hyper-Threading, as the parts were. The stock Debian
	# kernel boots on it under TCG and registers no core PMU.
	p4mp)
		PART_CPU=qemu64,vendor=GenuineIntel,family=15,model=4,l3-cache=on
		PART_CPU_DEV=qemu64-x86_64-cpu
		PART_SMP=4,sockets=2,cores=1,threads=2
		;;
	# Xeon 7500 (Nehalem-EX): family 6 model 2Eh on QEMU's Nehalem model
	# (which TCG runs without warnings). Two sockets of four cores by
	# default; check.sh gives the guests sparse core IDs with --topo.
	nhmex)
		PART_CPU=Nehalem,model=46
		PART_CPU_DEV=Nehalem-x86_64-cpu
		PART_SMP=8,sockets=2
		;;
	# AMD Athlon 64 / Opteron (K8, family 0Fh) on QEMU's Opteron_G2, with
	# the extended model of a revision (Documentation/uncore_pmu.rst, "The
	# K8 northbridge"): k8e a dual-core rev E (model 21h stepping 2, as
	# JH-E6), k8f a dual-core rev F (41h, as JH-F2), two nodes of two cores
	# each; k8d a single-core rev D (15h), two nodes of one core, where the
	# rev E events are refused. K8 has no L3. The stock kernel boots on
	# them under TCG and registers no core PMU.
	k8d | k8e | k8f)
		case $1 in
		k8d) PART_CPU=model=21,stepping=0 PART_SMP=2,sockets=2,cores=1 ;;
		k8e) PART_CPU=model=33,stepping=2 PART_SMP=4,sockets=2,cores=2 ;;
		k8f) PART_CPU=model=65,stepping=2 PART_SMP=4,sockets=2,cores=2 ;;
		esac
		PART_CPU=Opteron_G2,family=15,$PART_CPU,l3-cache=off
		PART_CPU_DEV=Opteron_G2-x86_64-cpu
		;;
	# What the driver must refuse: the same family and model without an
	# L3 (a Pentium 4 or Xeon DP), and model 06h (Xeon 7100), whose L3
	# counters sit at the same MSRs with another layout.
	p4mp-nol3)
		PART_CPU=qemu64,vendor=GenuineIntel,family=15,model=4,l3-cache=off
		PART_CPU_DEV=qemu64-x86_64-cpu
		PART_SMP=2,sockets=1,cores=1,threads=2
		;;
	xeon7100)
		PART_CPU=qemu64,vendor=GenuineIntel,family=15,model=6,l3-cache=on
		PART_CPU_DEV=qemu64-x86_64-cpu
		PART_SMP=2,sockets=1,cores=1,threads=2
		;;
	*) die "unknown part '$1' (parts.sh)" ;;
	esac
}
