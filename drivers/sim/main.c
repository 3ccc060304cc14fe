// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_sim: simulated Broadwell-EP/EX uncore PMON for uncore_pmu.ko.
 *
 * Models the MSR PMON boxes of every package behind
 * uncore_sim_msr_backend, and the PCI functions used for discovery (UBox
 * node ID, PCU.3 capabilities) on a simulated host bridge. Test hooks are
 * in debugfs; see Documentation/simulator.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/topology.h>

#include <uncore_pmu/msr_backend.h>

#include "sim.h"

static unsigned int uclk_khz = 2000000;
module_param(uclk_khz, uint, 0444);
MODULE_PARM_DESC(uclk_khz, "Uncore clock in kHz (default 2000000)");

/* Different, non-contiguous CBo sets per package, all with CBo 3. */
static unsigned int capid5[SIM_MAX_PKGS] = {
	0x000f0f, 0x003c3a, 0x0f00f8, 0xa5a5a9,
	0x00ffff, 0xffffff, 0x000008, 0x5a5a5a,
};

static int capid5_n;
module_param_array(capid5, uint, &capid5_n, 0444);
MODULE_PARM_DESC(capid5, "CAPID5 per package; bits 23:0 = CBos present");

/*
 * CAPID4[7:6]: 01 = 4 SBos and 2 QPI links on the first two packages; on
 * bigger machines also 10 (4 SBos, 3 links: QPI port 2 and R3QPI link 2)
 * and 00 (no SBo, 2 links), so every encoding is exercised.
 */
static unsigned int capid4[SIM_MAX_PKGS] = {
	0x40, 0x40, 0x80, 0x00, 0x40, 0x80, 0x40, 0x40,
};

static int capid4_n;
module_param_array(capid4, uint, &capid4_n, 0444);
MODULE_PARM_DESC(capid4, "CAPID4 per package; bits 7:6 = SBo/QPI config");

/*
 * iMC channels per package (bit n: iMC n / 4, channel n % 4). By default
 * package 1 lacks channels, as a part with unpopulated channels may.
 */
static unsigned int imc_mask[SIM_MAX_PKGS] = {
	0xff, 0x33, 0xff, 0x0f, 0xff, 0x11, 0xff, 0xf0,
};

static int imc_mask_n;
module_param_array(imc_mask, uint, &imc_mask_n, 0444);
MODULE_PARM_DESC(imc_mask, "iMC channels present per package, bits 7:0");

/* DDR4-2133: the DRAM clock is half the transfer rate (2.5). */
static unsigned int dclk_khz = 1066666;
module_param(dclk_khz, uint, 0444);
MODULE_PARM_DESC(dclk_khz, "DRAM clock in kHz (default 1066666)");

static int nodeid[SIM_MAX_PKGS] = {
	-1, -1, -1, -1, -1, -1, -1, -1,
};

static int nodeid_n;
module_param_array(nodeid, int, &nodeid_n, 0444);
MODULE_PARM_DESC(nodeid,
		 "Node ID of each package, 0-7 (default: reversed order)");

struct sim_socket sim_sockets[SIM_MAX_PKGS];
unsigned int sim_nr_pkgs;

/*
 * Sim time is CLOCK_MONOTONIC plus an offset, or a frozen value. The fast
 * accessor is used because MSR accesses may come from NMI context. Writers
 * are serialised by sim_clock_mutex; readers are lockless: run() publishes
 * the offset before clearing the frozen value.
 */
#define SIM_CLOCK_RUNNING	U64_MAX

static DEFINE_MUTEX(sim_clock_mutex);
static u64 sim_clock_frozen_ns = SIM_CLOCK_RUNNING;
static u64 sim_clock_offset_ns;
/* Time added by accesses themselves (sim_clock_tick()), in any state. */
static atomic64_t sim_clock_ticked_ns = ATOMIC64_INIT(0);

static u64 sim_clock_base(void)
{
	u64 frozen = READ_ONCE(sim_clock_frozen_ns);

	smp_rmb();	/* pairs with smp_wmb() in sim_clock_run() */
	if (frozen != SIM_CLOCK_RUNNING)
		return frozen;
	return ktime_get_mono_fast_ns() + READ_ONCE(sim_clock_offset_ns);
}

u64 sim_clock_now(void)
{
	return sim_clock_base() + atomic64_read(&sim_clock_ticked_ns);
}

/* Lockless, for config accessors: moves sim time forward by @ns. */
void sim_clock_tick(u64 ns)
{
	if (sim_clock_now() + ns <= SIM_TIME_MAX_NS)
		atomic64_add(ns, &sim_clock_ticked_ns);
}

bool sim_clock_frozen(void)
{
	return READ_ONCE(sim_clock_frozen_ns) != SIM_CLOCK_RUNNING;
}

void sim_clock_freeze(void)
{
	mutex_lock(&sim_clock_mutex);
	if (!sim_clock_frozen())
		WRITE_ONCE(sim_clock_frozen_ns, sim_clock_base());
	mutex_unlock(&sim_clock_mutex);
}

void sim_clock_run(void)
{
	u64 frozen;

	mutex_lock(&sim_clock_mutex);
	frozen = READ_ONCE(sim_clock_frozen_ns);
	if (frozen != SIM_CLOCK_RUNNING) {
		WRITE_ONCE(sim_clock_offset_ns,
			   frozen - ktime_get_mono_fast_ns());
		smp_wmb();	/* offset before the running state */
		WRITE_ONCE(sim_clock_frozen_ns, SIM_CLOCK_RUNNING);
	}
	mutex_unlock(&sim_clock_mutex);
}

/* Moves sim time forward by @ns; -ERANGE beyond SIM_TIME_MAX_NS. */
int sim_clock_advance(u64 ns)
{
	int ret = 0;
	u64 now;

	mutex_lock(&sim_clock_mutex);
	now = sim_clock_now();
	if (ns > SIM_TIME_MAX_NS || now + ns > SIM_TIME_MAX_NS)
		ret = -ERANGE;
	else if (sim_clock_frozen())
		WRITE_ONCE(sim_clock_frozen_ns, sim_clock_base() + ns);
	else
		WRITE_ONCE(sim_clock_offset_ns, sim_clock_offset_ns + ns);
	mutex_unlock(&sim_clock_mutex);
	return ret;
}

/* Accesses address the package of the calling CPU (msr_backend.h). */
static struct sim_socket *sim_this_socket(void)
{
	unsigned int pkg = topology_physical_package_id(smp_processor_id());

	return pkg < sim_nr_pkgs ? &sim_sockets[pkg] : NULL;
}

/*
 * Both may run in NMI context (the driver's PMI handler). -EBUSY: an NMI
 * interrupted this CPU inside the simulator (see sim_nmi_busy()).
 */
static int sim_backend_read(u32 msr, u64 *val)
{
	struct sim_socket *s = sim_this_socket();
	unsigned long flags;
	u64 now;
	int ret;

	*val = 0;
	if (!s)
		return -EIO;
	if (sim_nmi_busy(s))
		return -EBUSY;
	now = sim_clock_now();
	sim_lock(s, &flags);
	ret = sim_msr_read(&s->pkg, now, msr, val);
	sim_unlock(s, flags);
	return ret;
}

static int sim_backend_write(u32 msr, u64 val)
{
	struct sim_socket *s = sim_this_socket();
	unsigned long flags;
	u64 now;
	int ret;

	if (!s)
		return -EIO;
	if (sim_nmi_busy(s))
		return -EBUSY;
	now = sim_clock_now();
	sim_lock(s, &flags);
	ret = sim_msr_write(&s->pkg, now, msr, val);
	sim_unlock(s, flags);
	return ret;
}

const struct uncore_msr_backend uncore_sim_msr_backend = {
	.name	= "uncore_sim",
	.read	= sim_backend_read,
	.write	= sim_backend_write,
};
EXPORT_SYMBOL_GPL(uncore_sim_msr_backend);

/* Node IDs are 3-bit fields of the UBox mapping register (1.6.1). */
static int sim_check_nodeids(void)
{
	unsigned long seen = 0;
	unsigned int p;

	for (p = 0; p < sim_nr_pkgs; p++) {
		if (nodeid[p] < 0)
			nodeid[p] = sim_nr_pkgs - 1 - p;
		if (nodeid[p] > 7 || __test_and_set_bit(nodeid[p], &seen)) {
			pr_err("nodeid: need distinct values 0-7\n");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The sockets the machine has: those of its present CPUs. Not
 * topology_max_packages(), which with slots for hot-pluggable CPUs (the test
 * guests' sparse core IDs) is the possible CPUs over the cores of the boot
 * package, more than there are.
 */
static unsigned int sim_count_pkgs(void)
{
	unsigned int cpu;
	int n = 0;

	for_each_present_cpu(cpu)
		n = max(n, topology_logical_package_id(cpu) + 1);
	return n;
}

static int __init sim_init(void)
{
	u64 now = sim_clock_now();
	unsigned int p;
	int ret;

	sim_nr_pkgs = sim_count_pkgs();
	if (!sim_nr_pkgs || sim_nr_pkgs > SIM_MAX_PKGS) {
		pr_err("%u packages, at most %d supported\n", sim_nr_pkgs,
		       SIM_MAX_PKGS);
		return -EINVAL;
	}
	if (!uclk_khz || uclk_khz > SIM_MAX_CLK_HZ / 1000 ||
	    !dclk_khz || dclk_khz > SIM_MAX_CLK_HZ / 1000) {
		pr_err("uclk_khz or dclk_khz out of range\n");
		return -EINVAL;
	}
	ret = sim_check_nodeids();
	if (ret)
		return ret;

	for (p = 0; p < sim_nr_pkgs; p++) {
		struct sim_pkg_cfg cfg = {
			.nodeid = nodeid[p],
			.capid4 = capid4[p],
			.capid5 = capid5[p] & GENMASK(SIM_NR_CBO - 1, 0),
			.imc_mask = imc_mask[p],
			.uclk_hz = (u64)uclk_khz * 1000,
			.dclk_hz = (u64)dclk_khz * 1000,
		};

		raw_spin_lock_init(&sim_sockets[p].lock);
		sim_pkg_init(&sim_sockets[p].pkg, p, &cfg, now);
	}

	ret = sim_pmi_init();
	if (ret)
		return ret;
	ret = sim_pci_init();
	if (ret) {
		sim_pmi_exit();
		return ret;
	}
	sim_debugfs_init();
	pr_info("%u packages, UCLK %u kHz\n", sim_nr_pkgs, uclk_khz);
	return 0;
}

static void __exit sim_exit(void)
{
	sim_debugfs_exit();
	sim_pci_exit();
	sim_pmi_exit();
}

module_init(sim_init);
module_exit(sim_exit);

MODULE_DESCRIPTION("Simulated Intel Broadwell-EP/EX uncore PMON registers");
MODULE_LICENSE("GPL");
