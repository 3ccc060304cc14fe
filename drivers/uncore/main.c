// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_pmu: perf_event PMUs for the uncore of Intel Xeon E5/E7 v4
 * (Broadwell-EP/EX). See Documentation/uncore_pmu.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/pci.h>
#include <linux/topology.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>

#include "uncore.h"
#include "bdx.h"

int uncore_max_pkgs;

static const struct x86_cpu_id uncore_cpu_ids[] = {
	X86_MATCH_INTEL_FAM6_MODEL(BROADWELL_X, &bdx_platform),
	{ }
};
MODULE_DEVICE_TABLE(x86cpu, uncore_cpu_ids);

static const struct uncore_platform *uncore_platform;

/*
 * The in-tree intel_uncore driver registers the same PMU names and claims
 * the same PCI devices; two drivers programming one set of counters would
 * corrupt each other's counts. Its PCI driver for this part is named
 * "bdx_uncore".
 */
static bool intel_uncore_loaded(void)
{
	return driver_find("bdx_uncore", &pci_bus_type);
}

static int __init uncore_pmu_init(void)
{
	const struct x86_cpu_id *id = x86_match_cpu(uncore_cpu_ids);
	int err;

	if (!id)
		return -ENODEV;
	if (intel_uncore_loaded()) {
		pr_err("intel_uncore owns the uncore PMUs: 'rmmod intel_uncore' (and blacklist it) before loading this driver\n");
		return -EBUSY;
	}

	uncore_platform = (const struct uncore_platform *)id->driver_data;
	uncore_max_pkgs = topology_max_packages();

	err = uncore_access_init();
	if (err)
		return err;
	err = uncore_platform->discover();
	if (err)
		goto access;
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
	uncore_platform->cleanup();
	uncore_access_exit();
}

module_init(uncore_pmu_init);
module_exit(uncore_pmu_exit);

MODULE_DESCRIPTION("perf_event PMUs for Intel Xeon uncore performance monitoring");
MODULE_LICENSE("GPL");
