// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_sim: the Broadwell-EP/EX model's glue. Its module parameters
 * (what each package is made of), its accessors for the MSR seam, which
 * take the package lock and may run in NMI context, and its setup: the
 * register model (bdx_regs.c, bdx_pci_regs.c), PMI delivery (pmi.c), the
 * PCI host bridge (pci.c) and its debugfs files (debugfs.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <asm/processor.h>
#include <asm/intel-family.h>

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

/* Accesses address the package of the calling CPU (msr_backend.h). */
static struct sim_socket *sim_this_socket(void)
{
	int pkg = sim_this_pkg();

	return pkg >= 0 ? &sim_sockets[pkg] : NULL;
}

/*
 * May run in NMI context (the driver's PMI handler). -EBUSY: an NMI
 * interrupted this CPU inside the simulator (see sim_nmi_busy()).
 */
static int sim_bdx_access(u32 msr, u64 *val, bool write)
{
	struct sim_socket *s = sim_this_socket();
	unsigned long flags;
	u64 now;
	int ret;

	if (!write)
		*val = 0;
	if (!s)
		return -EIO;
	if (sim_nmi_busy(s))
		return -EBUSY;
	now = sim_clock_now();
	sim_lock(s, &flags);
	if (write)
		ret = sim_msr_write(&s->pkg, now, msr, *val);
	else
		ret = sim_msr_read(&s->pkg, now, msr, val);
	sim_unlock(s, flags);
	return ret;
}

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

static int sim_bdx_init(u64 now)
{
	unsigned int p;
	int ret;

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
	pr_info("%u packages, UCLK %u kHz\n", sim_nr_pkgs, uclk_khz);
	return 0;
}

static void sim_bdx_exit(void)
{
	sim_pci_exit();
	sim_pmi_exit();
}

/* Intel family 6 model 4Fh, the CPUID the driver matches too. */
static bool sim_bdx_match(void)
{
	return boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
	       boot_cpu_data.x86 == 6 &&
	       boot_cpu_data.x86_model == INTEL_FAM6_BROADWELL_X;
}

const struct sim_model sim_bdx_model = {
	.part		= "bdx",
	.name		= "Xeon E5/E7 v4 (Broadwell-EP/EX)",
	.max_pkgs	= SIM_MAX_PKGS,
	.match		= sim_bdx_match,
	.init		= sim_bdx_init,
	.exit		= sim_bdx_exit,
	.access		= sim_bdx_access,
	.debugfs_init	= sim_bdx_debugfs_init,
	.clock_moved	= sim_pmi_kick_all,
};
