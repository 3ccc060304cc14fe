/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one seam between uncore_pmu and the machine it runs on: MSR access.
 *
 * On a real part the driver uses rdmsrl_safe()/wrmsrl_safe(). In a guest,
 * uncore_sim.ko exports uncore_sim_msr_backend and the driver picks it up
 * with symbol_get() when it loads; nothing else in the driver differs.
 * (PCI boxes need no seam: the simulator's devices are real struct pci_dev
 * on a simulated host bridge, reached through the ordinary config accessors.)
 */
#ifndef _UNCORE_PMU_MSR_BACKEND_H
#define _UNCORE_PMU_MSR_BACKEND_H

#include <linux/types.h>

/**
 * struct uncore_msr_backend - where the driver's MSR accesses go
 * @name: shown in the driver's load message and in debugfs
 * @part: the part whose registers it has (&uncore_platform.id: "bdx",
 *	"p4mp"); the driver refuses a simulator of another part
 * @read: read @msr of the calling CPU's package into @val
 * @write: write @val to @msr of the calling CPU's package
 *
 * Both run on the CPU whose package is addressed, with preemption disabled
 * and possibly with interrupts disabled or in NMI context, so they must not
 * sleep. They return 0, or -EIO where the part would raise #GP (an MSR that
 * does not exist, e.g. a CBo that CAPID5 says is absent), as rdmsrl_safe()
 * does.
 */
struct uncore_msr_backend {
	const char *name;
	const char *part;
	int (*read)(u32 msr, u64 *val);
	int (*write)(u32 msr, u64 val);
};

/* Exported by uncore_sim.ko; looked up with symbol_get() by uncore_pmu.ko. */
extern const struct uncore_msr_backend uncore_sim_msr_backend;

#endif /* _UNCORE_PMU_MSR_BACKEND_H */
