/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_pmu: box operations of Intel's uncore PMON register layouts,
 * for the Intel families (bdx/, nhmex/) to use or build on.
 */
#ifndef _UNCORE_PMU_INTEL_PMON_H
#define _UNCORE_PMU_INTEL_PMON_H

#include "uncore.h"

/* intel/pci_box.c: the PCI config-space layout of Broadwell-EP/EX's boxes. */
extern const struct uncore_ops uncore_pci_ops;
void uncore_pci_init_box(struct uncore_box *box);
void uncore_pci_enable_event(struct uncore_box *box, struct perf_event *event);
void uncore_pci_disable_event(struct uncore_box *box, struct perf_event *event);
u64 uncore_pci_read_counter(struct uncore_box *box, struct perf_event *event);
int uncore_pci_read_ctl(struct uncore_box *box, struct perf_event *event,
			u64 *val);
void uncore_pci_write_counter(struct uncore_box *box, struct perf_event *event,
			      u64 val);
u32 uncore_pci_read_status(struct uncore_box *box);
void uncore_pci_clear_status(struct uncore_box *box, u32 st);
bool uncore_pci_freeze(struct uncore_box *box);
void uncore_pci_unfreeze(struct uncore_box *box);

/* The box-level operations of the PCI layout, for a type's own ops table. */
#define UNCORE_PCI_BOX_OPS					\
	.read_status	= uncore_pci_read_status,		\
	.clear_status	= uncore_pci_clear_status,		\
	.freeze		= uncore_pci_freeze,			\
	.unfreeze	= uncore_pci_unfreeze

/* intel/msr_box.c: the MSR layout, shared by the Intel families. */
extern const struct uncore_ops uncore_msr_ops;
void uncore_msr_init_box(struct uncore_box *box);
void uncore_msr_enable_event(struct uncore_box *box, struct perf_event *event);
void uncore_msr_disable_event(struct uncore_box *box, struct perf_event *event);
u64 uncore_msr_read_counter(struct uncore_box *box, struct perf_event *event);
int uncore_msr_read_ctl(struct uncore_box *box, struct perf_event *event,
			u64 *val);
void uncore_msr_write_counter(struct uncore_box *box, struct perf_event *event,
			      u64 val);
u32 uncore_msr_ctl(const struct uncore_box *box, int idx);
u32 uncore_msr_read_status(struct uncore_box *box);
void uncore_msr_clear_status(struct uncore_box *box, u32 st);
bool uncore_msr_freeze(struct uncore_box *box);
void uncore_msr_unfreeze(struct uncore_box *box);

/* The box-level operations of the MSR layout, for a type's own ops table. */
#define UNCORE_MSR_BOX_OPS					\
	.read_status	= uncore_msr_read_status,		\
	.clear_status	= uncore_msr_clear_status,		\
	.freeze		= uncore_msr_freeze,			\
	.unfreeze	= uncore_msr_unfreeze

#endif /* _UNCORE_PMU_INTEL_PMON_H */
