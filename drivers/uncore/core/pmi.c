// SPDX-License-Identifier: GPL-2.0
/*
 * The PMI protocol, for platforms whose overflow freezes the package
 * until software unfreezes it (&struct uncore_pmi): routing the PMI to a
 * package's reading CPU, the NMI handler that claims it, the pass in hard
 * IRQ context that samples, acknowledges and unfreezes, the forward from
 * an SMT sibling that took it, and the hand-over at the end of a move.
 * Documentation/uncore_pmu.rst, "The PMI protocol", says why each step is
 * where it is.
 *
 * Context: uncore_nmi_handler() in NMI context, on the routed CPU or its
 * sibling: atomics and MSR reads only. The pass (uncore_pmi_work()) in
 * hard IRQ context on the reading CPU. The rest on the reading CPU with
 * IRQs off (perf callbacks, IPIs from the hotplug callbacks), or in
 * process context at init and exit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/sched/clock.h>
#include <linux/irq_work.h>
#include <linux/smp.h>
#include <linux/topology.h>
#include <asm/nmi.h>

#include "internal.h"

static bool uncore_nmi_registered;

/*
 * Test hooks (debugfs): widen two windows of a move's end, in which the
 * old and the new reading CPU must not both act on the package's PMI
 * (tests/vm/bdx/t_52_handover.sh). uncore_pass_delay_ms holds a pass
 * between taking the route it writes and writing it;
 * uncore_handover_delay_ms holds the new reading CPU, IRQs off, before it
 * takes the route over.
 */
u32 uncore_pass_delay_ms;
u32 uncore_handover_delay_ms;

/*
 * Test hooks (debugfs) for a pass on a CPU that does not read the package
 * while a PCI box of it is removed (review N12, t_56_smt.sh). Once set,
 * uncore_forward_unreachable makes the next NMI a sibling takes for the
 * package run its pass there, as during a move, but with no hotplug lock
 * held to keep a removal away. uncore_stale_delay_ms holds the stale-status
 * walk once it has loaded the box of the pmu whose perf type is
 * uncore_stale_delay_type.
 */
u32 uncore_forward_unreachable;
u32 uncore_stale_delay_ms;
u32 uncore_stale_delay_type;

/**
 * uncore_pmi_routable() - can the platform route its PMI to a CPU
 * @cpu: the CPU, or -1
 *
 * Context: any.
 *
 * Return: true if the platform has a PMI and its route() can name @cpu.
 */
bool uncore_pmi_routable(int cpu)
{
	return uncore_plat->pmi && cpu >= 0 && uncore_plat->pmi->route(cpu);
}

/**
 * uncore_pmi_reachable() - can a box's sampling events take the PMI path here
 * @box: the box, on its reading CPU
 *
 * Only if the box signals overflows, the PMI can reach this CPU, and the
 * package is not in the middle of a move, during which the PMI still goes
 * to the CPU the move started from.
 *
 * Context: the box's reading CPU, IRQs off.
 *
 * Return: true if they can.
 */
bool uncore_pmi_reachable(const struct uncore_box *box)
{
	return box->pmi_mask && !READ_ONCE(uncore_pkgs[box->pkg].pmi.moving) &&
	       uncore_pmi_routable(smp_processor_id());
}

/* The box's overflow status bits, 0 if it has none. */
static u32 uncore_box_status(struct uncore_box *box)
{
	const struct uncore_ops *ops = box->pmu->type->ops;

	return ops->read_status ? ops->read_status(box) : 0;
}

static void uncore_box_status_clear(struct uncore_box *box, u32 st)
{
	box->pmu->type->ops->clear_status(box, st);
}

/*
 * The stale-status walk's test hook: hold it on @upmu's box @box of @pkg,
 * at most uncore_stale_delay_ms, until removal takes the box out of the
 * pmu, then half a second more, in which removal frees an eventless box.
 */
static void uncore_stale_hold(const struct uncore_pmu *upmu, int pkg,
			      const struct uncore_box *box)
{
	u32 ms = READ_ONCE(uncore_stale_delay_ms);

	if (upmu->pmu.type != READ_ONCE(uncore_stale_delay_type))
		return;
	pr_info("test hook: the stale-status walk holds %s's box of package %d on CPU %d, %u ms at most\n",
		upmu->name, pkg, smp_processor_id(), ms);
	while (ms && READ_ONCE(upmu->boxes[pkg]) == box) {
		mdelay(1);
		ms--;
	}
	if (ms)
		mdelay(min(ms, 500U));
}

/*
 * Status bits @bits of boxes of package @pkg that have no sampling event
 * here: counting events that wrapped set them too (a box's status records
 * every overflow, NHM-EX 000:73-79), and nothing else would clear them, so
 * that every NMI from then on would find them unclaimed and be taken for
 * the package's PMI. Their events lose nothing by it: a wrap is a delta at
 * their next read. On the reading CPU, IRQs off (the pass, or an add()),
 * so no event is added meanwhile; or, during a move, on a sibling that
 * took an NMI (uncore_pmi_forward()). PCI boxes are never loaded, their
 * status stays as it was: removal frees an eventless box once its kill
 * IPI to the reading CPU returns, so only the hotplug lock, which a move
 * holds for writing and removal for reading, would keep it from under a
 * sibling's walk; this walk does not lean on that (review N12).
 */
static void uncore_clear_stale(int pkg, u64 bits)
{
	bool hook = unlikely(READ_ONCE(uncore_stale_delay_ms));
	int i;

	if (hook)
		pr_info("test hook: package %d's stale-status walk for %#llx on CPU %d\n",
			pkg, bits, smp_processor_id());
	for (i = 0; i < uncore_n_pmus && bits; i++) {
		struct uncore_box *box;
		u32 st;

		/* The type first: a PCI box may be freed under this load. */
		if (uncore_pmus[i]->type->pci)
			continue;
		box = READ_ONCE(uncore_pmus[i]->boxes[pkg]);
		if (hook && box)
			uncore_stale_hold(uncore_pmus[i], pkg, box);
		if (!box || box->dead || box->n_pmi ||
		    !(box->pmi_mask & bits) ||
		    READ_ONCE(box->cpu) != smp_processor_id())
			continue;
		st = uncore_box_status(box);
		if (st)
			uncore_box_status_clear(box, st);
	}
}

/*
 * A write of global status or control failed (a #GP that a hypervisor
 * raises now and then, say): the package may stay frozen, or its status
 * set, with no PMI left to come. On the reading CPU, the pass runs again
 * a little later (uncore_pmi_retry()), until the writes go through. Not
 * on the sibling that runs a pass for a reading CPU gone offline: the
 * package's next reading CPU starts afresh.
 */
static void uncore_pmi_failed(struct uncore_pkg_pmi *p, int err)
{
	if (unlikely(err) && READ_ONCE(p->cpu) == smp_processor_id())
		hrtimer_start(&p->retry, ns_to_ktime(UNCORE_FAULT_POLL_NS),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * The retry timer, in hard IRQ context on the reading CPU it was started
 * on: a pass from the status found now (its bits claimed, as an NMI
 * would), which ends the freeze if the writes go through this time.
 */
static enum hrtimer_restart uncore_pmi_retry(struct hrtimer *timer)
{
	struct uncore_pkg_pmi *p = container_of(timer, struct uncore_pkg_pmi,
						retry);
	u64 status;

	if (READ_ONCE(p->cpu) != smp_processor_id())
		return HRTIMER_NORESTART;
	p->retries++;
	if (!uncore_plat->pmi->read_status(p->gbox, &status))
		atomic64_or(status, &p->claimed);
	irq_work_queue(&p->work);
	return HRTIMER_NORESTART;
}

/* The route a pass writes: nowhere from a CPU that does not read the package (now). */
static u64 uncore_pmi_route_here(struct uncore_pkg_pmi *p)
{
	return READ_ONCE(p->cpu) == smp_processor_id() ? p->ctl : 0;
}

/*
 * A box's part of a pass: its sampling events are processed whether or
 * not their own status bit is set, the countdown deciding; the status read
 * before is cleared after, box status before global status (a new freeze
 * needs both cleared, 2.1.1.1).
 */
static void uncore_pmi_box(struct uncore_pkg_pmi *p, struct uncore_box *box,
			   struct pt_regs *regs)
{
	u32 st = uncore_box_status(box);
	int i;

	for (i = 0; i < box->n_events; i++) {
		struct perf_event *event = box->events[i];

		if (uncore_pmi_event(event) &&
		    !(event->hw.state & PERF_HES_STOPPED))
			uncore_pmi_sample(p, box, event, regs);
	}
	if (st)
		uncore_box_status_clear(box, st);
}

/*
 * The handler proper, on the PMI's CPU in hardirq context, the package
 * frozen: BDX manual 2.1.3 and 2.1.4. Every box in a group that reported
 * an overflow is visited (one global status bit covers all channels of an
 * iMC, both ports of QPI 0, ...); its sampling events are processed
 * whether or not their own status bit is set, the countdown deciding,
 * and its counting events are left alone: frozen, they lose nothing, and
 * a wrap of theirs is a plain delta at their next read. Box status is
 * cleared before global status (a new freeze needs both cleared,
 * 2.1.1.1), then the claim, then the package is unfrozen: an overflow
 * from the moment the counters run again finds its bits unclaimed.
 *
 * The NMI that claimed the status may have come before the overflow's
 * freeze landed (an unrelated NMI in between, review pmi-protocol N7),
 * and a retry's pass follows no freeze at all: so the pass freezes the
 * package itself first, as the manual has software do before it reads
 * counters (BDX 2.1.3), and no count falls between a counter's read and
 * its reload, nor a carry between a PCI counter's two dword writes.
 *
 * A pass with nothing claimed comes from an NMI taken as an owed PMI: its
 * freeze has landed after an earlier pass unfroze, and only the unfreeze
 * is left to do.
 */
static void uncore_pmi_work(struct irq_work *work)
{
	struct uncore_pkg_pmi *p = container_of(work, struct uncore_pkg_pmi, work);
	const struct uncore_pmi *pmi = uncore_plat->pmi;
	u64 status = atomic64_read(&p->claimed), covered = 0, ctl;
	struct uncore_box *box;
	struct pt_regs regs;
	int err = 0;

	/*
	 * The samples carry the handler's own registers. The NMI's are not
	 * kept: the irq_work vector sets no irq_regs, and by now the stack
	 * those registers describe may have moved on, so a callchain
	 * unwound from them would be garbage.
	 */
	perf_fetch_caller_regs(&regs);

	if (status)
		err = pmi->freeze(p->gbox, uncore_pmi_route_here(p));
	uncore_pass_begin();
	list_for_each_entry(box, &p->boxes, pmi_node) {
		covered |= box->pmi_mask;
		if (!(box->pmi_mask & status) || box->dead)
			continue;
		/*
		 * A box that changed reading CPU since its events were added
		 * is left to them: a move takes each one off the old CPU
		 * right after this changes, and the new CPU's timer emits
		 * what the box owes (UNCORE_HWF_CARRY).
		 */
		if (READ_ONCE(box->cpu) != smp_processor_id())
			continue;
		uncore_pmi_box(p, box, &regs);
		/* The timer restarts what the driver throttled. */
		if (box->n_throttled && uncore_set_poll_period(box))
			uncore_poll_start(box);
	}
	if (status & ~covered)
		uncore_clear_stale(p->gbox->pkg, status & ~covered);
	if (status) {
		err = pmi->ack(p->gbox, status);
		atomic64_andnot(status, &p->claimed);
	}
	ctl = uncore_pmi_route_here(p);
	if (unlikely(READ_ONCE(uncore_pass_delay_ms)))
		mdelay(READ_ONCE(uncore_pass_delay_ms));
	err |= pmi->unfreeze(p->gbox, ctl);
	p->handled++;
	uncore_pmi_failed(p, err);
	uncore_pass_end();
}

/*
 * In NMI context: the PMI state of this CPU's package if its PMI is routed
 * to this CPU's core, NULL otherwise. pmi_core_sel names cores (BDX manual
 * Table 2-2): the PMI may come to either thread of the reading CPU's core,
 * whichever is online. The reading CPU in @rcpu.
 */
static struct uncore_pkg_pmi *uncore_pmi_here(int cpu, int *rcpu)
{
	int pkg = topology_logical_package_id(cpu);
	struct uncore_pkg_pmi *p;

	if (pkg < 0 || pkg >= uncore_max_pkgs)
		return NULL;
	p = &uncore_pkgs[pkg].pmi;
	*rcpu = READ_ONCE(p->cpu);
	if (*rcpu < 0 || !p->gbox)
		return NULL;
	if (*rcpu != cpu &&
	    !cpumask_test_cpu(cpu, topology_sibling_cpumask(*rcpu)))
		return NULL;
	return p;
}

/*
 * The NMI handler, on the CPU the PMI is routed to. An NMI there is ours
 * if global status shows an overflow not claimed yet; or, while a PMI is
 * owed (@owed: status was claimed before its freeze could be known to have
 * landed), the first NMI that finds no new status is taken as that PMI.
 * Either way the NMI is claimed and the work queued; nothing more is done
 * in NMI context: the PCI boxes' registers are not safe to touch there
 * (the config mechanism takes a lock the interrupted code may hold), and
 * everything else the handler needs is touched by perf callbacks that run
 * with IRQs off, which the irq_work does not interrupt. The package stays
 * frozen meanwhile.
 */
static int uncore_nmi_handler(unsigned int cmd, struct pt_regs *regs)
{
	const struct uncore_pmi *pmi = uncore_plat->pmi;
	int cpu = smp_processor_id(), rcpu;
	struct uncore_pkg_pmi *p;
	u64 status;

	p = uncore_pmi_here(cpu, &rcpu);
	if (!p || pmi->read_status(p->gbox, &status))
		return NMI_DONE;
	/* Most NMIs here are not ours: no locked operation for status 0. */
	if (status && (status & ~atomic64_fetch_or(status, &p->claimed))) {
		/* Unless this NMI is the PMI, the PMI is still to come. */
		atomic_set(&p->owed, 1);
		atomic_set(&p->late, 1);
		atomic64_inc(&p->nmi);
	} else if (atomic_xchg(&p->owed, 0)) {
		atomic64_inc(&p->owed_nmi);
	} else {
		return NMI_DONE;
	}
	irq_work_queue(cpu == rcpu ? &p->work : &p->fwd);
	return NMI_HANDLED;
}

/*
 * After every NMI_LOCAL handler passed on an NMI, and the kernel is about
 * to report it as unknown, on the CPU the PMI is routed to: the PMI of an
 * overflow whose status was taken, and whose owed mark was spent, by two
 * NMIs that came between the overflow and its freeze (the backtraces of
 * sysrq l, the NMI watchdog and a perf sample). Nothing else would end
 * that freeze. Taken once per claimed overflow: an unknown NMI of other
 * origin on this core is swallowed at most that often while sampling is
 * in use, and costs one pass that only unfreezes.
 */
static int uncore_nmi_unknown(unsigned int cmd, struct pt_regs *regs)
{
	int cpu = smp_processor_id(), rcpu;
	struct uncore_pkg_pmi *p;

	p = uncore_pmi_here(cpu, &rcpu);
	if (!p || !atomic_xchg(&p->late, 0))
		return NMI_DONE;
	atomic64_inc(&p->late_nmi);
	irq_work_queue(cpu == rcpu ? &p->work : &p->fwd);
	return NMI_HANDLED;
}

/* On the reading CPU, in IPI context: the pass a sibling's NMI owes. */
static void uncore_pmi_remote(void *info)
{
	struct uncore_pkg_pmi *p = info;

	irq_work_queue(&p->work);
	atomic_set_release(&p->csd_busy, 0);
}

/* On the sibling that took the PMI, in hardirq context. */
static void uncore_pmi_forward(struct irq_work *work)
{
	struct uncore_pkg_pmi *p = container_of(work, struct uncore_pkg_pmi, fwd);
	int rcpu = READ_ONCE(p->cpu), err;

	/* One in flight is enough: the pass handles whatever is claimed. */
	if (atomic_xchg(&p->csd_busy, 1))
		return;
	if (unlikely(READ_ONCE(uncore_forward_unreachable)) &&
	    xchg(&uncore_forward_unreachable, 0)) {
		pr_info("test hook: package %d's pass runs on CPU %d, its reading CPU %d taken for unreachable\n",
			p->gbox->pkg, smp_processor_id(), rcpu);
		err = -ENXIO;
	} else {
		err = rcpu >= 0 ? smp_call_function_single_async(rcpu, &p->csd) :
				  -ENXIO;
	}
	if (!err)
		return;
	atomic_set(&p->csd_busy, 0);
	/*
	 * A move has taken the PMI from the reading CPU (p->cpu is -1 until
	 * the new one takes it). The IPI cannot fail otherwise: a reading CPU
	 * gives up p->cpu (uncore_pmi_stop(), on it) before it goes offline,
	 * as the move runs in its teardown callback, while it is still online.
	 * Its events are all off its boxes, @boxes is empty, and the pass only
	 * clears status and freeze, routing the PMI nowhere. A move waits for
	 * this work before the new reading CPU takes the PMI
	 * (uncore_pmi_sync()). The forward_unreachable test hook comes here
	 * outside a move, and leaves the package unrouted until a reload.
	 */
	uncore_pmi_work(&p->work);
}

/*
 * On a package's reading CPU, IRQs off: status left from before is
 * cleared, and the package unfrozen with its PMI routed by p->ctl; a
 * freeze of that status may still be on its way, and then it owes its
 * PMI to this CPU, if routed here.
 */
static void uncore_pmi_reset(struct uncore_pkg_pmi *p)
{
	const struct uncore_pmi *pmi = uncore_plat->pmi;
	u64 status = 0;
	int err;

	err = pmi->read_status(p->gbox, &status);
	if (!err && status) {
		uncore_clear_stale(p->gbox->pkg, status);
		err = pmi->ack(p->gbox, status);
		if (p->ctl) {
			atomic_set(&p->owed, 1);
			atomic_set(&p->late, 1);
		}
	}
	err |= pmi->unfreeze(p->gbox, p->ctl);
	uncore_pmi_failed(p, err);
}

/*
 * Route the package's PMI to this CPU, its reading CPU, before a sampling
 * event first enables an overflow. The routing then stays: an overflow
 * that is already on its way when the last sampling event goes still
 * freezes the package, and its PMI is what unfreezes it. The handler
 * accepts NMIs here before the PMI can come here.
 */
static void uncore_pmi_arm(struct uncore_pkg_pmi *p)
{
	int cpu = smp_processor_id();

	if (p->cpu == cpu)
		return;
	p->ctl = uncore_plat->pmi->route(cpu);
	WRITE_ONCE(p->cpu, cpu);
	uncore_pmi_reset(p);
}

/**
 * uncore_pmi_attach() - a sampling event of a box joins the PMI path
 * @box: its box
 *
 * The package's PMI is routed here first; the box's first such event puts
 * it on the package's list, its stale status cleared.
 *
 * Context: add() or the PMI path's resume, on the box's reading CPU, IRQs
 * off.
 */
void uncore_pmi_attach(struct uncore_box *box)
{
	struct uncore_pkg_pmi *p = &uncore_pkgs[box->pkg].pmi;
	u32 st;

	uncore_pmi_arm(p);
	if (box->n_pmi++)
		return;
	/*
	 * The handler visits only the boxes on the list: one that left it
	 * with an overflow on its way kept that counter's status bit, and
	 * a set bit holds back the counter's next overflow message (2.1.1.1).
	 */
	st = uncore_box_status(box);
	if (st)
		uncore_box_status_clear(box, st);
	list_add_tail(&box->pmi_node, &p->boxes);
}

/**
 * uncore_pmi_resync() - a PMI box's sampling once its registers answer again
 * @box: the box
 * @regs: the registers its samples carry
 *
 * A fault may have cost the box a preload (a failed write) or a status
 * clear (a pass that read its status as 0): the counter would overflow
 * far from its period's end, or its set status bit would hold back every
 * later overflow message (2.1.1.1), and its events would sample no more
 * (review pmi-protocol N6). As a pass does: count, sample the periods that
 * ended meanwhile, load the counter for the rest of the period, clear the
 * box's status; the box frozen, if its type can freeze, so that a
 * counter's two dwords are written at rest. A type that cannot loses what
 * comes between a counter's read and its preload, once per fault.
 *
 * Context: the box's timer (a sample pass) on its reading CPU, IRQs off.
 */
void uncore_pmi_resync(struct uncore_box *box, struct pt_regs *regs)
{
	if (!box->n_pmi || box->dead)
		return;
	uncore_box_hold(box);
	uncore_pmi_box(&uncore_pkgs[box->pkg].pmi, box, regs);
	uncore_box_let_run(box);
}

/**
 * uncore_pmi_detach() - a sampling event of a box leaves the PMI path
 * @box: its box
 *
 * The box leaves the package's list with its last such event.
 *
 * Context: del() on the box's reading CPU, IRQs off.
 */
void uncore_pmi_detach(struct uncore_box *box)
{
	if (!--box->n_pmi)
		list_del(&box->pmi_node);
}

/*
 * Wait for every pass of the handler queued so far to finish, a retry
 * included. Process context, the PMI routed to no CPU (p->cpu is -1) or
 * to a CPU that takes no NMI any more.
 */
static void uncore_pmi_sync(struct uncore_pkg_pmi *p)
{
	hrtimer_cancel(&p->retry);
	irq_work_sync(&p->fwd);
	while (atomic_read_acquire(&p->csd_busy))
		cpu_relax();
	irq_work_sync(&p->work);
}

/*
 * On the package's old reading CPU, IRQs off, at the end of a move (its
 * events are all off its boxes): the handler takes no NMI for the package
 * from now on, and the PMI goes to no core. A pass queued here before
 * runs after this and writes that route again. A freeze still on its way
 * lands unrouted; the new reading CPU finds its status.
 */
static void uncore_pmi_stop(void *info)
{
	struct uncore_pkg_pmi *p = info;

	WRITE_ONCE(p->cpu, -1);
	p->ctl = 0;
	hrtimer_try_to_cancel(&p->retry);
	uncore_plat->pmi->unfreeze(p->gbox, 0);
}

/* What the new reading CPU needs to take a package's PMI over. */
struct uncore_handover {
	int pkg;
	bool armed;
};

/*
 * On a package's new reading CPU, IRQs off, at the end of a move, the old
 * one done with the PMI: a PMI that was routed follows the package here,
 * or, if it cannot reach this CPU, stays unrouted, status from before
 * cleared and the package unfrozen. Then the sampling events the box
 * timers took over go back to the PMI path, each with its owed periods
 * emitted first. perf drops the samples of a stopped event, so they are
 * emitted before the stop; what the counter adds in between goes into
 * the next period.
 */
static void uncore_pkg_pmi_resume(void *info)
{
	const struct uncore_handover *h = info;
	int pkg = h->pkg, cpu = smp_processor_id(), i, j;
	struct uncore_pkg_pmi *p = &uncore_pkgs[pkg].pmi;
	struct pt_regs *regs = NULL, caller;
	u32 ms = READ_ONCE(uncore_handover_delay_ms);

	if (unlikely(ms)) {
		pr_info("test hook: package %d's PMI goes to CPU %d in %u ms\n",
			pkg, cpu, ms);
		mdelay(ms);
	}
	WRITE_ONCE(p->moving, false);
	if (h->armed) {
		if (uncore_pmi_routable(cpu))
			uncore_pmi_arm(p);
		else
			uncore_pmi_reset(p);
	}

	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_box *box = uncore_pmus[i]->boxes[pkg];

		if (!box || !box->n_timer || box->cpu != cpu ||
		    !uncore_pmi_reachable(box))
			continue;
		for (j = 0; j < box->n_events; j++) {
			struct perf_event *event = box->events[j];
			bool running = !(event->hw.state & PERF_HES_STOPPED);

			if (!uncore_timer_event(event) ||
			    !uncore_counter_interrupts(event))
				continue;
			if (running) {
				/*
				 * A pass, as for the box's timer: only its
				 * time budget bounds the periods a slow
				 * machine owes, the count throttle does not.
				 */
				if (!regs) {
					uncore_pass_begin();
					regs = uncore_timer_regs(&caller);
				}
				uncore_event_update(box, event);
				uncore_sample(box, event, regs, &running);
			}
			if (running)
				uncore_pmu_stop(event, PERF_EF_UPDATE);
			box->n_timer--;
			uncore_sampling_mode(event, true);
			uncore_pmi_attach(box);
			if (running)
				uncore_pmu_start(event, 0);
		}
		uncore_set_poll_period(box);
	}
	if (regs)
		uncore_pass_end();
}

/**
 * uncore_pkg_pmi_settle() - the PMI path at the end of a package's move
 * @pkg: the package
 * @from: its old reading CPU, online
 * @to: its new reading CPU, -1 for none
 *
 * Now that no event of the package is left on @from, the PMI is taken
 * from @from first: routed nowhere, the handler told, then a grace period
 * for the NMI handlers that still saw the old route, and every pass they
 * queued finished. Only then does @to route it to itself and resume the
 * PMI path (while pmi.moving is set, its perf callbacks keep off that
 * path). So the two CPUs never act on the package's PMI at once: a pass
 * on @from cannot write the old route after @to wrote its own, nor walk
 * the box list while @to changes it.
 *
 * With no CPU left, the package stays routed nowhere: the first sampling
 * event on the CPU that comes back first arms it afresh, route, stale
 * status and freeze included, even if that CPU is the one that went
 * (pkg_exit() may have cleared the route, and a freeze that landed while
 * no CPU was online had its PMI dropped).
 *
 * Context: the hotplug callback that moves the package (process context,
 * the hotplug lock held for writing); IPIs to @from and @to.
 */
void uncore_pkg_pmi_settle(int pkg, int from, int to)
{
	struct uncore_pkg_pmi *p = &uncore_pkgs[pkg].pmi;
	struct uncore_handover h = {
		.pkg = pkg,
		.armed = READ_ONCE(p->cpu) >= 0,
	};

	if (h.armed) {
		smp_call_function_single(from, uncore_pmi_stop, p, true);
		/* NMI handlers are RCU readers: none sees the old route after. */
		synchronize_rcu();
	}
	uncore_pmi_sync(p);
	atomic64_set(&p->claimed, 0);
	atomic_set(&p->owed, 0);
	atomic_set(&p->late, 0);
	if (to < 0) {
		WRITE_ONCE(p->moving, false);
		return;
	}
	smp_call_function_single(to, uncore_pkg_pmi_resume, &h, true);
}

/**
 * uncore_pmi_init() - set up the PMI path
 *
 * Description: Per-package PMI state and the NMI handler, for a platform
 * with a PMI path. The global registers are reached through box 0 of
 * pmi->type, which every package has (the BDX UBox).
 *
 * Context: module load, process context, after the pmus are allocated.
 *
 * Return: 0 or a negative errno.
 */
int uncore_pmi_init(void)
{
	const struct uncore_pmi *pmi = uncore_plat->pmi;
	struct uncore_pmu *gpmu;
	int pkg, err;

	if (!pmi)
		return 0;
	gpmu = uncore_find_pmu(pmi->type, 0);
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
		struct uncore_pkg_pmi *p = &uncore_pkgs[pkg].pmi;

		p->cpu = -1;
		p->gbox = gpmu ? gpmu->boxes[pkg] : NULL;
		INIT_LIST_HEAD(&p->boxes);
		p->work = IRQ_WORK_INIT_HARD(uncore_pmi_work);
		p->fwd = IRQ_WORK_INIT_HARD(uncore_pmi_forward);
		INIT_CSD(&p->csd, uncore_pmi_remote, p);
		hrtimer_init(&p->retry, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		p->retry.function = uncore_pmi_retry;
	}
	err = register_nmi_handler(NMI_LOCAL, uncore_nmi_handler, 0,
				   KBUILD_MODNAME);
	if (err)
		return err;
	err = register_nmi_handler(NMI_UNKNOWN, uncore_nmi_unknown, 0,
				   KBUILD_MODNAME);
	if (err) {
		unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
		return err;
	}
	uncore_nmi_registered = true;
	return 0;
}

/**
 * uncore_pmi_exit() - tear the PMI path down
 *
 * Description: No package stays frozen or routed, the NMI handlers go,
 * and every pass queued has finished.
 *
 * Context: module unload, process context, after the pmus are gone: no
 * event can overflow into a PMI any more.
 */
void uncore_pmi_exit(void)
{
	int pkg;

	if (!uncore_nmi_registered)
		return;
	/*
	 * On the CPU the PMI is routed to, the package's reading CPU. The
	 * hotplug callbacks are gone: it may have gone offline since.
	 */
	cpus_read_lock();
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
		int cpu = uncore_pkgs[pkg].pmi.cpu;

		if (cpu >= 0 && cpu_online(cpu))
			smp_call_function_single(cpu, uncore_pmi_stop,
						 &uncore_pkgs[pkg].pmi, true);
	}
	cpus_read_unlock();
	unregister_nmi_handler(NMI_UNKNOWN, KBUILD_MODNAME);
	unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
	uncore_nmi_registered = false;
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++)
		uncore_pmi_sync(&uncore_pkgs[pkg].pmi);
}
