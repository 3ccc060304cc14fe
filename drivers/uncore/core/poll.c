// SPDX-License-Identifier: GPL-2.0
/*
 * The box's poll timer: a pinned hard hrtimer on the box's reading CPU,
 * running while the box has events, that reads every running counter
 * before it can wrap twice, samples the events of a box that cannot
 * interrupt, restarts what the driver throttled, rewrites controls after
 * a fault, and notices another agent's writes to a counter's control.
 *
 * Context: uncore_poll() runs in hard IRQ context on the reading CPU;
 * the perf callbacks that share the box's state run there with IRQs
 * off, so neither interrupts the other. uncore_lost_work() runs in
 * process context (system_wq).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/sched/clock.h>
#include <linux/workqueue.h>

#include "internal.h"

static unsigned int poll_max_ms = 3600 * MSEC_PER_SEC;
module_param(poll_max_ms, uint, 0644);
MODULE_PARM_DESC(poll_max_ms,
		 "Longest time between two reads of a running counter by the box's timer, in ms (default 3600000, one hour; at least 1). The timer also checks that no other agent reprogrammed the counter");

/*
 * How often, at most, the timer reads the controls back for another
 * agent's writes (uncore_check_foreign()): at every tick of a box whose
 * counters need one that seldom, every few ticks of a box read more often
 * (a BDX HA's counter can take 1.3 minutes to wrap), so that no box's
 * timer reads more an hour than mainline's, which never checks
 * (Documentation/benchmarks.rst). poll_max_ms shortens it with the
 * period.
 */
#define UNCORE_FOREIGN_CHECK_NS	(10ULL * 60 * NSEC_PER_SEC)

/*
 * Is this tick one that checks the controls? One an interval after the
 * last check, less half a period, so that timer latency does not push a
 * check to the tick after; the interval as poll_max_ms is now, so that
 * lowering it takes effect at the next tick.
 */
static bool uncore_foreign_due(struct uncore_box *box, u64 now)
{
	u64 every = min_t(u64, UNCORE_FOREIGN_CHECK_NS,
			  (u64)max(READ_ONCE(poll_max_ms), 1U) * NSEC_PER_MSEC);

	if (box->foreign_checked &&
	    now - box->foreign_checked < every - min(every, box->poll_ns) / 2)
		return false;
	box->foreign_checked = now ?: 1;
	return true;
}

/**
 * uncore_set_poll_period() - how often the box's timer runs
 * @box: the box
 *
 * Often enough that no counter can wrap twice between two reads, every
 * sample tick while it has events that it samples, every tick while the
 * driver holds one of its events throttled.
 *
 * Context: the box's reading CPU, IRQs off.
 *
 * Return: true if that is sooner than before.
 */
bool uncore_set_poll_period(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;
	u64 period = U64_MAX, old = box->poll_ns;
	int i;

	for (i = 0; i < box->n_events; i++) {
		struct perf_event *event = box->events[i];
		u64 rate = uncore_event_max_rate(type, event->attr.config);

		period = min(period,
			     uncore_poll_period_ns(uncore_poll_width(type, event),
						   rate));
	}
	period = min_t(u64, period,
		       (u64)max(READ_ONCE(poll_max_ms), 1U) * NSEC_PER_MSEC);
	box->wrap_ns = period;
	if (box->n_timer)
		period = min(period, uncore_sample_tick_ns());
	if (box->n_throttled)
		period = min_t(u64, period, TICK_NSEC);
	if (box->faults & (BIT(UNCORE_BOX_FAULT) | BIT(UNCORE_BOX_REPROGRAM) |
			   BIT(UNCORE_BOX_RESYNC)))
		period = min_t(u64, period, UNCORE_FAULT_POLL_NS);
	box->poll_ns = period;
	return period < old;
}

/**
 * uncore_poll_start() - (re)start the box's timer
 * @box: the box
 *
 * Context: the box's reading CPU, IRQs off; anywhere but the timer itself.
 */
void uncore_poll_start(struct uncore_box *box)
{
	hrtimer_start(&box->hrtimer, ns_to_ktime(box->poll_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/* Restart the events the driver throttled, once their tick has passed. */
static void uncore_unthrottle(struct uncore_box *box)
{
	u64 now = local_clock();
	int i;

	for (i = 0; i < box->n_events; i++) {
		struct hw_perf_event *hwc = &box->events[i]->hw;

		if (!(hwc->flags & UNCORE_HWF_THROTTLED))
			continue;
		if (uncore_perf_throttled(hwc)) {
			/*
			 * Not while the CPU is over its budget: a sampling
			 * event restarted then costs a pass at its next
			 * overflow, and many boxes' events a pass each a tick.
			 */
			if (now - to_uevent(box->events[i])->thr_window < TICK_NSEC ||
			    uncore_over_budget(now))
				continue;
			uncore_perf_unthrottle(hwc);
			if (hwc->state & PERF_HES_STOPPED)
				uncore_pmu_start(box->events[i], 0);
		}
		/* Otherwise perf's tick restarted it first. */
		hwc->flags &= ~UNCORE_HWF_THROTTLED;
		box->n_throttled--;
	}
}

/**
 * uncore_reprogram() - rewrite running controls after a fault
 * @box: the box
 *
 * The box answers again after a fault (uncore_box_answered()): its running
 * events' controls are written again, in case an enabling write was lost.
 * The same value again changes nothing for a counter that kept counting.
 *
 * Context: the box's reading CPU, IRQs off.
 */
void uncore_reprogram(struct uncore_box *box)
{
	int i;

	if (!test_and_clear_bit(UNCORE_BOX_REPROGRAM, &box->faults) || box->dead)
		return;
	for (i = 0; i < box->n_events; i++) {
		struct perf_event *event = box->events[i];

		if (!(event->hw.state & PERF_HES_STOPPED))
			box->pmu->type->ops->enable_event(box, event);
	}
	uncore_box_sound(box);
}

/*
 * Another agent (likwid, PCM) programs the uncore behind perf's back when a
 * control no longer holds what the driver wrote: the counter counts
 * something else now, or was reset. The box's timer looks, as it reads the
 * counter anyway, so no hot path pays for it. What the counter did since
 * its last read is unknown: the event keeps the count of that read, stops
 * for good without another write to the register (it is the other agent's
 * now), and uncore_lost_work() has perf take it off the hardware. Not
 * while the box fails: a failed read is no foreign write.
 * On the reading CPU, IRQs off. Return: true if @event's counter is lost.
 */
static bool uncore_check_foreign(struct uncore_box *box,
				 struct perf_event *event)
{
	const struct uncore_type *type = box->pmu->type;
	u64 mask = type->ctl->readback, want, got;

	if (!mask || !type->ops->read_ctl || is_fixed_event(event) ||
	    test_bit(UNCORE_BOX_FAULT, &box->faults) ||
	    type->ops->read_ctl(box, event, &got))
		return false;
	want = event->hw.config | type->ctl->en;
	if (!((got ^ want) & mask))
		return false;
	event->hw.flags |= UNCORE_HWF_LOST;
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	/* The other agent's while the event is open, not the next event's. */
	to_uevent(event)->lost_idx = event->hw.idx;
	set_bit(event->hw.idx, &box->foreign);
	if (!test_and_set_bit(UNCORE_BOX_FOREIGN, &box->faults))
		pr_warn("%s, package %d: counter %d's control reads 0x%llx, not the 0x%llx written: another agent is programming this box; events whose counters it took stop counting\n",
			box->pmu->name, box->pkg, event->hw.idx, got & mask,
			want & mask);
	queue_work(system_wq, &to_uevent(event)->lost_work);
	return true;
}

/**
 * uncore_lost_work() - take an event that can count no more off the hardware
 * @work: the event's &struct uncore_event.lost_work
 *
 * After uncore_check_foreign() or the removal of the event's box
 * (uncore_box_kill()), or add() refusing such an event (uncore_park_irq()):
 * perf takes it off the hardware and out of its pmu's scheduling, and its
 * running time stops there (uncore_park_event(), which says how each
 * kernel shows it). A group it is in stops with it, as groups do.
 *
 * Context: process context (system_wq).
 */
void uncore_lost_work(struct work_struct *work)
{
	struct perf_event *event =
		container_of(work, struct uncore_event, lost_work)->event;

	uncore_park_event(event);
}

/**
 * uncore_park_irq() - queue uncore_lost_work() for an event add() refused
 * @work: the event's &struct uncore_event.park_irq
 *
 * add() runs under perf's context lock, where waking a worker could take
 * the runqueue lock that perf's context switch holds while it takes the
 * context lock; the irq_work queues it from outside.
 *
 * Context: the irq_work's (hard IRQ; a thread on PREEMPT_RT).
 */
void uncore_park_irq(struct irq_work *work)
{
	queue_work(system_wq,
		   &container_of(work, struct uncore_event, park_irq)->lost_work);
}

/**
 * uncore_poll() - the box's timer
 * @hrtimer: the box's &struct uncore_box.hrtimer
 *
 * Reads every running event, so that none wraps unseen, and samples those
 * of a box that cannot interrupt. Their samples carry the registers the
 * timer interrupted: the IP is whatever the reading CPU was running, not
 * the cause of the events.
 *
 * Context: hard IRQ on the box's reading CPU (a pinned hard hrtimer).
 *
 * Return: HRTIMER_RESTART.
 */
enum hrtimer_restart uncore_poll(struct hrtimer *hrtimer)
{
	struct uncore_box *box = container_of(hrtimer, struct uncore_box, hrtimer);
	struct pt_regs *regs = NULL, caller;
	int i, sampling = 0;
	bool running, check;
	u64 next;

	uncore_pass_begin();
	if (box->n_throttled)
		uncore_unthrottle(box);
	uncore_reprogram(box);
	/* The first tick that finds the box answering since its last fault. */
	if (unlikely(test_bit(UNCORE_BOX_RESYNC, &box->faults)) &&
	    !test_bit(UNCORE_BOX_FAULT, &box->faults) &&
	    test_and_clear_bit(UNCORE_BOX_RESYNC, &box->faults)) {
		regs = uncore_timer_regs(&caller);
		uncore_pmi_resync(box, regs);
	}
	check = uncore_foreign_due(box, local_clock());
	for (i = 0; i < box->n_events; i++) {
		struct perf_event *event = box->events[i];

		if (event->hw.state & PERF_HES_STOPPED ||
		    (check && uncore_check_foreign(box, event)))
			continue;
		uncore_event_update(box, event);
		if (!uncore_timer_event(event))
			continue;
		if (!regs)
			regs = uncore_timer_regs(&caller);
		uncore_sample(box, event, regs, &running);
		sampling += running;
	}
	uncore_set_poll_period(box);
	/*
	 * A box whose timer events are all throttled has nothing to sample
	 * before the tick that restarts them. A CPU over its budget has the
	 * rest of the window to itself: each box waiting a tick would still
	 * cost a pass per box a tick, on a package of thirty boxes more than
	 * the budget. No longer than the counters allow.
	 */
	next = box->poll_ns;
	if (box->n_timer && !sampling)
		next = max_t(u64, next, TICK_NSEC);
	next = max(next, min(uncore_budget_wait(local_clock()), box->wrap_ns));
	uncore_pass_end();
	hrtimer_forward_now(hrtimer, ns_to_ktime(next));
	return HRTIMER_RESTART;
}
