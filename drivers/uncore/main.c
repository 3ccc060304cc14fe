// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_pmu: perf_event PMUs for the uncore of server processors. The
 * CPU model picks a platform (a family's description, drivers/uncore/<family>);
 * its probe decides whether this machine is one it drives. See
 * Documentation/uncore_pmu.rst and Documentation/architecture.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/pci.h>
#include <linux/topology.h>
#include <asm/cpu_device_id.h>

#include "uncore.h"
#include "bdx/bdx.h"
#include "p4mp/p4mp.h"
#include "nhmex/nhmex.h"
#include "k8/k8.h"

int uncore_max_pkgs;

/*
 * For tests: drive only the first N logical packages (0: all). The others
 * then look as a socket hot-added after load does on 6.1, which gives it
 * the next logical id whatever topology_max_packages() said at load
 * (review pmi-protocol N21): its CPUs, uncore bus and NMIs must be passed
 * over, never used as an index.
 */
static unsigned int test_max_pkgs;
module_param(test_max_pkgs, uint, 0444);
MODULE_PARM_DESC(test_max_pkgs,
		 "for tests: drive only the first N packages, as if the others came after load (0: all)");

/*
 * A CPU model here is a candidate; the platform's probe has the last word.
 * Models by number (DisplayFamily_DisplayModel, SDM Vol. 4 Table 2-1), as
 * every kernel this builds for spells them: Linux 6.10 renamed the
 * INTEL_FAM6_* constants and 6.12 dropped X86_MATCH_INTEL_FAM6_MODEL().
 */
static const struct x86_cpu_id uncore_cpu_ids[] = {
	/* 06_4FH: Xeon E5 v4, E7 v4 (Broadwell-EP/EX). */
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 6, 0x4f, &bdx_platform),
	/* 06_2EH: Xeon 7500 (Nehalem-EX). */
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 6, 0x2e, &nhmex_platform),
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 15, 3, &p4mp_platform),
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 15, 4, &p4mp_platform),
	/* Named only to say why they are refused: 0F_06H, 06_1DH (7400). */
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 15, 6, &p4mp_other_platform),
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 6, 0x1d, &p4mp_other_platform),
	X86_MATCH_VENDOR_FAM(AMD, 0xf, &k8_platform),
	{ }
};
MODULE_DEVICE_TABLE(x86cpu, uncore_cpu_ids);

static const struct uncore_platform *uncore_platform;

static int __init uncore_pmu_init(void)
{
	const struct x86_cpu_id *id = x86_match_cpu(uncore_cpu_ids);
	const struct uncore_platform *plat;
	int err;

	if (!id)
		return -ENODEV;
	plat = (const struct uncore_platform *)id->driver_data;
	/* The probe may read MSRs, the simulator's if it is loaded. */
	err = uncore_access_init(plat->id);
	if (err)
		return err;
	if (plat->probe) {
		err = plat->probe();
		if (err)
			goto access;
	}
	uncore_platform = plat;
	uncore_max_pkgs = topology_max_packages();
	if (test_max_pkgs && test_max_pkgs < uncore_max_pkgs)
		uncore_max_pkgs = test_max_pkgs;

	if (uncore_platform->discover) {
		err = uncore_platform->discover();
		if (err)
			goto access;
	}
	err = uncore_core_init(uncore_platform);
	if (err)
		goto discovered;
	/* PCI boxes register their pmus as the driver binds to them. */
	if (uncore_platform->pci_driver) {
		err = pci_register_driver(uncore_platform->pci_driver);
		if (err)
			goto core;
	}
	return 0;

core:
	uncore_core_exit();
discovered:
	if (uncore_platform->cleanup)
		uncore_platform->cleanup();
access:
	uncore_access_exit();
	return err;
}

static void __exit uncore_pmu_exit(void)
{
	if (uncore_platform->pci_driver)
		pci_unregister_driver(uncore_platform->pci_driver);
	uncore_core_exit();
	if (uncore_platform->cleanup)
		uncore_platform->cleanup();
	uncore_access_exit();
}

module_init(uncore_pmu_init);
module_exit(uncore_pmu_exit);

MODULE_DESCRIPTION("perf_event PMUs for the uncore performance counters of Intel Xeon and AMD K8 parts");
MODULE_LICENSE("GPL");
