/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_pmu: every place the core relies on perf's internals, and every
 * difference between the kernels it builds for, in one header. Each item
 * says what it relies on and why no exported interface does the job.
 *
 * Differences are decided by what the kernel has, never by its version:
 * UNCORE_HAVE_<NAME> comes from a compile probe (probes/NAME.c, run by
 * probes/probes.mk against the kernel built for). Linux 6.1 has
 * PMU_FILTER_MATCH, 6.12 PERF_EVENT_PMU_CTX and CPU_PMU_CONTEXT. Outside this header the
 * driver and the simulator are written so that both kernels take the same
 * code (models matched by number, a copied resource initialiser, config
 * space through memcpy).
 */
#ifndef _UNCORE_PMU_PERF_COMPAT_H
#define _UNCORE_PMU_PERF_COMPAT_H

#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/sysfs.h>
#include <linux/trace_events.h>

/*
 * hwc->interrupts once perf throttled the event: kernel/events/core.c's
 * MAX_INTERRUPTS, which is private to it. perf's tick restarts an event
 * it finds with this value (perf_adjust_freq_unthr_context()), and so
 * does the driver's timer (uncore_unthrottle()); no exported call
 * throttles or unthrottles an event.
 */
#define UNCORE_THROTTLED	(~0ULL)

static inline void uncore_perf_throttle(struct hw_perf_event *hwc)
{
	hwc->interrupts = UNCORE_THROTTLED;
}

static inline bool uncore_perf_throttled(const struct hw_perf_event *hwc)
{
	return hwc->interrupts == UNCORE_THROTTLED;
}

static inline void uncore_perf_unthrottle(struct hw_perf_event *hwc)
{
	hwc->interrupts = 0;
}

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

/**
 * struct uncore_emitter - samples of one event on their way to perf
 * @head: the list perf_tp_event() walks: the event alone
 * @count: the event's count, put back at the end
 *
 * perf_event_overflow() is not exported to modules (Linux 6.1). The
 * exported way to the same sample output is perf_tp_event(): given a list
 * of events and a count, it feeds each event to perf's software-event
 * overflow code (perf_swevent_event()), which adds the count to the event
 * and takes a sample per period elapsed in it. The list holds the event
 * alone, through its hlist_entry (perf's, unused by a hardware event),
 * its countdown set so that the count given is exactly one period
 * (perf_swevent_set_period()).
 *
 * A sample with PERF_SAMPLE_READ reads event->count after perf added the
 * period: so the count is set one period short of where that sample's
 * period ended, and put back to what the driver counted afterwards. Until
 * then a read() on another CPU (perf reads an uncore count after the IPI
 * that updated it) may see the value of one of these samples.
 *
 * Use: uncore_emit_begin(), uncore_emit_one() per sample, uncore_emit_end(),
 * on one CPU with IRQs off.
 */
struct uncore_emitter {
	struct hlist_head head;
	u64 count;
};

static inline void uncore_emit_begin(struct uncore_emitter *em,
				     struct perf_event *event)
{
	em->count = local64_read(&event->count);
	INIT_HLIST_HEAD(&em->head);
	rcu_read_lock();
	hlist_add_head_rcu(&event->hlist_entry, &em->head);
}

/*
 * One sample of @event for a period of @period counts that began at count
 * @at, with the registers @regs. Return: false if perf would not take it
 * (this CPU is in perf's sample code already), true otherwise.
 */
static inline bool uncore_emit_one(struct uncore_emitter *em,
				   struct perf_event *event,
				   struct pt_regs *regs, u64 period, u64 at)
{
	struct hw_perf_event *hwc = &event->hw;
	/* The raw record of a tracepoint sample: empty here. */
	struct trace_entry rec = { };
	int rctx;

	rctx = perf_swevent_get_recursion_context();
	if (rctx < 0)
		return false;
	local64_set(&hwc->period_left, -(s64)period);
	hwc->last_period = period;
	local64_set(&event->count, at);
	/* It puts the recursion context back. */
	perf_tp_event(0, period, &rec, sizeof(rec), regs, &em->head, rctx,
		      NULL);
	return true;
}

static inline void uncore_emit_end(struct uncore_emitter *em,
				   struct perf_event *event)
{
	hlist_del_init_rcu(&event->hlist_entry);
	rcu_read_unlock();
	local64_set(&event->count, em->count);
}

/*
 * Has perf installed @event in a context? perf_install_in_context() sets
 * event->ctx (6.1, with a release store); no exported call tells whether
 * an event that event_init accepted has reached its CPU's context yet.
 */
static inline bool uncore_event_installed(struct perf_event *event)
{
	return READ_ONCE(event->ctx);
}

/*
 * Is @leader in a context of @pmu? 6.1's perf_event_context has the pmu
 * it belongs to; since 6.2 there is one context per CPU for every pmu,
 * and an event reaches its pmu's share of it through event->pmu_ctx. The
 * caller holds the leader's context mutex (perf holds it around a group
 * member's event_init, in both), which keeps the answer stable.
 */
#ifdef UNCORE_HAVE_PERF_EVENT_PMU_CTX
#define uncore_have_pmu_ctx	true

static inline bool uncore_leader_in_ctx_of(struct perf_event *leader,
					   struct pmu *pmu)
{
	return leader->pmu_ctx && leader->pmu_ctx->pmu == pmu;
}
#else
#define uncore_have_pmu_ctx	false

static inline bool uncore_leader_in_ctx_of(struct perf_event *leader,
					   struct pmu *pmu)
{
	return leader->ctx && leader->ctx->pmu == pmu;
}
#endif

/*
 * Register @pmu under @name. 6.12's perf_pmu_register() creates the pmu's
 * device only if pmu->dev is NULL, and neither it nor perf_pmu_unregister()
 * clears the pointer to the device it freed; 6.1 creates one each time. A
 * pmu registered again (its PCI box unbound, then bound) starts from NULL
 * on both, so it gets a device, and the next unregister frees its own.
 */
static inline int uncore_perf_pmu_register(struct pmu *pmu, const char *name)
{
	pmu->dev = NULL;
	return perf_pmu_register(pmu, name, -1);
}

/*
 * perf_pmu_unregister() frees the pmu's per-CPU contexts, and the
 * multiplexing hrtimer each one holds, without cancelling the timer (6.1's
 * free_pmu_context(), 6.12's alike). A timer is queued for one interval
 * whenever the pmu's events take turns, and on every online CPU, events or
 * not, by a write of the pmu's perf_event_mux_interval_ms: freed queued,
 * it is a node in the CPU's timer tree in memory the next alloc_percpu()
 * hands out and initialises (review pmi-protocol N18; t_71_mux_timer.sh
 * crashed both kernels so). The pmu has no events by now, so only that
 * file can queue one again: it goes first (its removal waits for writers
 * in progress), then every CPU's timer is cancelled. perf's device_del()
 * passes over the missing file. No exported call does either.
 */
#ifdef UNCORE_HAVE_CPU_PMU_CONTEXT
#define uncore_mux_timer(pmu, cpu) \
	(&per_cpu_ptr((pmu)->cpu_pmu_context, cpu)->hrtimer)
#else
#define uncore_mux_timer(pmu, cpu) \
	(&per_cpu_ptr((pmu)->pmu_cpu_context, cpu)->hrtimer)
#endif

static inline void uncore_perf_pmu_unregister(struct pmu *pmu)
{
	static const struct attribute mux = {
		.name = "perf_event_mux_interval_ms",
	};
	int cpu;

	if (pmu->dev)
		sysfs_remove_file(&pmu->dev->kobj, &mux);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(uncore_mux_timer(pmu, cpu));
	perf_pmu_unregister(pmu);
}

/*
 * An event that can count no more (its box's device gone, its counter
 * taken by another agent) must leave perf's scheduling without costing
 * the live events of its pmu their counters, and without its running time
 * going on.
 *
 * Where struct pmu has ->filter_match(event) (6.1), the driver's passes
 * such an event over at scheduling (uncore_pmu_filter_match()), and
 * uncore_park_event() has perf schedule it anew by a disable and an
 * enable: it stays enabled, not running, and perf scales it or shows it
 * <not counted>, as any event that could not get a counter.
 *
 * 6.2 replaced the hook with ->filter(pmu, cpu), which passes over every
 * event of a pmu on a CPU, live ones too, and no exported call takes one
 * event out of scheduling but perf_event_disable(). An event left enabled
 * there would be refused by add() at each pass, which ends the pass at it:
 * the events after it, those of a box bound again on the same pmu too,
 * would get a counter only in turns with it. So it is disabled: its
 * enabled and running times both stop where it stopped counting, and it
 * keeps its count. A user who enables it again, or an event that was off
 * its box when the box went, finds add() refusing it, which has it parked
 * too (uncore_park_refused()).
 * Documentation/uncore_pmu.rst, "Faults and other agents".
 */
#ifdef UNCORE_HAVE_PMU_FILTER_MATCH
#define uncore_have_filter_match	true
/* In pmu.c's struct pmu initializer. */
#define UNCORE_PMU_FILTER_MATCH		.filter_match = uncore_pmu_filter_match,

/* A user's disable that lands between the two is undone: it stays enabled. */
static inline void uncore_park_event(struct perf_event *event)
{
	perf_event_disable(event);
	perf_event_enable(event);
}

/*
 * ->filter_match() keeps such a group leader from add(). A group member
 * is refused there and fails its group, as groups do: parked again, it
 * would only have its group scheduled into the same refusal.
 */
static inline void uncore_park_refused(struct irq_work *park)
{
}
#else
#define uncore_have_filter_match	false
#define UNCORE_PMU_FILTER_MATCH

static inline void uncore_park_event(struct perf_event *event)
{
	perf_event_disable(event);
}

/* Disabled, it is scheduled no more, alone or in its group. */
static inline void uncore_park_refused(struct irq_work *park)
{
	irq_work_queue(park);
}
#endif

/*
 * Wait until perf holds nothing of a pmu whose last event was freed, so
 * that perf_pmu_unregister() frees no CPU context under it. perf puts an
 * event's context only after its ->destroy() (_free_event(), 6.1), and the
 * task freeing the event does no voluntary context switch in between:
 * once every task has made one, perf is done with its events. (Not with
 * the pmu's multiplexing timers: uncore_perf_pmu_unregister().) No
 * exported call waits for an event's context to be put.
 */
static inline void uncore_wait_events_freed(void)
{
	synchronize_rcu_tasks();
}

/*
 * What event_init returns to hand an event on to the PMU of the attr.type
 * it rewrote: perf_init_event() (6.1) offers an event to the PMU of its
 * new attr.type when event_init returns -ENOENT having changed it. No
 * exported call lets a PMU create an event on another.
 */
#define UNCORE_HAND_ON	(-ENOENT)

#endif /* _UNCORE_PMU_PERF_COMPAT_H */
