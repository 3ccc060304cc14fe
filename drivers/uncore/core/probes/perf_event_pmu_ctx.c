// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: an event reaches its PMU's context through event->pmu_ctx (Linux
 * 6.2's context rewrite: one perf_event_context per CPU for every PMU);
 * before, perf_event_context had the pmu it belonged to.
 */
#include <linux/perf_event.h>

struct pmu *uncore_probe(struct perf_event *event);

struct pmu *uncore_probe(struct perf_event *event)
{
	return event->pmu_ctx->pmu;
}
