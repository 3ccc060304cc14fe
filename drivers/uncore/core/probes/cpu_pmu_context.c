// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: struct pmu's per-CPU share of perf's contexts is a
 * struct perf_cpu_pmu_context with the multiplexing hrtimer (Linux 6.2's
 * context rewrite); before, a struct perf_cpu_context in pmu_cpu_context.
 */
#include <linux/perf_event.h>

struct hrtimer *uncore_probe(struct pmu *pmu, int cpu);

struct hrtimer *uncore_probe(struct pmu *pmu, int cpu)
{
	return &per_cpu_ptr(pmu->cpu_pmu_context, cpu)->hrtimer;
}
