// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: struct pmu has ->filter_match(event) (Linux 6.1; 6.2's context
 * rewrite replaced it with a per-CPU ->filter(pmu, cpu)).
 */
#include <linux/perf_event.h>

int uncore_probe(struct perf_event *event);

int uncore_probe(struct perf_event *event)
{
	return event->pmu->filter_match(event);
}
