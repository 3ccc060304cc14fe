// SPDX-License-Identifier: GPL-2.0
/*
 * The perf callbacks of every uncore pmu: event_init and the event's
 * validation against its box type, add/del/start/stop/read and counter
 * assignment, transactions and the freeze that starts and stops a group
 * at once, the counts kept in 64 bits over narrow counters, and the
 * glue to the auxiliary-register arbitration of logic.c.
 *
 * Context: event_init and destroy run in process context and may sleep;
 * every other callback runs on the box's reading CPU with IRQs off, as
 * the poll timer (poll.c) and the PMI pass (pmi.c) do, so the box's state
 * needs no lock of its own there.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/topology.h>

#include "internal.h"

/* Test hook (debugfs open_delay_ms): widens the window of struct uncore_open. */
u32 uncore_open_delay_ms;

/*
 * Test hooks (debugfs), for a move that gives a box another reading CPU
 * while the old one is inside one of perf's transactions on it
 * (tests/vm/bdx/t_54_move_txn.sh). A move with uncore_move_delay_ms set
 * arms uncore_commit_armed (with its package + 1) at its first box of a
 * pmu with events, and waits for the next commit of a group in that
 * package to be held, IRQs off, for uncore_commit_delay_ms
 * (uncore_commit_held set meanwhile) before it changes box->cpu; then it
 * waits uncore_move_delay_ms more before perf moves the box's events
 * (package.c).
 */
u32 uncore_commit_delay_ms;
u32 uncore_move_delay_ms;
atomic_t uncore_commit_armed;
atomic_t uncore_commit_held;

/* The box of @pmu in this CPU's package, whichever CPU reads it. */
static struct uncore_box *uncore_pkg_box_here(struct pmu *pmu)
{
	int pkg = topology_logical_package_id(smp_processor_id());

	if (pkg < 0 || pkg >= uncore_max_pkgs)
		return NULL;
	return READ_ONCE(to_uncore_pmu(pmu)->boxes[pkg]);
}

/* The test hook of a group's commit, on the box's reading CPU. */
static void uncore_test_commit_delay(struct pmu *pmu)
{
	struct uncore_box *box;
	u32 ms;
	int i, n = 0;

	/* Every commit comes here: the one load when the hook is off. */
	if (likely(!atomic_read(&uncore_commit_armed)))
		return;
	box = uncore_pkg_box_here(pmu);
	ms = READ_ONCE(uncore_commit_delay_ms);
	if (!box || !ms || !(box->txn_flags & PERF_PMU_TXN_ADD))
		return;
	for (i = 0; i < box->n_events; i++)
		n += !!(box->events[i]->hw.flags & UNCORE_HWF_DEFER);
	if (n < 2 ||
	    atomic_cmpxchg(&uncore_commit_armed, box->pkg + 1, 0) != box->pkg + 1)
		return;
	pr_info("test hook: %s, package %d: a group's commit on CPU %d held %u ms\n",
		box->pmu->name, box->pkg, smp_processor_id(), ms);
	atomic_set(&uncore_commit_held, 1);
	mdelay(ms);
	atomic_set(&uncore_commit_held, 0);
}

/*
 * An event the part does not have (a K8 event of a later revision) is
 * refused: what it counts there is undefined.
 */
static bool uncore_event_exists(const struct uncore_type *type, u64 config)
{
	const struct uncore_avail *a;

	for (a = type->avail; a && a->avail; a++)
		if ((config & a->cmask) == a->code)
			return uncore_available(a->avail);
	return true;
}

/**
 * uncore_event_update() - add what a counter counted since its last read
 * @box: the event's box
 * @event: the event, running
 *
 * The delta over the counter's width is added to the event's count and
 * taken from a sampling event's countdown.
 *
 * Context: the box's reading CPU with IRQs off: perf callbacks, the poll
 * timer, the PMI pass.
 */
void uncore_event_update(struct uncore_box *box, struct perf_event *event)
{
	const struct uncore_type *type = box->pmu->type;
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now, delta, errors;

	/*
	 * A box whose device left keeps what its events had counted, and so
	 * does an event whose counter another agent took.
	 */
	if (box->dead || (hwc->flags & UNCORE_HWF_LOST))
		return;
	/*
	 * The loop keeps an update that the PMI handler interrupts exact:
	 * whichever stores prev_count second counts from the first's value.
	 */
	do {
		prev = local64_read(&hwc->prev_count);
		errors = box->stats.errors;
		now = type->ops->read_counter(box, event);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);
	/* A read that failed returned prev; one that worked ends a fault. */
	if (unlikely(test_bit(UNCORE_BOX_FAULT, &box->faults)) &&
	    box->stats.errors == errors)
		uncore_box_answered(box);

	delta = uncore_delta(prev, now, counter_width(type, event));
	local64_add(delta, &event->count);
	/* Whoever sees the counts, the period counts them down. */
	if (is_sampling_event(event)) {
		local64_sub(delta, &hwc->period_left);
		if (event->attr.freq) {
			local64_add(delta, &to_uevent(event)->freq_count);
			uncore_freq_stamp(event);
		}
	}
}

/**
 * uncore_event_max_rate() - fastest an event can count, per second
 * @type: its box type
 * @config: its attr.config
 *
 * A thresholded event adds at most one per clock; otherwise the event's
 * maximum increment per clock from the manual's tables, or the type's.
 *
 * Return: counts per second.
 */
u64 uncore_event_max_rate(const struct uncore_type *type, u64 config)
{
	u16 max_inc = type->max_inc;

	if (type->fixed_ctr_bits && config == UNCORE_FIXED_EVENT)
		return type->clock_hz;
	uncore_constraint_counters(type->constraints, config,
				   type->num_counters, &max_inc);
	if (config & type->ctl->thresh)
		max_inc = 1;
	return (u64)max_inc * type->clock_hz;
}

/*
 * Write the registers in @dirty (uncore_aux_get()), slot by slot in slot
 * order (struct uncore_type.write_aux).
 */
static void uncore_aux_write(struct uncore_box *box, u64 dirty)
{
	const struct uncore_type *type = box->pmu->type;
	const u32 all = GENMASK(UNCORE_AUX_REGS - 1, 0);
	int s;

	static_assert(UNCORE_AUX_SLOTS * UNCORE_AUX_REGS <= 64);
	for (s = 0; s < type->num_aux; s++) {
		u32 regs = (dirty >> (s * UNCORE_AUX_REGS)) & all &
			   GENMASK(type->aux[s].nregs - 1, 0);

		if (regs)
			type->write_aux(box, s, box->aux.st.val[s], regs);
	}
}

/**
 * uncore_box_init() - reset a box and its auxiliary registers
 * @box: the box
 *
 * Their reset values are not documented everywhere (BDX box reset leaves
 * the filters alone): the core's record of them is written whole, every
 * field cleared, as no event holds one yet. At a box's probe and at each
 * return of its package, before anyone can add an event to it.
 *
 * Context: the CPU online callback on a CPU of the box's package, or PCI
 * probe (process context).
 */
void uncore_box_init(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;

	/* A forwarding type has no registers of its own. */
	if (!type->forward) {
		type->ops->init_box(box);
		uncore_aux_scrub(type->aux, type->num_aux, &box->aux.st);
		uncore_aux_write(box, U64_MAX);
	}
	box->initialized = true;
}

/*
 * Give @event what it needs of its box's auxiliary registers, and the
 * control bits its chosen alternatives add. From add() with IRQs off. The
 * lock: while a package moves (uncore_pkg_move()), the old reading CPU's
 * del() may give back what the new one's add() takes.
 */
static bool uncore_get_aux(struct uncore_box *box, struct perf_event *event)
{
	const struct uncore_type *type = box->pmu->type;
	struct uncore_event *ue = to_uevent(event);
	unsigned long flags;
	u64 dirty;
	int i, err;

	if (!ue->aux.nreq)
		return true;
	raw_spin_lock_irqsave(&box->aux.lock, flags);
	err = uncore_aux_get(type->aux, &box->aux.st, &ue->aux, ue->aux_choice,
			     &dirty);
	if (!err)
		uncore_aux_write(box, dirty);
	raw_spin_unlock_irqrestore(&box->aux.lock, flags);
	if (err)
		return false;
	ue->aux_ctl = 0;
	for (i = 0; i < ue->aux.nreq; i++)
		ue->aux_ctl |= ue->aux.req[i].alt[ue->aux_choice[i]].ctl;
	ue->aux_ctl &= ~event->hw.config;
	event->hw.config |= ue->aux_ctl;
	return true;
}

/**
 * uncore_put_aux() - release what an event held of its box's aux registers
 * @box: the box
 * @event: the event
 *
 * Nothing is written: the fields keep their values (uncore_aux_put())
 * until another value is needed or uncore_scrub_aux() clears them. The
 * control bits its alternatives added go.
 *
 * Context: the box's reading CPU, IRQs off; takes the box's aux lock.
 */
void uncore_put_aux(struct uncore_box *box, struct perf_event *event)
{
	const struct uncore_type *type = box->pmu->type;
	struct uncore_event *ue = to_uevent(event);
	unsigned long flags;

	if (!ue->aux.nreq)
		return;
	raw_spin_lock_irqsave(&box->aux.lock, flags);
	uncore_aux_put(type->aux, &box->aux.st, &ue->aux, ue->aux_choice);
	raw_spin_unlock_irqrestore(&box->aux.lock, flags);
	event->hw.config &= ~ue->aux_ctl;
	ue->aux_ctl = 0;
}

/**
 * uncore_scrub_aux() - clear the auxiliary fields nobody holds
 * @info: the box (struct uncore_box *)
 *
 * Context: the box's reading CPU with IRQs off, an IPI from the destroy of
 * the box's last event that had auxiliary needs. Takes the box's aux
 * lock, as add() and del() there do.
 */
void uncore_scrub_aux(void *info)
{
	struct uncore_box *box = info;
	const struct uncore_type *type = box->pmu->type;
	unsigned long flags;
	u64 dirty;

	raw_spin_lock_irqsave(&box->aux.lock, flags);
	dirty = uncore_aux_scrub(type->aux, type->num_aux, &box->aux.st);
	/* A removed device takes no write; its state goes with it. */
	if (!box->dead)
		uncore_aux_write(box, dirty);
	raw_spin_unlock_irqrestore(&box->aux.lock, flags);
}

static u32 uncore_allowed(const struct uncore_type *type,
			  const struct perf_event *event)
{
	return to_uevent(event)->allowed;
}

/*
 * perf schedules a group member by member: add() for each, then, if one
 * does not fit, del() for those already added. A group member must not
 * count before the whole group is on the box, nor stop while the rest of
 * the group counts on: between perf's start_txn(PERF_PMU_TXN_ADD) and
 * commit_txn(), add() places an event but does not start it, and the
 * commit starts the group; a cancel leaves nothing to undo, perf's del()s
 * find the members never started. A group of two or more is started, and
 * taken off between pmu_disable and pmu_enable, with its box frozen
 * (BOX_CTL), so that its members count exactly the same events. Nothing
 * else freezes the box: a single event pays no register access for any
 * of this, and other events on the box lose no count to it. Every
 * callback runs on the box's reading CPU with IRQs off; the end of a
 * transaction or batch, on the CPU that began it (uncore_opened_box()).
 */

/* The box of @pmu this CPU reads, NULL if it reads none. */
static struct uncore_box *uncore_cpu_box(struct pmu *pmu)
{
	struct uncore_pmu *upmu = to_uncore_pmu(pmu);
	int cpu = smp_processor_id();
	int pkg = topology_logical_package_id(cpu);
	struct uncore_box *box;

	if (pkg < 0 || pkg >= uncore_max_pkgs)
		return NULL;
	box = READ_ONCE(upmu->boxes[pkg]);
	return box && READ_ONCE(box->cpu) == cpu ? box : NULL;
}

static bool uncore_in_group(const struct perf_event *event)
{
	return event->group_leader != event || event->nr_siblings;
}

/**
 * uncore_box_hold() - freeze the box, if its type can, until uncore_box_let_run()
 * @box: the box
 *
 * Context: the box's reading CPU, IRQs off.
 */
void uncore_box_hold(struct uncore_box *box)
{
	const struct uncore_ops *ops = box->pmu->type->ops;

	if (box->held || box->dead || !ops->freeze || !ops->freeze(box))
		return;
	box->held = true;
}

/**
 * uncore_box_let_run() - end the freeze uncore_box_hold() set
 * @box: the box
 *
 * Context: the box's reading CPU, IRQs off.
 */
void uncore_box_let_run(struct uncore_box *box)
{
	if (!box->held)
		return;
	box->held = false;
	if (!box->dead)
		box->pmu->type->ops->unfreeze(box);
}

/*
 * The box whose transaction (@txn) or batch this CPU opened, NULL if none.
 * The end of either acts on the box it began on even if a move has given
 * the box another reading CPU meanwhile: the move's hotplug callback, on
 * the new CPU, changes box->cpu while this CPU may be between the two
 * ends, IRQs off. Looked up by box->cpu, the end found no box: a commit
 * left its group unstarted, counting nothing until perf moved it, and a
 * pmu_enable left the box held, frozen (review pmi-protocol N13). It is
 * safe to finish here: perf's first step of the move on this CPU, taking
 * the events off, waits for this one, and the new CPU touches the box
 * only after that.
 */
static struct uncore_box *uncore_opened_box(struct pmu *pmu, bool txn)
{
	struct uncore_box *box = uncore_pkg_box_here(pmu);
	int cpu = smp_processor_id();

	if (!box || (txn ? box->txn_cpu : box->batch_cpu) != cpu)
		return NULL;
	return box;
}

static void uncore_pmu_disable(struct pmu *pmu)
{
	struct uncore_box *box = uncore_cpu_box(pmu);

	if (!box)
		return;
	box->batch_cpu = smp_processor_id();
}

static void uncore_pmu_enable(struct pmu *pmu)
{
	struct uncore_box *box = uncore_opened_box(pmu, false);

	if (!box)
		return;
	box->batch_cpu = -1;
	uncore_box_let_run(box);
}

static void uncore_start_txn(struct pmu *pmu, unsigned int flags)
{
	struct uncore_box *box = uncore_cpu_box(pmu);

	if (!box)
		return;
	box->txn_flags = flags;
	box->txn_cpu = smp_processor_id();
}

static int uncore_commit_txn(struct pmu *pmu)
{
	struct uncore_box *box;
	unsigned int flags;
	int i, n = 0;

	uncore_test_commit_delay(pmu);
	box = uncore_opened_box(pmu, true);
	if (!box)
		return 0;
	flags = box->txn_flags;
	box->txn_flags = 0;
	box->txn_cpu = -1;
	if (!(flags & PERF_PMU_TXN_ADD))
		return 0;
	for (i = 0; i < box->n_events; i++)
		n += !!(box->events[i]->hw.flags & UNCORE_HWF_DEFER);
	if (n > 1)
		uncore_box_hold(box);
	for (i = 0; i < box->n_events; i++) {
		struct perf_event *event = box->events[i];

		if (!(event->hw.flags & UNCORE_HWF_DEFER))
			continue;
		event->hw.flags &= ~UNCORE_HWF_DEFER;
		uncore_pmu_start(event, 0);
	}
	if (box->batch_cpu < 0)
		uncore_box_let_run(box);
	return 0;
}

static void uncore_cancel_txn(struct pmu *pmu)
{
	struct uncore_box *box = uncore_opened_box(pmu, true);

	if (!box)
		return;
	box->txn_flags = 0;
	box->txn_cpu = -1;
}

/**
 * uncore_pmu_start() - perf's start: program and enable an event's counter
 * @event: the event, stopped
 * @flags: PERF_EF_*
 *
 * A PMI event's counter is preloaded to overflow at the end of its period;
 * any other reads on from the counter's value (or from where a carried
 * counter was).
 *
 * Context: the box's reading CPU, IRQs off.
 */
void uncore_pmu_start(struct perf_event *event, int flags)
{
	struct uncore_box *box = event_box(event);
	struct hw_perf_event *hwc = &event->hw;

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	/*
	 * Throttled by the samples its stop emitted (uncore_sample_owed()),
	 * as perf's frequency tick stops and starts it: it stays stopped
	 * until its unthrottle, perf's or the driver's, restarts it.
	 */
	if (uncore_perf_throttled(hwc))
		return;
	/* Another agent's now (uncore_check_foreign()): it stays stopped. */
	if (hwc->flags & UNCORE_HWF_LOST)
		return;
	hwc->state = 0;
	if (box->dead)
		return;
	/* Frequency mode fits the period to the time since here. */
	if (event->attr.freq && !to_uevent(event)->freq_last) {
		to_uevent(event)->freq_last = local_clock();
		to_uevent(event)->freq_slot = 0;
		local64_set(&to_uevent(event)->freq_count, 0);
	}
	if (uncore_pmi_event(event)) {
		uncore_set_period(box, event);
	} else {
		if (is_sampling_event(event))
			uncore_period_begin(hwc, true);
		/* A carried counter reads on from its last read. */
		if (!(hwc->flags & UNCORE_HWF_MOVED))
			local64_set(&hwc->prev_count,
				    box->pmu->type->ops->read_counter(box, event));
	}
	hwc->flags &= ~UNCORE_HWF_MOVED;
	box->pmu->type->ops->enable_event(box, event);
}

/**
 * uncore_pmu_stop() - perf's stop: disable an event's counter
 * @event: the event
 * @flags: PERF_EF_UPDATE to count what it counted
 *
 * A group member taken off between pmu_disable and pmu_enable freezes its
 * box first, so the group stops as one. A sampling event counted here
 * emits the periods it owes (uncore_sample_owed()).
 *
 * Context: the box's reading CPU, IRQs off.
 */
void uncore_pmu_stop(struct perf_event *event, int flags)
{
	struct uncore_box *box = event_box(event);
	struct hw_perf_event *hwc = &event->hw;
	bool running = !(hwc->state & PERF_HES_STOPPED);

	if (running) {
		/* perf takes a group off between pmu_disable and pmu_enable. */
		if (box->batch_cpu >= 0 && uncore_in_group(event))
			uncore_box_hold(box);
		if (!box->dead)
			box->pmu->type->ops->disable_event(box, event);
	}
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		uncore_event_update(box, event);
		hwc->state |= PERF_HES_UPTODATE;
		/* Not yet marked stopped: perf's sample output skips those. */
		if (running && is_sampling_event(event))
			uncore_sample_owed(box, event);
	}
	hwc->state |= PERF_HES_STOPPED;
}

/*
 * perf asks this before it schedules an event in (event_filter_match(), in
 * the event's CPU context, ctx->lock held, IRQs off). An event that can
 * count no more, its box's device gone or its counter taken by another
 * agent, is passed over as an event of another CPU would be, rather than
 * refused by add(): a refusal ends perf's pass at that group (it takes the
 * PMU for full), and every event after it in the context, live ones and
 * those of sessions opened later, would get a counter only in turns with
 * the dead one. Passed over, it stays enabled but not running: perf shows
 * it scaled, or <not counted>, as any event that could not get a counter.
 * Kernels without ->filter_match disable it instead (perf_compat.h).
 */
static int __maybe_unused uncore_pmu_filter_match(struct perf_event *event)
{
	return !READ_ONCE(event_box(event)->dead) &&
	       !(event->hw.flags & UNCORE_HWF_LOST);
}

static int uncore_pmu_add(struct perf_event *event, int flags)
{
	struct uncore_box *box = event_box(event);
	const struct uncore_type *type = box->pmu->type;
	u32 allowed[UNCORE_MAX_EVENTS];
	int prev[UNCORE_MAX_EVENTS], assign[UNCORE_MAX_EVENTS];
	bool moved[UNCORE_MAX_EVENTS] = { };
	int i, n = box->n_events, idx = event->hw.idx;
	bool resume, dead;
	u32 taken;

	/*
	 * Only the box's reading CPU touches it. An event perf adds anywhere
	 * else (one left on the old CPU by a move that uncore_wait_opens()
	 * gave up waiting for) stays off, and perf's rotation tries again.
	 */
	if (READ_ONCE(box->cpu) != smp_processor_id())
		return -EAGAIN;
	/*
	 * An event that can count no more: passed over by ->filter_match()
	 * where perf has it, unless in a group; elsewhere not parked yet, or
	 * enabled again by its user (perf_compat.h).
	 */
	dead = READ_ONCE(box->dead);
	if (dead || (event->hw.flags & UNCORE_HWF_LOST)) {
		uncore_park_refused(&to_uevent(event)->park_irq);
		return dead ? -ENODEV : -EBUSY;
	}
	if (n >= UNCORE_MAX_EVENTS)
		return -ENOSPC;
	/* Its counter, carried over a move, counted on: it takes it back. */
	resume = (event->hw.flags & UNCORE_HWF_MOVED) && idx >= 0 &&
		 box->carried_ev[idx] == event;
	if (!resume) {
		event->hw.flags &= ~UNCORE_HWF_MOVED;
		if (!uncore_get_aux(box, event))
			return -EBUSY;
	}

	/*
	 * Counters carried over a move, or taken by another agent, are no
	 * one's to have. Two events are not moved off their counter: one
	 * that lost it (its del() comes soon, from uncore_lost_work()), and
	 * one that took its carried counter back and has not started yet
	 * (a group member whose start waits for the transaction's commit):
	 * its prev_count is that counter's, and it reads on from there
	 * (review pmi-protocol N14).
	 */
	taken = box->carried | READ_ONCE(box->foreign);
	for (i = 0; i < n; i++) {
		struct perf_event *other = box->events[i];

		allowed[i] = other->hw.flags & (UNCORE_HWF_LOST | UNCORE_HWF_MOVED) ?
			     BIT(box->assign[i]) :
			     uncore_allowed(type, other) & ~taken;
		prev[i] = box->assign[i];
	}
	allowed[n] = resume ? BIT(idx) : uncore_allowed(type, event) & ~taken;
	prev[n] = resume ? idx : -1;
	if (uncore_assign_counters(allowed, prev, n + 1, assign, NULL)) {
		if (resume)
			uncore_uncarry(box, idx);
		else
			uncore_put_aux(box, event);
		event->hw.flags &= ~UNCORE_HWF_MOVED;
		return -ENOSPC;
	}
	if (resume) {
		box->carried &= ~BIT(idx);
		box->carried_ev[idx] = NULL;
		uncore_carry_done(box, event);
	}

	/* Rarely needed: an earlier event makes room on a counter it may leave. */
	for (i = 0; i < n; i++) {
		struct perf_event *other = box->events[i];

		if (assign[i] == prev[i])
			continue;
		moved[i] = !(other->hw.state & PERF_HES_STOPPED);
		uncore_pmu_stop(other, PERF_EF_UPDATE);
		box->assign[i] = assign[i];
		other->hw.idx = assign[i];
	}

	box->events[n] = event;
	box->assign[n] = assign[n];
	box->n_events = n + 1;
	event->hw.idx = assign[n];
	event->hw.state = PERF_HES_UPTODATE | PERF_HES_STOPPED;
	uncore_sampling_mode(event,
			     uncore_pmi_reachable(box) &&
			     uncore_counter_interrupts(event));
	if (uncore_pmi_event(event))
		uncore_pmi_attach(box);
	else if (uncore_timer_event(event))
		box->n_timer++;

	for (i = 0; i < n; i++)
		if (moved[i])
			uncore_pmu_start(box->events[i], PERF_EF_RELOAD);
	if (flags & PERF_EF_START) {
		if (box->txn_flags & PERF_PMU_TXN_ADD)
			event->hw.flags |= UNCORE_HWF_DEFER;
		else
			uncore_pmu_start(event, 0);
	}

	/* A running timer keeps its expiry: restart it if that is too late. */
	if (uncore_set_poll_period(box) || n == 0)
		uncore_poll_start(box);
	return 0;
}

static void uncore_pmu_del(struct perf_event *event, int flags)
{
	struct uncore_box *box = event_box(event);
	bool carried = uncore_carry(box, event);
	int i;

	if (!carried)
		uncore_pmu_stop(event, PERF_EF_UPDATE);
	/* Its box is moving (uncore_pkg_move()): what it owes comes along. */
	if (is_sampling_event(event) &&
	    READ_ONCE(box->cpu) != smp_processor_id())
		event->hw.flags |= UNCORE_HWF_CARRY;
	for (i = 0; i < box->n_events; i++) {
		if (box->events[i] != event)
			continue;
		box->n_events--;
		box->events[i] = box->events[box->n_events];
		box->assign[i] = box->assign[box->n_events];
		box->events[box->n_events] = NULL;
		break;
	}
	if (!carried)
		uncore_put_aux(box, event);
	if (uncore_pmi_event(event))
		uncore_pmi_detach(box);
	else if (uncore_timer_event(event))
		box->n_timer--;
	if (event->hw.flags & UNCORE_HWF_THROTTLED) {
		event->hw.flags &= ~UNCORE_HWF_THROTTLED;
		box->n_throttled--;
	}
	event->hw.flags &= ~UNCORE_HWF_DEFER;
	if (!carried)
		event->hw.idx = -1;

	if (!box->n_events)
		hrtimer_cancel(&box->hrtimer);
	else
		uncore_set_poll_period(box);
}

/*
 * perf's read of a running event, on the box's reading CPU with IRQs off;
 * or in NMI context, through perf_event_read_local() (a BPF program of a
 * hardware sampling event). From NMI nothing is touched: a PCI box's config
 * access takes pci_config_lock, which the NMI may have interrupted on this
 * CPU, and the fault state and access counts of a box are not updated
 * atomically. Such a read returns the count of the event's last read (by
 * perf, the box's timer or a PMI pass). Review pmi-protocol N8.
 */
static void uncore_pmu_read(struct perf_event *event)
{
	struct uncore_box *box = event_box(event);

	if (in_nmi())
		return;
	if (unlikely(test_bit(UNCORE_BOX_REPROGRAM, &box->faults)))
		uncore_reprogram(box);
	if (!(event->hw.state & PERF_HES_STOPPED))
		uncore_event_update(box, event);
}

/*
 * Can the event's group ever be on its box at once? A group that cannot is
 * refused at open time instead of never being scheduled.
 */
static int uncore_validate_group(struct uncore_box *box,
				 struct perf_event *event)
{
	const struct uncore_type *type = box->pmu->type;
	struct perf_event *leader = event->group_leader, *sibling;
	struct perf_event *members[UNCORE_MAX_EVENTS];
	u32 allowed[UNCORE_MAX_EVENTS];
	int prev[UNCORE_MAX_EVENTS], assign[UNCORE_MAX_EVENTS];
	struct uncore_aux_state aux = { };
	u8 choice[UNCORE_AUX_REQS];
	u64 dirty;
	int i, n = 0;

	/*
	 * A new leader has no context yet (and no siblings); for a sibling,
	 * perf holds the leader's context mutex, which the walk asserts.
	 */
	if (leader == event)
		return 0;
	if (leader->pmu == event->pmu)
		members[n++] = leader;
	for_each_sibling_event(sibling, leader) {
		if (sibling->pmu != event->pmu || sibling == event)
			continue;
		if (n >= UNCORE_MAX_EVENTS - 1)
			return -EINVAL;
		members[n++] = sibling;
	}
	members[n++] = event;

	for (i = 0; i < n; i++) {
		allowed[i] = uncore_allowed(type, members[i]);
		prev[i] = -1;
		if (uncore_aux_get(type->aux, &aux, &to_uevent(members[i])->aux,
				   choice, &dirty))
			return -EINVAL;
	}
	return uncore_assign_counters(allowed, prev, n, assign, NULL) ? -EINVAL : 0;
}

/* A family's hw_config asked only for slots and fields its type has. */
static bool uncore_aux_valid(const struct uncore_type *type,
			     const struct uncore_aux_need *need)
{
	int i, a;

	for (i = 0; i < need->nreq; i++) {
		const struct uncore_aux_req *req = &need->req[i];

		if (!req->nalt)
			return false;
		for (a = 0; a < req->nalt; a++) {
			const struct uncore_aux_alt *alt = &req->alt[a];

			if (alt->slot >= type->num_aux ||
			    alt->fields & ~GENMASK(type->aux[alt->slot].nfields - 1, 0))
				return false;
		}
	}
	return true;
}

/**
 * uncore_event_config() - validate an event's config against its box type
 * @type: the box type
 * @event: the event; hw.config and hw.idx are set on success
 * @ue: its driver state; set to its allowed counters and what it needs of
 *	its box's auxiliary registers
 *
 * Every bit of config, config1 and config2 must belong to the type's
 * format, and the combination must be one the manual allows; the control
 * value written to the hardware is then exactly what the user asked for.
 *
 * One bit outside the format is taken and cleared from attr.config: the
 * control register's enable bit (&uncore_ctl_layout.en), where no format
 * field claims it. The driver sets it itself when the event starts, so a
 * config that carries it means the same event; Intel PCM passes the
 * control value it would write to the register, enable bit included.
 * Clearing it here lets every later reader of attr.config (the type's
 * hooks, group validation, the poll period) see the event as the format
 * defines it.
 *
 * Return: 0 or -EINVAL.
 */
int uncore_event_config(const struct uncore_type *type, struct perf_event *event,
			struct uncore_event *ue)
{
	struct perf_event_attr *attr = &event->attr;
	u16 unused;
	int err;

	memset(&ue->aux, 0, sizeof(ue->aux));
	ue->aux_ctl = 0;
	attr->config &= ~(type->ctl->en & ~type->config_mask);
	if ((attr->config & ~type->config_mask) ||
	    (attr->config1 & ~type->config1_mask) ||
	    (attr->config2 & ~type->config2_mask))
		return -EINVAL;

	if (type->fixed_ctr_bits && attr->config == UNCORE_FIXED_EVENT) {
		if (attr->config1 || attr->config2)
			return -EINVAL;
		ue->allowed = BIT(UNCORE_FIXED_IDX);
		event->hw.config = 0;
	} else {
		if ((attr->config & type->ctl->need_thresh) &&
		    !(attr->config & type->ctl->thresh))
			return -EINVAL;
		if (!uncore_event_exists(type, attr->config))
			return -EINVAL;
		ue->allowed = uncore_constraint_counters(type->constraints,
							 attr->config,
							 type->num_counters,
							 &unused);
		if (type->hw_config) {
			err = type->hw_config(type, event, ue);
			if (err)
				return err;
		}
		/* A table bug, not the user's: say so once, refuse the event. */
		if (WARN_ON_ONCE(!uncore_aux_valid(type, &ue->aux)) ||
		    WARN_ON_ONCE(!ue->allowed))
			return -EINVAL;
		event->hw.config = (attr->config & ~ue->aux.drop) | ue->aux.ctl;
	}
	event->hw.idx = -1;
	return 0;
}

/**
 * uncore_box_release() - free a box with its last reference
 * @ref: the box's kref
 *
 * Context: any, from kref_put().
 */
void uncore_box_release(struct kref *ref)
{
	struct uncore_box *box = container_of(ref, struct uncore_box, ref);

	kfree(box);
}

/* An event's reference on its box and pmu goes when perf frees the event. */
static void uncore_event_destroy(struct perf_event *event)
{
	struct uncore_box *box = event_box(event);
	int cpu;

	/* Off the box since its del(): nothing queues them again. */
	irq_work_sync(&to_uevent(event)->park_irq);
	cancel_work_sync(&to_uevent(event)->lost_work);
	if (to_uevent(event)->lost_idx >= 0)
		clear_bit(to_uevent(event)->lost_idx, &box->foreign);
	uncore_prune_opens(event, -1);

	/*
	 * The hotplug lock keeps the box's reading CPU, which owns its
	 * registers, in place.
	 */
	cpus_read_lock();
	cpu = READ_ONCE(box->cpu);
	/*
	 * Closed between a move's install and its end, never added back:
	 * its counter must not outlive it (uncore_pkg_uncarry()).
	 */
	if ((event->hw.flags & UNCORE_HWF_MOVED) && cpu >= 0)
		smp_call_function_single(cpu, uncore_drop_carried, event, true);

	mutex_lock(&uncore_box_mutex);
	box->pmu->nr_events--;
	/*
	 * The box's last event with auxiliary needs: what they left set is
	 * cleared for whoever uses the box next. An event of the box opened
	 * meanwhile takes what it needs in add(), under the aux lock. A
	 * package with no CPU has its boxes reset, and their fields cleared,
	 * when one comes back (uncore_box_init()).
	 */
	if (to_uevent(event)->aux.nreq && !--box->aux_events && cpu >= 0)
		smp_call_function_single(cpu, uncore_scrub_aux, box, true);
	mutex_unlock(&uncore_box_mutex);
	cpus_read_unlock();
	kref_put(&box->ref, uncore_box_release);
	kfree(to_uevent(event));
	event->pmu_private = NULL;
}

static int uncore_pmu_event_init(struct perf_event *event)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);
	struct uncore_open *open;
	struct uncore_event *ue;
	struct uncore_box *box;
	int err, pkg, cpu;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/* Counters of a socket: there is no task to follow. */
	if (event->cpu < 0 || (event->attach_state & PERF_ATTACH_TASK))
		return -EINVAL;
	/* Samples carry no instruction or branch of their own. */
	if (event->attr.precise_ip || has_branch_stack(event))
		return -EOPNOTSUPP;
	if (upmu->type->forward)
		return uncore_forward_init(upmu, event);

	ue = kzalloc(sizeof(*ue), GFP_KERNEL);
	if (!ue)
		return -ENOMEM;
	err = uncore_event_config(upmu->type, event, ue);
	if (err) {
		kfree(ue);
		return err;
	}
	ue->max_rate = uncore_event_max_rate(upmu->type, event->attr.config);
	ue->event = event;
	INIT_WORK(&ue->lost_work, uncore_lost_work);
	init_irq_work(&ue->park_irq, uncore_park_irq);
	ue->lost_idx = -1;
	pkg = topology_logical_package_id(event->cpu);
	open = kmalloc(sizeof(*open), GFP_KERNEL);
	if (!open) {
		kfree(ue);
		return -ENOMEM;
	}
	/* uncore_validate_group() finds the event's needs here. */
	event->pmu_private = ue;
	/* Keep the list short: it holds only events on their way. */
	uncore_prune_opens(NULL, -1);

	/*
	 * While the package's reading CPU changes, the CPU its events will
	 * be read on is not known: wait for the move to end.
	 */
again:
	err = uncore_wait_move(event, pkg);
	if (err)
		goto free;
	mutex_lock(&uncore_box_mutex);
	box = upmu->boxes[pkg];
	if (!box || READ_ONCE(box->cpu) < 0) {
		err = -ENODEV;
		goto out;
	}
	err = uncore_validate_group(box, event);
	if (err)
		goto out;
	spin_lock(&uncore_open_lock);
	/* Every event of a package is handled on its reading CPU. */
	cpu = uncore_move_cpu(box, event, pkg);
	if (cpu == -EAGAIN) {
		spin_unlock(&uncore_open_lock);
		mutex_unlock(&uncore_box_mutex);
		goto again;
	}
	if (cpu < 0) {
		spin_unlock(&uncore_open_lock);
		err = cpu;
		goto out;
	}
	event->cpu = cpu;
	open->event = event;
	open->cpu = event->cpu;
	list_add(&open->node, &uncore_opens);
	open = NULL;
	spin_unlock(&uncore_open_lock);

	ue->box = box;
	kref_get(&box->ref);
	upmu->nr_events++;
	if (ue->aux.nreq)
		box->aux_events++;
	upmu->used = true;
	event->destroy = uncore_event_destroy;
out:
	mutex_unlock(&uncore_box_mutex);
free:
	kfree(open);
	if (err) {
		event->pmu_private = NULL;
		kfree(ue);
		return err;
	}
	if (READ_ONCE(uncore_open_delay_ms))
		msleep(READ_ONCE(uncore_open_delay_ms));
	return 0;
}

/**
 * uncore_pmu_setup() - give a pmu the perf callbacks of this file
 * @upmu: the pmu, its attr_groups set
 */
void uncore_pmu_setup(struct uncore_pmu *upmu)
{
	upmu->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.task_ctx_nr	= perf_invalid_context,
		.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
		.attr_groups	= upmu->attr_groups,
		.event_init	= uncore_pmu_event_init,
		.add		= uncore_pmu_add,
		.del		= uncore_pmu_del,
		.start		= uncore_pmu_start,
		.stop		= uncore_pmu_stop,
		.read		= uncore_pmu_read,
		UNCORE_PMU_FILTER_MATCH
		.pmu_enable	= uncore_pmu_enable,
		.pmu_disable	= uncore_pmu_disable,
		.start_txn	= uncore_start_txn,
		.commit_txn	= uncore_commit_txn,
		.cancel_txn	= uncore_cancel_txn,
	};
}
