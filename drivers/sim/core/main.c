// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_sim: simulated uncore performance counters for uncore_pmu.ko.
 *
 * Load and unload, in process context, and the MSR seam
 * (uncore_sim_msr_backend), called in any context the driver is in (NMI
 * included), which it hands to the model of the part the guest's CPUID
 * says it is (struct sim_model). The rest of the part-independent core is
 * beside it: sim time (clock.c), the packages and their lock (socket.c),
 * PMI delivery (pmi.c), faults (fault.c) and debugfs (debugfs.c, util.c).
 * Test hooks are in debugfs; see Documentation/simulator.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>

#include <uncore_pmu/msr_backend.h>

#include "sim.h"

static const struct sim_model * const sim_models[] = {
	&sim_bdx_model,
	&sim_p4mp_model,
	&sim_nhmex_model,
	&sim_k8_model,
};

/* For the driver's own check that it is not handed another part's model. */
static char *part;
module_param(part, charp, 0444);
MODULE_PARM_DESC(part, "Model this part whatever the CPU is (bdx, p4mp, nhmex, k8); for tests");

/*
 * Loaded on a real part, the simulator would silently take the place of its
 * registers: the driver uses the simulator's backend whenever it is loaded,
 * and perf would report simulated counts as the machine's. The tests run in
 * QEMU, whose CPU models all set the hypervisor bit (CPUID.1:ECX[31]), so
 * without it the simulator refuses to load unless told otherwise.
 */
static bool on_bare_metal;
module_param(on_bare_metal, bool, 0444);
MODULE_PARM_DESC(on_bare_metal, "Load without CPUID's hypervisor bit: on a real CPU the driver then counts simulated registers, not the part's");

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

	/* The ID is a u16 on 6.1 and a u32 on 6.12; small either way. */
	for_each_present_cpu(cpu)
		n = max(n, (int)topology_logical_package_id(cpu) + 1);
	return n;
}

/* The fault rules (fault.c) come first: a #GP leaves the model untouched. */
static int sim_backend_read(u32 msr, u64 *val)
{
	int pkg = sim_this_pkg();

	if (pkg >= 0 && sim_fault_msr(pkg, msr, false)) {
		*val = 0;
		return -EIO;
	}
	return sim_model->access(msr, val, false);
}

static int sim_backend_write(u32 msr, u64 val)
{
	int pkg = sim_this_pkg();

	if (pkg >= 0 && sim_fault_msr(pkg, msr, true))
		return -EIO;
	return sim_model->access(msr, &val, true);
}

/* The driver compares it with its own platform's before using us. */
static char sim_part[16];

const struct uncore_msr_backend uncore_sim_msr_backend = {
	.name	= "uncore_sim",
	.part	= sim_part,
	.read	= sim_backend_read,
	.write	= sim_backend_write,
};
EXPORT_SYMBOL_GPL(uncore_sim_msr_backend);

static int __init sim_init(void)
{
	const struct sim_model *m = NULL;
	unsigned int i;
	int ret;

	if (!boot_cpu_has(X86_FEATURE_HYPERVISOR) && !on_bare_metal) {
		pr_err("not in a virtual machine (no CPUID hypervisor bit): refusing to stand in for this CPU's uncore registers; on_bare_metal=1 to load anyway\n");
		return -ENODEV;
	}
	for (i = 0; i < ARRAY_SIZE(sim_models) && !m; i++)
		if (part ? !strcmp(part, sim_models[i]->part) :
			   sim_models[i]->match())
			m = sim_models[i];
	if (!m && part) {
		pr_err("part=%s: no such model\n", part);
		return -EINVAL;
	}
	if (!m) {
		pr_err("no model of a part with CPUID vendor %u family %xh model %02xh\n",
		       boot_cpu_data.x86_vendor, boot_cpu_data.x86,
		       boot_cpu_data.x86_model);
		return -ENODEV;
	}
	sim_nr_pkgs = sim_count_pkgs();
	if (!sim_nr_pkgs || sim_nr_pkgs > m->max_pkgs) {
		pr_err("%u packages, the %s model has at most %u\n",
		       sim_nr_pkgs, m->part, m->max_pkgs);
		return -EINVAL;
	}
	sim_model = m;
	strscpy(sim_part, m->part, sizeof(sim_part));
	ret = m->init(sim_clock_now());
	if (ret)
		return ret;
	sim_debugfs_init();
	pr_info("models %s\n", m->name);
	return 0;
}

static void __exit sim_exit(void)
{
	sim_debugfs_exit();
	sim_fault_exit();
	sim_model->exit();
}

module_init(sim_init);
module_exit(sim_exit);

MODULE_DESCRIPTION("Simulated uncore performance counters for uncore_pmu");
MODULE_LICENSE("GPL");
