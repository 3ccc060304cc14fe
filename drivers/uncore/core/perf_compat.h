/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_pmu: every place the core relies on perf's internals, and every
 * difference between the kernels it builds for, in one header. Each item
 * says what it relies on and why no exported interface does the job.
 */
#ifndef _UNCORE_PMU_PERF_COMPAT_H
#define _UNCORE_PMU_PERF_COMPAT_H

#include <linux/math64.h>
#include <linux/perf_event.h>

/*
 * hwc->interrupts once perf throttled the event: kernel/events/core.c's
 * MAX_INTERRUPTS, which is private to it.
 */
#define UNCORE_THROTTLED	(~0ULL)

/*
 * perf's tick fits a frequency event's period to the count since
 * hwc->freq_count_stamp, taken as one tick's count. Setting the stamp one
 * tick's worth of counts (at the current period and frequency) behind the
 * count makes that fit return the period unchanged.
 */
static inline void uncore_freq_stamp(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 per_tick = div_u64(hwc->sample_period * event->attr.sample_freq,
			       HZ);

	hwc->freq_count_stamp = local64_read(&event->count) - per_tick;
}

#endif /* _UNCORE_PMU_PERF_COMPAT_H */
