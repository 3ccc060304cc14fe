// SPDX-License-Identifier: GPL-2.0
/*
 * Generic uncore core: one struct pmu per box index, a box per package,
 * event validation, counter assignment, auxiliary-register arbitration, 64-bit
 * software counts over narrow hardware counters, the poll timer, CPU
 * hotplug and sysfs. Nothing here knows a particular part; bdx.c and the
 * other platform files describe the boxes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/trace_events.h>
#include <linux/wait.h>

#include <asm/irq_regs.h>
#include <asm/nmi.h>

#include "uncore.h"

static const struct uncore_platform *uncore_plat;
static struct uncore_pmu **uncore_pmus;
static int uncore_n_pmus;
static DECLARE_WAIT_QUEUE_HEAD(uncore_move_wq);

/**
 * struct uncore_open - an event that event_init has given a CPU, on its
 *	way to perf's context on that CPU
 * @node: in uncore_opens, under uncore_open_lock
 * @event: the event
 * @cpu: the CPU, its box's reading CPU when event_init ran
 *
 * perf installs the event in that CPU's context after event_init returns;
 * a move that began in between would leave it behind on the old CPU
 * (uncore_wait_opens()). The entry goes once the event has a context, or
 * with the event.
 */
struct uncore_open {
	struct list_head node;
	struct perf_event *event;
	int cpu;
};

static LIST_HEAD(uncore_opens);
static DEFINE_SPINLOCK(uncore_open_lock);
/* Test hook (debugfs open_delay_ms): widens the window described above. */
static u32 uncore_open_delay_ms;
static enum cpuhp_state uncore_hp_state;
static struct dentry *uncore_debugfs;

/**
 * struct uncore_pkg_pmi - a package's overflow interrupt (PMI) state
 * @cpu: CPU the PMI is routed to: the package's reading CPU once a
 *	sampling event needed it, -1 before
 * @ctl: global control value that routes it there
 * @gbox: the box the global registers are accessed through
 * @boxes: boxes with sampling events that raise PMIs
 * @claimed: global status bits an NMI claimed and @work has not cleared
 * @owed: the freeze of a claimed overflow may still be on its way, its
 *	PMI not yet seen: the next NMI that finds no new status is taken
 *	as that PMI and ends the freeze (see "The PMI protocol" in
 *	Documentation/uncore_pmu.rst)
 * @work: the part of the handler that runs in hardirq context, on @cpu
 * @fwd: on the hyperthread of @cpu that took the PMI, sends @csd to @cpu
 *	(NMI context may do neither that nor irq_work_queue_on(), which 6.1
 *	does not export anyway)
 * @csd: queues @work on @cpu, in IPI context there
 * @csd_busy: @csd is in flight
 * @nmi: NMIs that claimed new status
 * @owed_nmi: NMIs taken as an owed PMI
 * @handled: passes of @work
 * @periods: sample periods that elapsed
 * @moving: the package's boxes are changing reading CPU: a sampling event
 *	added meanwhile is sampled by its box's timer (uncore_pkg_move())
 *
 * The PMI is routed to a core and may reach either of its threads: the
 * NMI handler runs on @cpu or its sibling, and changes @claimed, @owed,
 * @nmi and @owed_nmi by atomic operations. Everything else is touched on
 * @cpu only: in perf callbacks and the poll timer (IRQs off) and in @work;
 * @cpu itself and @moving change in the hotplug callbacks.
 */
struct uncore_pkg_pmi {
	int cpu;
	u64 ctl;
	struct uncore_box *gbox;
	struct list_head boxes;
	atomic64_t claimed;
	atomic_t owed;
	struct irq_work work;
	struct irq_work fwd;
	call_single_data_t csd;
	atomic_t csd_busy;
	atomic64_t nmi;
	atomic64_t owed_nmi;
	u64 handled;
	u64 periods;
	bool moving;
};

/**
 * struct uncore_package - the core's state of one logical package
 * @cpu: its reading CPU, -1 while none is online
 * @park: while it has no CPU online, the CPU whose contexts hold its
 *	events (uncore_pkg_move()), -1 if none. A parking CPU reads no
 *	package and parks no other: perf_pmu_migrate_context() moves all of
 *	a pmu's events on a CPU, so that CPU's must all belong to one package
 * @moving: its reading CPU is changing (uncore_pkg_move()): event_init
 *	waits for the end on uncore_move_wq. Set under uncore_open_lock
 * @up: the platform's pkg_init() ran and its pkg_exit() has not
 * @pmi: its PMI state, if the platform has a PMI
 *
 * @cpu, @park, @up and @pmi.cpu change in the CPU hotplug callbacks,
 * which cpuhp serialises; they are read elsewhere with READ_ONCE().
 */
struct uncore_package {
	int cpu;
	int park;
	bool moving;
	bool up;
	struct uncore_pkg_pmi pmi;
};

static struct uncore_package *uncore_pkgs;
static bool uncore_nmi_registered;

/*
 * Locking of pmu->boxes[] and pmu registration. PCI boxes come and go with
 * their devices, so:
 * - uncore_pci_mutex serialises box arrival and removal and the
 *   (un)registration of pmus of PCI types;
 * - boxes[] changes only under cpus_read_lock() and uncore_box_mutex, so
 *   the CPU hotplug callbacks (cpus write-locked) and every holder of the
 *   mutex (event_init, event destroy, debugfs) see it stable; the cpumask
 *   file and the perf callbacks read it with READ_ONCE() (cpumask_show()
 *   says why the former takes no lock);
 * - pmu->registered changes only under cpus_read_lock(), for hotplug.
 * Order: uncore_pci_mutex, cpus_read_lock(), uncore_box_mutex. perf's own
 * pmus_srcu is held around event_init, which takes uncore_box_mutex, so
 * perf_pmu_(un)register() are never called with uncore_box_mutex held,
 * and perf_pmu_unregister() never with cpus_read_lock() held (see
 * uncore_pci_box_remove()).
 */
static DEFINE_MUTEX(uncore_pci_mutex);
static DEFINE_MUTEX(uncore_box_mutex);

/*
 * perf reads every alias file of every pmu at startup: with all of the
 * manual's events that is thousands of files, unnoticeable on hardware but
 * minutes per perf run in a KASAN guest under TCG.
 */
static bool all_aliases = true;
module_param(all_aliases, bool, 0444);
MODULE_PARM_DESC(all_aliases,
		 "List every manual event under events/ (default); N: only mainline's aliases and clockticks");

/* Does condition @cond of an event table's avail column hold here? */
static bool uncore_available(const char *cond)
{
	return !cond || !uncore_plat || !uncore_plat->available ||
	       uncore_plat->available(cond);
}

static bool uncore_listed(const struct uncore_event_desc *ev)
{
	return (all_aliases || ev->compat) && uncore_available(ev->avail);
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

static inline struct uncore_pmu *to_uncore_pmu(struct pmu *pmu)
{
	return container_of(pmu, struct uncore_pmu, pmu);
}

static inline struct uncore_event *to_uevent(const struct perf_event *event)
{
	return event->pmu_private;
}

static inline struct uncore_box *event_box(struct perf_event *event)
{
	return to_uevent(event)->box;
}

static inline bool is_fixed_event(const struct perf_event *event)
{
	return event->hw.idx == UNCORE_FIXED_IDX;
}

static int counter_width(const struct uncore_type *type,
			 const struct perf_event *event)
{
	return is_fixed_event(event) ? type->fixed_ctr_bits : type->ctr_bits;
}

/* ---- Generic MSR boxes ------------------------------------------------ */

/**
 * uncore_msr_ctl() - MSR of a counter's control register
 * @box: the box
 * @idx: counter index, or UNCORE_FIXED_IDX
 *
 * Return: the MSR address.
 */
u32 uncore_msr_ctl(const struct uncore_box *box, int idx)
{
	const struct uncore_type *type = box->pmu->type;

	if (idx == UNCORE_FIXED_IDX)
		return type->fixed_ctl;
	return type->event_ctl + box->msr_base +
	       idx * (type->msr_ctl_stride ?: 1);
}

static u32 uncore_msr_ctr(const struct uncore_box *box, int idx)
{
	const struct uncore_type *type = box->pmu->type;

	if (idx == UNCORE_FIXED_IDX)
		return type->fixed_ctr;
	return type->perf_ctr + box->msr_base +
	       idx * (type->msr_ctr_stride ?: 1);
}

/**
 * uncore_msr_init_box() - reset a box's controls and counters
 * @box: the box, on a CPU of its package
 *
 * A box without a box control (the BDX UBox) has its controls cleared one
 * by one, so an event left behind by a previous user stops counting.
 */
void uncore_msr_init_box(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;
	int i;

	if (type->box_ctl) {
		uncore_msr_write(box, type->box_ctl + box->msr_base,
				 type->box_ctl_init);
		return;
	}
	for (i = 0; i < type->num_counters; i++)
		uncore_msr_write(box, uncore_msr_ctl(box, i), 0);
	if (type->fixed_ctl)
		uncore_msr_write(box, type->fixed_ctl, 0);
}

/**
 * uncore_msr_enable_event() - program and start an event's counter
 * @box: the box
 * @event: the event; hw.config holds the control value without the enable
 */
void uncore_msr_enable_event(struct uncore_box *box, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	const struct uncore_ctl_layout *layout = box->pmu->type->ctl;
	u32 msr = uncore_msr_ctl(box, hwc->idx);
	u64 ctl = hwc->config |
		  (is_fixed_event(event) ? layout->fixed_en : layout->en);

	/*
	 * Write-twice erratum (BDX manual 2.4, SBo; 2.10 R2PCIe; 2.11 R3QPI):
	 * the first write of a new control value does not latch the event
	 * select; the same value written again does.
	 */
	if (box->pmu->type->write_twice && !is_fixed_event(event))
		uncore_msr_write(box, msr, ctl);
	uncore_msr_write(box, msr, ctl);
}

/**
 * uncore_msr_disable_event() - stop an event's counter
 * @box: the box
 * @event: the event
 */
void uncore_msr_disable_event(struct uncore_box *box, struct perf_event *event)
{
	uncore_msr_write(box, uncore_msr_ctl(box, event->hw.idx), 0);
}

/**
 * uncore_msr_read_counter() - raw value of an event's counter
 * @box: the box
 * @event: the event
 *
 * Return: the counter; on a faulting read the last value seen, so that a
 * failed access adds nothing rather than garbage.
 */
u64 uncore_msr_read_counter(struct uncore_box *box, struct perf_event *event)
{
	u64 val;

	if (uncore_msr_read(box, uncore_msr_ctr(box, event->hw.idx), &val))
		return local64_read(&event->hw.prev_count);
	return val;
}

/**
 * uncore_msr_read_ctl() - read back a general counter's control
 * @box: the box
 * @event: the event on it
 * @val: the value read
 *
 * Return: 0 or -EIO.
 */
int uncore_msr_read_ctl(struct uncore_box *box, struct perf_event *event,
			u64 *val)
{
	return uncore_msr_read(box, uncore_msr_ctl(box, event->hw.idx), val);
}

/**
 * uncore_msr_write_counter() - load an event's counter
 * @box: the box
 * @event: the event, stopped or frozen
 * @val: the value, within the counter's width
 */
void uncore_msr_write_counter(struct uncore_box *box, struct perf_event *event,
			      u64 val)
{
	uncore_msr_write(box, uncore_msr_ctr(box, event->hw.idx), val);
}

const struct uncore_ops uncore_msr_ops = {
	.init_box	= uncore_msr_init_box,
	.enable_event	= uncore_msr_enable_event,
	.disable_event	= uncore_msr_disable_event,
	.read_counter	= uncore_msr_read_counter,
	.write_counter	= uncore_msr_write_counter,
	.read_ctl	= uncore_msr_read_ctl,
};

/* ---- Generic PCI boxes ------------------------------------------------ */

static int uncore_pci_ctl(const struct uncore_box *box, int idx)
{
	const struct uncore_type *type = box->pmu->type;

	if (idx == UNCORE_FIXED_IDX)
		return type->fixed_ctl;
	return type->event_ctl + 4 * idx;
}

static int uncore_pci_ctr(const struct uncore_box *box, int idx)
{
	const struct uncore_type *type = box->pmu->type;

	if (idx == UNCORE_FIXED_IDX)
		return type->fixed_ctr;
	if (type->pci_ctrs)
		return type->pci_ctrs[idx];
	return type->perf_ctr + 8 * idx;
}

/**
 * uncore_pci_init_box() - reset a PCI box's controls and counters
 * @box: the box
 *
 * BOX_CTL's rst_ctrl and rst_ctrs cover the general counters; a fixed
 * counter's control is cleared on its own, the manual not saying that
 * rst_ctrl reaches it.
 */
void uncore_pci_init_box(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;

	uncore_pci_write(box, box->pdev, type->box_ctl, type->box_ctl_init);
	if (type->fixed_ctl)
		uncore_pci_write(box, box->pdev, type->fixed_ctl, 0);
}

/**
 * uncore_pci_enable_event() - program and start an event's counter
 * @box: the box
 * @event: the event; hw.config holds the control value without the enable
 */
void uncore_pci_enable_event(struct uncore_box *box, struct perf_event *event)
{
	const struct uncore_ctl_layout *layout = box->pmu->type->ctl;
	int off = uncore_pci_ctl(box, event->hw.idx);
	u32 ctl = event->hw.config |
		  (is_fixed_event(event) ? layout->fixed_en : layout->en);

	/* Write-twice erratum: see uncore_msr_enable_event(). */
	if (box->pmu->type->write_twice && !is_fixed_event(event))
		uncore_pci_write(box, box->pdev, off, ctl);
	uncore_pci_write(box, box->pdev, off, ctl);
}

/**
 * uncore_pci_disable_event() - stop an event's counter
 * @box: the box
 * @event: the event
 */
void uncore_pci_disable_event(struct uncore_box *box, struct perf_event *event)
{
	uncore_pci_write(box, box->pdev, uncore_pci_ctl(box, event->hw.idx), 0);
}

/*
 * A PCI counter read in progress: when it began, and the most its event
 * can count per second.
 */
struct uncore_split_ctx {
	struct uncore_box *box;
	int off;
	bool failed;
	u32 hi_unused;
	u64 start;
	u64 max_rate;
};

/*
 * An upper dword with bits above the counter's width set is no count: the
 * function is gone and answers all ones (or anything else that cannot be).
 */
static u32 uncore_pci_dword(void *data, bool hi)
{
	struct uncore_split_ctx *ctx = data;
	int off = ctx->off + (hi ? 4 : 0);
	u32 val;

	if (uncore_pci_read(ctx->box, ctx->box->pdev, off, &val)) {
		ctx->failed = true;
	} else if (hi && (val & ctx->hi_unused)) {
		uncore_box_fault(ctx->box, "config read at", off);
		ctx->failed = true;
	}
	return val;
}

/*
 * Time added to what a split read measured: the clock is read around the
 * dword reads, not at the instants the device latches them, and the
 * simulator may let more of its own time pass per config read than the
 * guest takes (its pci_tick). At the fastest BDX event (128 per UCLK
 * tick), 10 us of counting is about 1 in 1000 of the lower dword's range.
 */
#define UNCORE_SPLIT_MARGIN_NS	(10 * NSEC_PER_USEC)

/*
 * Counts the event can have made since the read began, from the time
 * that passed: an interrupt, an SMI or a hypervisor that takes the CPU
 * between the dword reads shows here, and the read takes its third dword.
 * Over a second, the counter is taken to have wrapped its lower dword.
 */
static u64 uncore_pci_slack(void *data)
{
	struct uncore_split_ctx *ctx = data;
	u64 dt = local_clock() - ctx->start;

	if (dt >= NSEC_PER_SEC)
		return U32_MAX;
	return mul_u64_u64_div_u64(dt + UNCORE_SPLIT_MARGIN_NS, ctx->max_rate,
				   NSEC_PER_SEC) + 1;
}

static const struct uncore_split_ops uncore_pci_split = {
	.read	= uncore_pci_dword,
	.slack	= uncore_pci_slack,
};

/**
 * uncore_pci_read_counter() - raw value of an event's counter
 * @box: the box
 * @event: the event
 *
 * PCI counters are two config dwords that keep counting between the
 * reads: uncore_read_split() pairs them without a tear.
 *
 * Return: the counter; on a failed read the last value seen.
 */
u64 uncore_pci_read_counter(struct uncore_box *box, struct perf_event *event)
{
	int width = counter_width(box->pmu->type, event);
	struct uncore_split_ctx ctx = {
		.box = box,
		.off = uncore_pci_ctr(box, event->hw.idx),
		.hi_unused = width > 32 && width < 64 ?
			     ~(u32)GENMASK_ULL(width - 33, 0) : 0,
		.start = local_clock(),
		.max_rate = to_uevent(event)->max_rate,
	};
	u64 val = uncore_read_split(&uncore_pci_split, &ctx, width);

	return ctx.failed ? local64_read(&event->hw.prev_count) : val;
}

/**
 * uncore_pci_read_ctl() - read back a general counter's control
 * @box: the box
 * @event: the event on it
 * @val: the value read
 *
 * Return: 0, or -EIO if the read failed or the function answered all ones
 * (bits no control register has).
 */
int uncore_pci_read_ctl(struct uncore_box *box, struct perf_event *event,
			u64 *val)
{
	u32 v;
	int off = uncore_pci_ctl(box, event->hw.idx);

	*val = 0;
	if (uncore_pci_read(box, box->pdev, off, &v))
		return -EIO;
	if (v == U32_MAX) {
		uncore_box_fault(box, "config read at", off);
		return -EIO;
	}
	*val = v;
	return 0;
}

/**
 * uncore_pci_write_counter() - load an event's counter, a dword at a time
 * @box: the box
 * @event: the event, stopped or frozen, so the halves cannot tear
 * @val: the value, within the counter's width
 */
void uncore_pci_write_counter(struct uncore_box *box, struct perf_event *event,
			      u64 val)
{
	int off = uncore_pci_ctr(box, event->hw.idx);

	uncore_pci_write(box, box->pdev, off, lower_32_bits(val));
	uncore_pci_write(box, box->pdev, off + 4, upper_32_bits(val));
}

const struct uncore_ops uncore_pci_ops = {
	.init_box	= uncore_pci_init_box,
	.enable_event	= uncore_pci_enable_event,
	.disable_event	= uncore_pci_disable_event,
	.read_counter	= uncore_pci_read_counter,
	.write_counter	= uncore_pci_write_counter,
	.read_ctl	= uncore_pci_read_ctl,
};

/*
 * Flags of an event in hw.flags, which is the pmu's. The driver holds the
 * event stopped by its own throttle (uncore_emit(); the window is in
 * &struct uncore_event).
 */
#define UNCORE_HWF_THROTTLED	BIT(0)
/* Set at add while the box's timer, not a PMI, samples the event. */
#define UNCORE_HWF_TIMER	BIT(1)
/* Added in a transaction: started by its commit, with the rest of the group. */
#define UNCORE_HWF_DEFER	BIT(2)
/*
 * Taken off its box because the box changes reading CPU: periods that ran
 * out before are still owed, and its box's timer on the new reading CPU
 * emits their samples.
 */
#define UNCORE_HWF_CARRY	BIT(3)
/*
 * Taken off its box by a move with its counter left counting (box->carried):
 * added back, it reads on from where it was.
 */
#define UNCORE_HWF_MOVED	BIT(4)
/*
 * Its counter was reprogrammed by another agent (uncore_check_foreign()):
 * it keeps the count it had at its last sound read, the driver touches
 * its counter no more, and it is never added again.
 */
#define UNCORE_HWF_LOST		BIT(5)

/* ---- Counting ---------------------------------------------------------- */

/*
 * perf's tick fits a frequency event's period to the count since
 * hwc->freq_count_stamp, taken as one tick's count. Setting the stamp one
 * tick's worth of counts (at the current period and frequency) behind the
 * count makes that fit return the period unchanged.
 */
static void uncore_freq_stamp(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 per_tick = div_u64(hwc->sample_period * event->attr.sample_freq,
			       HZ);

	hwc->freq_count_stamp = local64_read(&event->count) - per_tick;
}

static void uncore_event_update(struct uncore_box *box, struct perf_event *event)
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
		if (event->attr.freq)
			uncore_freq_stamp(event);
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

/* ---- Overflow interrupts and sampling ---------------------------------- */

/*
 * hwc->interrupts once perf throttled the event: kernel/events/core.c's
 * MAX_INTERRUPTS, which is private to it.
 */
#define UNCORE_THROTTLED	(~0ULL)

static unsigned int sample_tick_us = 1000;
module_param(sample_tick_us, uint, 0644);
MODULE_PARM_DESC(sample_tick_us,
		 "Period of the timer that samples boxes with no overflow interrupt (CBo, SBo), in us (default 1000, at least 10)");

static unsigned int max_sample_rate = 100000;
module_param(max_sample_rate, uint, 0644);
MODULE_PARM_DESC(max_sample_rate,
		 "Samples per second an event may take before the driver throttles it for a tick; perf's perf_event_max_sample_rate, which modules cannot read (default 100000, perf's default)");

static unsigned int poll_max_ms = 3600 * MSEC_PER_SEC;
module_param(poll_max_ms, uint, 0644);
MODULE_PARM_DESC(poll_max_ms,
		 "Longest time between two reads of a running counter by the box's timer, in ms (default 3600000, one hour; at least 1). The timer also checks that no other agent reprogrammed the counter");

/* While a box fails, its timer looks this often for it to answer again. */
#define UNCORE_FAULT_POLL_NS	(100 * NSEC_PER_MSEC)

static unsigned int max_cpu_percent = 25;
module_param(max_cpu_percent, uint, 0644);
MODULE_PARM_DESC(max_cpu_percent,
		 "Share of the time a CPU may spend emitting uncore samples (in windows of 100 ms) before the driver throttles the events it samples; perf's perf_cpu_time_max_percent, which sees only the core PMU's NMIs (default 25, 1-100)");

/**
 * struct uncore_cpu_budget - a CPU's time in the driver's sample passes
 * @window: start of the current window, UNCORE_BUDGET_WINDOW_NS long
 * @spent: time spent in passes that ended in @window
 * @taken: samples emitted since @window began, up to
 *	UNCORE_BUDGET_MIN_SAMPLES
 * @pass: start of the pass in progress, 0 outside one
 * @worst: longest pass so far
 * @total: time in passes so far
 * @passes: passes so far
 *
 * A pass is one run of a box's poll timer, of the PMI handler's irq_work,
 * or of the resume of the PMI path at the end of a move
 * (uncore_pkg_pmi_resume()), on the reading CPU with IRQs off; none nests
 * in another. Every sample is emitted inside one. Touched on its own CPU
 * only, with IRQs off.
 */
struct uncore_cpu_budget {
	u64 window;
	u64 spent;
	u32 taken;
	u64 pass;
	u64 worst;
	u64 total;
	u64 passes;
};

static DEFINE_PER_CPU(struct uncore_cpu_budget, uncore_budget);

/*
 * The budget's window: long enough that one pass stretched by an interrupt
 * or, in a virtual machine, by the host taking the CPU away does not use
 * it up, short enough that the CPU's share holds well below the kernel's
 * lockup and stall detectors (seconds).
 */
#define UNCORE_BUDGET_WINDOW_NS	(100ULL * NSEC_PER_MSEC)

/*
 * Samples a CPU takes in a window before its budget can drop one: a few
 * samples are no storm, and in a virtual machine the host can stretch a
 * single pass past the budget (a vCPU descheduled for tens of ms). Bounds
 * what a window can exceed the budget by to this many samples' cost.
 */
#define UNCORE_BUDGET_MIN_SAMPLES	16

static void uncore_pass_begin(void)
{
	struct uncore_cpu_budget *b = this_cpu_ptr(&uncore_budget);
	u64 now = local_clock();

	if (now - b->window >= UNCORE_BUDGET_WINDOW_NS) {
		b->window = now;
		b->spent = 0;
		b->taken = 0;
	}
	b->pass = now;
}

static void uncore_pass_end(void)
{
	struct uncore_cpu_budget *b = this_cpu_ptr(&uncore_budget);
	u64 took = local_clock() - b->pass;

	b->spent += took;
	b->worst = max(b->worst, took);
	b->total += took;
	b->passes++;
	b->pass = 0;
}

/*
 * Has this CPU spent its share of the current window in sample passes? The
 * count throttle (uncore_sample_throttles()) bounds samples per event, but
 * a sample costs far more on a slow or instrumented machine, and many
 * events multiply it: only time bounds what is left of the CPU. A pass
 * that outlasts its window is measured on its own. The box timer backs off
 * on this alone; a sample is dropped only if the CPU has also taken
 * UNCORE_BUDGET_MIN_SAMPLES (uncore_drop_sample()).
 */
static bool uncore_over_budget(u64 now)
{
	struct uncore_cpu_budget *b = this_cpu_ptr(&uncore_budget);
	u64 spent = 0;
	unsigned int pct = clamp(READ_ONCE(max_cpu_percent), 1U, 100U);

	if (now - b->window < UNCORE_BUDGET_WINDOW_NS)
		spent = b->spent;
	if (b->pass)
		spent += now - b->pass;
	return spent * 100 >= UNCORE_BUDGET_WINDOW_NS * pct;
}

/* Over budget, and enough samples taken that this is a storm: drop one. */
static bool uncore_drop_sample(u64 now)
{
	struct uncore_cpu_budget *b = this_cpu_ptr(&uncore_budget);

	if (b->taken < UNCORE_BUDGET_MIN_SAMPLES) {
		b->taken++;
		return false;
	}
	return uncore_over_budget(now);
}

static void uncore_pmu_start(struct perf_event *event, int flags);
static void uncore_pmu_stop(struct perf_event *event, int flags);

/* Can the platform route its overflow PMI to @cpu? */
static bool uncore_pmi_routable(int cpu)
{
	return uncore_plat->pmi && cpu >= 0 && uncore_plat->pmi->route(cpu);
}

/*
 * Can @box's sampling events take the PMI path on this CPU, its reading
 * CPU? Only if the box signals overflows, the PMI can reach this CPU, and
 * the package is not in the middle of a move, during which the PMI still
 * goes to the CPU the move started from.
 */
static bool uncore_pmi_reachable(const struct uncore_box *box)
{
	return box->pmi_mask && !READ_ONCE(uncore_pkgs[box->pkg].pmi.moving) &&
	       uncore_pmi_routable(smp_processor_id());
}

/* Can @event's counter interrupt at all (a fixed counter may not)? */
static bool uncore_counter_interrupts(struct perf_event *event)
{
	return !is_fixed_event(event) ||
	       !event_box(event)->pmu->type->ctl->fixed_no_ov;
}

/*
 * A sampling event takes the PMI path (@pmi) or its box's timer samples
 * it. Without a PMI to unfreeze the package, an ov_en counter's overflow
 * would leave every counter of it frozen, so the control value gets ov_en
 * only on the PMI path. Set at add (uncore_pmi_reachable()); the mode
 * holds until the event's del, but for the change from timer to PMI at the
 * end of a move (uncore_pkg_pmi_resume()).
 */
static void uncore_sampling_mode(struct perf_event *event, bool pmi)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 ov_en = event_box(event)->pmu->type->ctl->ov_en;

	if (!is_sampling_event(event))
		return;
	if (pmi) {
		hwc->config |= ov_en;
		hwc->flags &= ~UNCORE_HWF_TIMER;
	} else {
		hwc->config &= ~ov_en;
		hwc->flags |= UNCORE_HWF_TIMER;
	}
}

/* A sampling event on the PMI path. */
static bool uncore_pmi_event(struct perf_event *event)
{
	return is_sampling_event(event) && !(event->hw.flags & UNCORE_HWF_TIMER);
}

/* A sampling event its box's timer samples. */
static bool uncore_timer_event(struct perf_event *event)
{
	return is_sampling_event(event) && (event->hw.flags & UNCORE_HWF_TIMER);
}

static u64 uncore_sample_tick_ns(void)
{
	return (u64)max(READ_ONCE(sample_tick_us), 10U) * NSEC_PER_USEC;
}

/*
 * Start a sampling event's countdown: a countdown that ran out while the
 * event was stopped, or that perf's frequency code reset, starts a new
 * period, as on perf's other pmus. Only the box's timer can emit periods
 * owed from before (@carry): those of an event its box's move took off.
 */
static s64 uncore_period_begin(struct hw_perf_event *hwc, bool carry)
{
	s64 period = hwc->sample_period;
	s64 left = local64_read(&hwc->period_left);

	if (carry && (hwc->flags & UNCORE_HWF_CARRY)) {
		hwc->flags &= ~UNCORE_HWF_CARRY;
		hwc->last_period = period;
		return left;
	}
	hwc->flags &= ~UNCORE_HWF_CARRY;
	if (left <= 0) {
		left += period;
		if (left <= 0)
			left = period;
		local64_set(&hwc->period_left, left);
	}
	hwc->last_period = period;
	return left;
}

/* Load a PMI event's counter so that it overflows when its period ends. */
static void uncore_set_period(struct uncore_box *box, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 val;

	val = uncore_preload(uncore_period_begin(hwc, false),
			     counter_width(box->pmu->type, event));
	box->pmu->type->ops->write_counter(box, event, val);
	local64_set(&hwc->prev_count, val);
}

/* Samples an event may take in one tick: perf's max_samples_per_tick. */
static unsigned int uncore_tick_limit(void)
{
	return max(DIV_ROUND_UP(READ_ONCE(max_sample_rate), HZ), 1U);
}

/*
 * The driver's throttle: at most uncore_tick_limit() samples per event in
 * any window of one tick, as perf allows. perf's own throttle only acts
 * from the second sample of one perf_tp_event() call on, so a stream of
 * single-sample PMIs would never meet it. Like perf, the sample that
 * reaches the limit is still taken. Return: true if this sample does.
 */

static bool uncore_sample_throttles(struct uncore_event *ue, u64 now)
{
	if (now - ue->thr_window >= TICK_NSEC) {
		ue->thr_window = now;
		ue->thr_samples = 0;
	}
	return ++ue->thr_samples >= uncore_tick_limit();
}

/*
 * Stop @event until a tick has passed: the box's timer, set to run at
 * least once a tick meanwhile, restarts it, unless perf's frequency tick
 * does so first (it restarts every event it finds with hwc->interrupts
 * at MAX_INTERRUPTS).
 */
static void uncore_throttle(struct uncore_box *box, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	hwc->interrupts = UNCORE_THROTTLED;
	/*
	 * perf's tick may have restarted the event while the driver still
	 * held it: it is counted in n_throttled once however often it is
	 * throttled before the timer next looks at it.
	 */
	if (!(hwc->flags & UNCORE_HWF_THROTTLED)) {
		hwc->flags |= UNCORE_HWF_THROTTLED;
		box->n_throttled++;
	}
	box->throttles++;
	uncore_pmu_stop(event, 0);
}

/*
 * The registers a timer sample reports: those the timer interrupt
 * interrupted, else (not expected: the box's hrtimer is a hard one) the
 * timer callback's own.
 */
static struct pt_regs *uncore_timer_regs(struct pt_regs *caller)
{
	struct pt_regs *regs = get_irq_regs();

	if (regs)
		return regs;
	perf_fetch_caller_regs(caller);
	return caller;
}

/*
 * Hand perf @n samples of @event, each of @period counts, from @box; the
 * last sample's period ended when the event's count was @end.
 *
 * perf_event_overflow() is not exported to modules (Linux 6.1). The
 * exported way to the same sample output is perf_tp_event(): given a list
 * of events and a count, it feeds each event to perf's software-event
 * overflow code, which adds the count to the event and takes a sample per
 * period elapsed in it. The list holds this event alone, its countdown set
 * so that the count given is exactly one period
 * (perf_swevent_set_period()).
 *
 * A sample with PERF_SAMPLE_READ reads event->count after perf added the
 * period: so the count is set one period short of where that sample's
 * period ended, and put back to what the driver counted afterwards. Until
 * then a read() on another CPU (perf reads an uncore count after the IPI
 * that updated it) may see the value of one of these samples.
 *
 * One call per sample: perf's throttle acts from the second sample of a
 * call on, and counts samples since the CPU's last tick, which on a
 * reading CPU idle without a tick may be seconds ago: a PMI owing two
 * samples would throttle an event sampling at 1000/s. The driver's own
 * throttle (uncore_sample_throttles()) counts in real time instead.
 *
 * Return: true if the driver throttled the event.
 */
static bool uncore_emit(struct uncore_box *box, struct perf_event *event,
			struct pt_regs *regs, u64 n, u64 period, u64 end)
{
	struct hw_perf_event *hwc = &event->hw;
	struct uncore_event *ue = to_uevent(event);
	/* The raw record of a tracepoint sample: empty here. */
	struct trace_entry rec = { };
	u64 count = local64_read(&event->count);
	u64 at = end - n * period;
	bool throttle = false;
	HLIST_HEAD(head);
	int rctx;

	/*
	 * Only a pass's time budget bounds what a burst of owed periods costs
	 * (uncore_drop_sample()): a sample emitted outside one can keep IRQs
	 * off for as long as the periods last.
	 */
	WARN_ON_ONCE(!this_cpu_read(uncore_budget.pass));
	rcu_read_lock();
	hlist_add_head_rcu(&event->hlist_entry, &head);
	for (; n && !throttle; n--) {
		u64 now = local_clock();

		/* Over budget: no sample, the event waits a tick from now. */
		if (uncore_drop_sample(now)) {
			box->over_budget += n;
			ue->thr_window = now;
			ue->thr_samples = 0;
			throttle = true;
			break;
		}
		throttle = uncore_sample_throttles(ue, now);
		rctx = perf_swevent_get_recursion_context();
		if (rctx < 0) {
			box->lost += n;
			break;
		}
		local64_set(&hwc->period_left, -(s64)period);
		hwc->last_period = period;
		local64_set(&event->count, at);
		at += period;
		perf_tp_event(0, period, &rec, sizeof(rec), regs, &head, rctx,
			      NULL);
		box->samples++;
	}
	hlist_del_init_rcu(&event->hlist_entry);
	rcu_read_unlock();
	local64_set(&event->count, count);
	if (throttle)
		uncore_throttle(box, event);
	return throttle;
}

/*
 * The period that makes @event's samples come at its sample_freq. The
 * @count it took since its last sample (or its first start) gives its
 * rate; the period is what that rate counts until the next sample's slot
 * on a grid of 1/sample_freq steps (both times in &struct uncore_event). The
 * overflow of a period reaches the handler some time after it ran out, and
 * the counters stay frozen a while longer: aiming every sample at the grid,
 * not at one step after the previous sample, keeps those delays from adding
 * up, so that the rate is sample_freq on average however slow the handler
 * is, up to one step. A sample later than that (after a throttle, say)
 * starts the grid anew instead of catching up in a burst.
 *
 * perf's core fits the period at each sample only if the last came less
 * than two ticks before, and at each scheduler tick from the count over
 * that tick; but an idle CPU has no regular tick, and uncore counts go on
 * however idle the reading CPU is: perf's tick would fit a period to the
 * count of a long idle stretch as if it took one tick. So the driver fits
 * the period itself, from the true time, and perf's tick is kept from
 * changing it (uncore_freq_stamp()).
 */
static u64 uncore_freq_period(struct perf_event *event, u64 count)
{
	struct uncore_event *ue = to_uevent(event);
	u64 now = local_clock(), dt = now - ue->freq_last;
	u64 step = div64_u64(NSEC_PER_SEC, event->attr.sample_freq) ?: 1;
	u64 slot = ue->freq_slot + step;
	u64 period = event->hw.sample_period;

	if (!ue->freq_slot || slot <= now)
		slot = now + step;
	else
		slot = max(slot, now + step / 4);
	if (dt && ue->freq_last)
		period = uncore_scale_period(count, slot - now, dt);
	ue->freq_last = now;
	ue->freq_slot = slot;
	return max_t(u64, period, 1);
}

/*
 * Emit the samples of every period of @event that elapsed by its last
 * update. A throttled event stops (*@running false); perf or the driver
 * restarts it from a later tick. Return: the number of periods elapsed.
 */
static u64 uncore_sample(struct uncore_box *box, struct perf_event *event,
			 struct pt_regs *regs, bool *running)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left), next;
	u64 n, count;

	n = uncore_samples_due(left, hwc->sample_period, &next);
	*running = true;
	if (!n)
		return 0;
	if (!event->attr.freq) {
		/* The last period ended sample_period - next counts ago. */
		*running = !uncore_emit(box, event, regs, n, hwc->sample_period,
					local64_read(&event->count) -
					(hwc->sample_period - next));
		local64_set(&hwc->period_left, next);
		return n;
	}
	/*
	 * Frequency mode: one sample for the whole count since the last,
	 * then a period fitted to the rate it came at (uncore_freq_period()).
	 */
	count = hwc->last_period - left;
	*running = !uncore_emit(box, event, regs, 1, count,
				local64_read(&event->count));
	hwc->sample_period = uncore_freq_period(event, count);
	hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, hwc->sample_period);
	return n;
}

/*
 * A sampling event after an overflow, its counter frozen: count, emit the
 * samples of every period that elapsed (the counter ran on past zero until
 * the freeze took hold), preload the next period.
 */
static void uncore_pmi_sample(struct uncore_pkg_pmi *p, struct uncore_box *box,
			      struct perf_event *event, struct pt_regs *regs)
{
	bool running;

	uncore_event_update(box, event);
	p->periods += uncore_sample(box, event, regs, &running);
	if (running)
		uncore_set_period(box, event);
}

/*
 * How often the box's timer runs: often enough that no counter can wrap
 * twice between two reads, every sample tick while it has events that it
 * samples, every tick while the driver holds one of its events throttled.
 * Return: true if that is sooner than before.
 */
static bool uncore_set_poll_period(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;
	u64 period = U64_MAX, old = box->poll_ns;
	int i;

	for (i = 0; i < box->n_events; i++) {
		struct perf_event *event = box->events[i];
		u64 rate = uncore_event_max_rate(type, event->attr.config);

		period = min(period, uncore_poll_period_ns(counter_width(type, event),
							   rate));
	}
	if (box->n_timer)
		period = min(period, uncore_sample_tick_ns());
	if (box->n_throttled)
		period = min_t(u64, period, TICK_NSEC);
	if (box->faults & (BIT(UNCORE_BOX_FAULT) | BIT(UNCORE_BOX_REPROGRAM)))
		period = min_t(u64, period, UNCORE_FAULT_POLL_NS);
	period = min_t(u64, period,
		       (u64)max(READ_ONCE(poll_max_ms), 1U) * NSEC_PER_MSEC);
	box->poll_ns = period;
	return period < old;
}

/* (Re)start the box's timer, from anywhere but the timer itself. */
static void uncore_poll_start(struct uncore_box *box)
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
		if (hwc->interrupts == UNCORE_THROTTLED) {
			if (now - to_uevent(box->events[i])->thr_window < TICK_NSEC)
				continue;
			hwc->interrupts = 0;
			if (hwc->state & PERF_HES_STOPPED)
				uncore_pmu_start(box->events[i], 0);
		}
		/* Otherwise perf's tick restarted it first. */
		hwc->flags &= ~UNCORE_HWF_THROTTLED;
		box->n_throttled--;
	}
}

/*
 * The box answers again after a fault (uncore_box_answered()): its running
 * events' controls are written again, in case an enabling write was lost.
 * The same value again changes nothing for a counter that kept counting.
 * On the reading CPU, IRQs off.
 */
static void uncore_reprogram(struct uncore_box *box)
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

/*
 * In process context, after uncore_check_foreign() or the removal of the
 * event's box (uncore_box_kill()): off and on again, the event is scheduled
 * anew and uncore_pmu_filter_match() passes it over, so perf keeps it
 * enabled but not running. Its running time stops there, and perf shows it
 * as any event that could not get a counter: scaled with its share of the
 * time, or <not counted>. A group it is in stops with it, as groups do.
 * (A user's disable that lands between the two calls is undone: the event
 * stays enabled, counting nothing.)
 */
static void uncore_lost_work(struct work_struct *work)
{
	struct perf_event *event =
		container_of(work, struct uncore_event, lost_work)->event;

	perf_event_disable(event);
	perf_event_enable(event);
}

/*
 * The box's timer, on its reading CPU: reads every running event, so that
 * none wraps unseen, and samples those of a box that cannot interrupt.
 * Their samples carry the registers the timer interrupted: the IP is
 * whatever the reading CPU was running, not the cause of the events.
 */
static enum hrtimer_restart uncore_poll(struct hrtimer *hrtimer)
{
	struct uncore_box *box = container_of(hrtimer, struct uncore_box, hrtimer);
	struct pt_regs *regs = NULL, caller;
	int i, sampling = 0;
	bool running;
	u64 next;

	uncore_pass_begin();
	if (box->n_throttled)
		uncore_unthrottle(box);
	uncore_reprogram(box);
	for (i = 0; i < box->n_events; i++) {
		struct perf_event *event = box->events[i];

		if (event->hw.state & PERF_HES_STOPPED ||
		    uncore_check_foreign(box, event))
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
	 * A CPU over its budget has the next tick to itself at least, and a
	 * box whose timer events are all throttled has nothing to sample
	 * before the tick that restarts them.
	 */
	next = box->poll_ns;
	if (uncore_over_budget(local_clock()) || (box->n_timer && !sampling))
		next = max_t(u64, next, TICK_NSEC);
	uncore_pass_end();
	hrtimer_forward_now(hrtimer, ns_to_ktime(next));
	return HRTIMER_RESTART;
}

static u32 uncore_box_status(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;
	u64 val = 0;
	u32 st;

	if (!type->box_status)
		return 0;
	if (type->pci) {
		uncore_pci_read(box, box->pdev, type->box_status, &st);
		/* Reserved bits set: the function is gone, not overflowing. */
		if (st == U32_MAX) {
			uncore_box_fault(box, "config read at", type->box_status);
			return 0;
		}
		return st;
	}
	uncore_msr_read(box, type->box_status + box->msr_base, &val);
	return val;
}

/*
 * Write a register of the box at @off in its type's layout: a config
 * offset of a PCI box, an MSR of box 0 of an MSR type.
 */
static void uncore_box_reg_write(struct uncore_box *box, u32 off, u64 val)
{
	if (box->pmu->type->pci)
		uncore_pci_write(box, box->pdev, off, val);
	else
		uncore_msr_write(box, off + box->msr_base, val);
}

/* Acknowledge status bits @st: in their own register, or where they are. */
static void uncore_box_status_clear(struct uncore_box *box, u32 st)
{
	const struct uncore_type *type = box->pmu->type;

	uncore_box_reg_write(box, type->box_ovf_ctl ?: type->box_status, st);
}

/*
 * Status bits @bits of boxes of package @pkg that have no sampling event
 * here: counting events that wrapped set them too (a box's status records
 * every overflow, NHM-EX 000:73-79), and nothing else would clear them, so
 * that every NMI from then on would find them unclaimed and be taken for
 * the package's PMI. Their events lose nothing by it: a wrap is a delta at
 * their next read. On the reading CPU, IRQs off (the pass, or an add()),
 * so no event is added meanwhile. PCI boxes are left out: one may be
 * removed under this walk; their status stays as it was.
 */
static void uncore_clear_stale(int pkg, u64 bits)
{
	int i;

	for (i = 0; i < uncore_n_pmus && bits; i++) {
		struct uncore_box *box = uncore_pmus[i]->boxes[pkg];
		u32 st;

		if (!box || box->dead || box->pmu->type->pci || box->n_pmi ||
		    !(box->pmi_mask & bits) ||
		    READ_ONCE(box->cpu) != smp_processor_id())
			continue;
		st = uncore_box_status(box);
		if (st)
			uncore_box_status_clear(box, st);
	}
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
 * A pass with nothing claimed comes from an NMI taken as an owed PMI: its
 * freeze has landed after an earlier pass unfroze, and only the unfreeze
 * is left to do.
 */
static void uncore_pmi_work(struct irq_work *work)
{
	struct uncore_pkg_pmi *p = container_of(work, struct uncore_pkg_pmi, work);
	const struct uncore_pmi *pmi = uncore_plat->pmi;
	u64 status = atomic64_read(&p->claimed), covered = 0;
	struct uncore_box *box;
	struct pt_regs regs;
	int i;

	/*
	 * The samples carry the handler's own registers. The NMI's are not
	 * kept: the irq_work vector sets no irq_regs, and by now the stack
	 * those registers describe may have moved on, so a callchain
	 * unwound from them would be garbage.
	 */
	perf_fetch_caller_regs(&regs);

	uncore_pass_begin();
	list_for_each_entry(box, &p->boxes, pmi_node) {
		u32 st;

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
		st = uncore_box_status(box);
		for (i = 0; i < box->n_events; i++) {
			struct perf_event *event = box->events[i];

			if (uncore_pmi_event(event) &&
			    !(event->hw.state & PERF_HES_STOPPED))
				uncore_pmi_sample(p, box, event, &regs);
		}
		if (st)
			uncore_box_status_clear(box, st);
		/* The timer restarts what the driver throttled. */
		if (box->n_throttled && uncore_set_poll_period(box))
			uncore_poll_start(box);
	}
	if (status & ~covered)
		uncore_clear_stale(p->gbox->pkg, status & ~covered);
	if (status) {
		pmi->ack(p->gbox, status);
		atomic64_andnot(status, &p->claimed);
	}
	pmi->unfreeze(p->gbox, p->ctl);
	p->handled++;
	uncore_pass_end();
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
	int cpu = smp_processor_id();
	int pkg = topology_logical_package_id(cpu);
	const struct uncore_pmi *pmi = uncore_plat->pmi;
	struct uncore_pkg_pmi *p;
	int rcpu;
	u64 status;

	if (pkg < 0 || pkg >= uncore_max_pkgs)
		return NMI_DONE;
	p = &uncore_pkgs[pkg].pmi;
	rcpu = READ_ONCE(p->cpu);
	if (rcpu < 0 || !p->gbox)
		return NMI_DONE;
	/*
	 * pmi_core_sel names cores (manual Table 2-2): the PMI may come to
	 * either thread of the reading CPU's core, whichever is online.
	 */
	if (rcpu != cpu && !cpumask_test_cpu(cpu, topology_sibling_cpumask(rcpu)))
		return NMI_DONE;
	if (pmi->read_status(p->gbox, &status))
		return NMI_DONE;
	/* Most NMIs here are not ours: no locked operation for status 0. */
	if (status && (status & ~atomic64_fetch_or(status, &p->claimed))) {
		/* Unless this NMI is the PMI, the PMI is still to come. */
		atomic_set(&p->owed, 1);
		atomic64_inc(&p->nmi);
	} else if (atomic_xchg(&p->owed, 0)) {
		atomic64_inc(&p->owed_nmi);
	} else {
		return NMI_DONE;
	}
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
	err = rcpu >= 0 ? smp_call_function_single_async(rcpu, &p->csd) : -ENXIO;
	if (!err)
		return;
	atomic_set(&p->csd_busy, 0);
	/*
	 * The reading CPU went offline after the NMI (what it had queued ran
	 * before it died). A package with sampling events has re-armed the
	 * route, and the reading CPU with it, on its new reading CPU; so none
	 * has, @boxes is empty, and the pass only clears status and freeze.
	 */
	uncore_pmi_work(&p->work);
}

/*
 * Route the package's PMI to this CPU, its reading CPU, before a sampling
 * event first enables an overflow. The routing then stays: an overflow
 * that is already on its way when the last sampling event goes still
 * freezes the package, and its PMI is what unfreezes it. The handler
 * accepts NMIs here before the PMI can come here. Status left from before
 * is cleared and the package unfrozen; a freeze of that status may still
 * be on its way, and then it owes its PMI to this CPU.
 */
static void uncore_pmi_arm(struct uncore_pkg_pmi *p)
{
	const struct uncore_pmi *pmi = uncore_plat->pmi;
	int cpu = smp_processor_id();
	u64 status = 0;

	if (p->cpu == cpu)
		return;
	p->ctl = pmi->route(cpu);
	WRITE_ONCE(p->cpu, cpu);
	if (!pmi->read_status(p->gbox, &status) && status) {
		uncore_clear_stale(p->gbox->pkg, status);
		pmi->ack(p->gbox, status);
		atomic_set(&p->owed, 1);
	}
	pmi->unfreeze(p->gbox, p->ctl);
}

/* Sampling event @event joins or leaves its box's PMI duty. */
static void uncore_pmi_attach(struct uncore_box *box)
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

static void uncore_pmi_detach(struct uncore_box *box)
{
	if (!--box->n_pmi)
		list_del(&box->pmi_node);
}

/* ---- Auxiliary-register arbitration ------------------------------------ */

/*
 * Write the registers in @dirty (uncore_aux_get()), slot by slot in slot
 * order (struct uncore_ops.write_aux).
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
			type->ops->write_aux(box, s, box->aux.st.val[s], regs);
	}
}

/*
 * Reset a box, its auxiliary registers included: their reset values are
 * not documented everywhere (BDX box reset leaves the filters alone), and
 * the core's record of them starts at zero. Once per box, before anyone
 * can add an event to it (the CPU online callback, or PCI probe).
 */
static void uncore_box_init(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;

	/* A forwarding type has no registers of its own. */
	if (!type->forward) {
		type->ops->init_box(box);
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

static void uncore_put_aux(struct uncore_box *box, struct perf_event *event)
{
	const struct uncore_type *type = box->pmu->type;
	struct uncore_event *ue = to_uevent(event);
	unsigned long flags;
	u64 dirty;

	if (!ue->aux.nreq)
		return;
	raw_spin_lock_irqsave(&box->aux.lock, flags);
	uncore_aux_put(type->aux, &box->aux.st, &ue->aux, ue->aux_choice,
		       &dirty);
	/* A removed device takes no write; its state goes with it. */
	if (!box->dead)
		uncore_aux_write(box, dirty);
	raw_spin_unlock_irqrestore(&box->aux.lock, flags);
	event->hw.config &= ~ue->aux_ctl;
	ue->aux_ctl = 0;
}

/* ---- perf callbacks ---------------------------------------------------- */

static u32 uncore_allowed(const struct uncore_type *type,
			  const struct perf_event *event)
{
	return to_uevent(event)->allowed;
}

/* ---- Groups: transactions and switching a group at once ---------------- */

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
 * callback runs on the box's reading CPU with IRQs off.
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

/* Freeze the box, if its type can, until uncore_box_let_run(). */
static void uncore_box_hold(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;

	if (box->held || box->dead ||
	    !(type->box_ctl_freeze || type->box_ctl_run))
		return;
	uncore_box_reg_write(box, type->box_ctl, type->box_ctl_freeze);
	box->held = true;
}

static void uncore_box_let_run(struct uncore_box *box)
{
	if (!box->held)
		return;
	box->held = false;
	if (!box->dead)
		uncore_box_reg_write(box, box->pmu->type->box_ctl,
				     box->pmu->type->box_ctl_run);
}

static void uncore_pmu_disable(struct pmu *pmu)
{
	struct uncore_box *box = uncore_cpu_box(pmu);

	if (box)
		box->batch = true;
}

static void uncore_pmu_enable(struct pmu *pmu)
{
	struct uncore_box *box = uncore_cpu_box(pmu);

	if (!box)
		return;
	box->batch = false;
	uncore_box_let_run(box);
}

static void uncore_start_txn(struct pmu *pmu, unsigned int flags)
{
	struct uncore_box *box = uncore_cpu_box(pmu);

	if (box)
		box->txn_flags = flags;
}

static int uncore_commit_txn(struct pmu *pmu)
{
	struct uncore_box *box = uncore_cpu_box(pmu);
	int i, n = 0;

	if (!box)
		return 0;
	if (!(box->txn_flags & PERF_PMU_TXN_ADD)) {
		box->txn_flags = 0;
		return 0;
	}
	box->txn_flags = 0;
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
	if (!box->batch)
		uncore_box_let_run(box);
	return 0;
}

static void uncore_cancel_txn(struct pmu *pmu)
{
	struct uncore_box *box = uncore_cpu_box(pmu);

	if (box)
		box->txn_flags = 0;
}

static void uncore_pmu_start(struct perf_event *event, int flags)
{
	struct uncore_box *box = event_box(event);
	struct hw_perf_event *hwc = &event->hw;

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
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

static void uncore_pmu_stop(struct perf_event *event, int flags)
{
	struct uncore_box *box = event_box(event);
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		/* perf takes a group off between pmu_disable and pmu_enable. */
		if (box->batch && uncore_in_group(event))
			uncore_box_hold(box);
		if (!box->dead)
			box->pmu->type->ops->disable_event(box, event);
		hwc->state |= PERF_HES_STOPPED;
	}
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		uncore_event_update(box, event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

/*
 * del() of a move (uncore_pkg_move()): perf takes the event off here and
 * adds it on the new reading CPU a grace period later. Its counter goes on
 * counting meanwhile, its auxiliary fields held, so that add() there reads on
 * from where it was: nothing the box counts in the gap is lost. A counter
 * that could raise a PMI loses ov_en: the PMI stays here until the move
 * ends, and the box's timer samples the event on the new CPU meanwhile.
 * Return: true if the counter is carried.
 */
static bool uncore_carry(struct uncore_box *box, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int cpu = READ_ONCE(box->cpu);

	if (cpu < 0 || cpu == smp_processor_id() || box->dead ||
	    (hwc->state & PERF_HES_STOPPED))
		return false;
	uncore_event_update(box, event);
	if (uncore_pmi_event(event)) {
		hwc->config &= ~box->pmu->type->ctl->ov_en;
		box->pmu->type->ops->enable_event(box, event);
	}
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	hwc->flags |= UNCORE_HWF_MOVED;
	box->carried |= BIT(hwc->idx);
	box->carried_ev[hwc->idx] = event;
	return true;
}

/* Let a carried counter go: its event will not be added back to it. */
static void uncore_uncarry(struct uncore_box *box, int idx)
{
	struct perf_event *event = box->carried_ev[idx];

	if (!box->dead)
		box->pmu->type->ops->disable_event(box, event);
	uncore_put_aux(box, event);
	box->carried &= ~BIT(idx);
	box->carried_ev[idx] = NULL;
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
 */
static int uncore_pmu_filter_match(struct perf_event *event)
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
	bool resume;
	u32 taken;

	/*
	 * Only the box's reading CPU touches it. An event perf adds anywhere
	 * else (one left on the old CPU by a move that uncore_wait_opens()
	 * gave up waiting for) stays off, and perf's rotation tries again.
	 */
	if (READ_ONCE(box->cpu) != smp_processor_id())
		return -EAGAIN;
	/* Passed over by uncore_pmu_filter_match() already. */
	if (event->hw.flags & UNCORE_HWF_LOST)
		return -EBUSY;
	if (n >= UNCORE_MAX_EVENTS)
		return -ENOSPC;
	if (box->dead)
		return -ENODEV;
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
	 * one's to have; an event that lost its counter is not moved off it
	 * (its del() comes soon, from uncore_lost_work()).
	 */
	taken = box->carried | READ_ONCE(box->foreign);
	for (i = 0; i < n; i++) {
		struct perf_event *other = box->events[i];

		allowed[i] = other->hw.flags & UNCORE_HWF_LOST ?
			     BIT(box->assign[i]) :
			     uncore_allowed(type, other) & ~taken;
		prev[i] = box->assign[i];
	}
	allowed[n] = resume ? BIT(idx) : uncore_allowed(type, event) & ~taken;
	prev[n] = resume ? idx : -1;
	if (uncore_assign_counters(allowed, prev, n + 1, assign)) {
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

static void uncore_pmu_read(struct perf_event *event)
{
	struct uncore_box *box = event_box(event);

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
	return uncore_assign_counters(allowed, prev, n, assign) ? -EINVAL : 0;
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

static void uncore_box_release(struct kref *ref)
{
	struct uncore_box *box = container_of(ref, struct uncore_box, ref);

	kfree(box);
}

/* On the box's reading CPU: @info's counter, if still carried, goes. */
static void uncore_drop_carried(void *info)
{
	struct perf_event *event = info;
	struct uncore_box *box = event_box(event);
	int idx = event->hw.idx;

	if (idx >= 0 && idx < UNCORE_MAX_EVENTS && box->carried_ev[idx] == event)
		uncore_uncarry(box, idx);
}

/*
 * Drop the uncore_opens entries of events that perf has installed (and
 * @event's, if given). Return: whether an event given @cpu is still on
 * its way there.
 */
static bool uncore_prune_opens(struct perf_event *event, int cpu)
{
	struct uncore_open *o, *tmp;
	bool busy = false;

	spin_lock(&uncore_open_lock);
	list_for_each_entry_safe(o, tmp, &uncore_opens, node) {
		if (o->event == event || READ_ONCE(o->event->ctx)) {
			list_del(&o->node);
			kfree(o);
		} else if (o->cpu == cpu) {
			busy = true;
		}
	}
	spin_unlock(&uncore_open_lock);
	return busy;
}

/*
 * In event_init, before it looks at package @pkg's reading CPU: wait for
 * the package's move (uncore_pkg_move()) to end. A group member does not
 * wait: perf_try_init_event() holds its leader's context mutex around
 * event_init, and perf_pmu_migrate_context() takes the mutex of every
 * context of the package on the old CPU, the leader's among them. The two
 * would wait for each other, and every cpus_read_lock() behind the hotplug
 * with them. uncore_move_cpu() gives a member its CPU during a move.
 *
 * Return: 0, or -EINTR if the task was killed while it waited.
 */
static int uncore_wait_move(struct perf_event *event, int pkg)
{
	if (event->group_leader != event)
		return 0;
	if (wait_event_killable(uncore_move_wq,
				!READ_ONCE(uncore_pkgs[pkg].moving)))
		return -EINTR;
	return 0;
}

/*
 * The CPU an event of @box goes to, uncore_open_lock held. Outside a move,
 * the box's reading CPU. During one, only a group member gets here
 * (uncore_wait_move()): its leader's CPU, if the leader is in a context of
 * this pmu; the mutex perf holds keeps the leader there, in the old CPU's
 * context or the new one's. perf refuses a member on any other CPU, and
 * the move takes the member along if it lands on the old CPU
 * (uncore_wait_opens(), or perf_pmu_migrate_context() once perf installed
 * it). A leader of another context has no CPU to offer: -EBUSY, for an
 * open that raced a hotplug.
 *
 * Return: the CPU; -EAGAIN for an event that must wait for the move,
 * -ENODEV if the package has no CPU online, -EBUSY as above.
 */
static int uncore_move_cpu(struct uncore_box *box, struct perf_event *event,
			   int pkg)
{
	struct perf_event *leader = event->group_leader;

	lockdep_assert_held(&uncore_open_lock);
	if (!uncore_pkgs[pkg].moving) {
		int cpu = READ_ONCE(box->cpu);

		return cpu < 0 ? -ENODEV : cpu;
	}
	if (leader == event)
		return -EAGAIN;
	if (leader->ctx && leader->ctx->pmu == event->pmu)
		return leader->cpu;
	return -EBUSY;
}

/* How long a move waits for opens that chose its old CPU. */
#define UNCORE_OPEN_WAIT_MS	5000

/*
 * In the hotplug callback, after the package's move has begun (no new
 * event_init picks @cpu): wait until every event that event_init gave
 * @cpu, the old reading CPU, is in perf's context there, where
 * perf_pmu_migrate_context() finds it; an event perf installed after the
 * migration would stay on @cpu and die with its context.
 *
 * The wait is bounded: an open can block, between event_init and its
 * install, on the hotplug lock this thread holds (perf's static keys, for
 * a context-switch or cgroup event). Such an event is installed on @cpu
 * after the move, where add() refuses it, and does not count.
 */
static void uncore_wait_opens(int cpu)
{
	unsigned long end = jiffies + msecs_to_jiffies(UNCORE_OPEN_WAIT_MS);

	while (uncore_prune_opens(NULL, cpu)) {
		if (time_after(jiffies, end)) {
			pr_warn("an event opened on CPU %d as it went offline was not installed in %d ms: it will not count\n",
				cpu, UNCORE_OPEN_WAIT_MS);
			return;
		}
		usleep_range(1000, 2000);
	}
}

/* An event's reference on its box and pmu goes when perf frees the event. */
static void uncore_event_destroy(struct perf_event *event)
{
	struct uncore_box *box = event_box(event);

	/* Off the box since its del(): nothing queues it again. */
	cancel_work_sync(&to_uevent(event)->lost_work);
	if (to_uevent(event)->lost_idx >= 0)
		clear_bit(to_uevent(event)->lost_idx, &box->foreign);
	uncore_prune_opens(event, -1);

	/*
	 * Closed between a move's install and its end, never added back:
	 * its counter must not outlive it (uncore_pkg_uncarry()). The
	 * hotplug lock keeps the box's reading CPU, which owns it, in place.
	 */
	if (event->hw.flags & UNCORE_HWF_MOVED) {
		int cpu;

		cpus_read_lock();
		cpu = READ_ONCE(box->cpu);
		if (cpu >= 0)
			smp_call_function_single(cpu, uncore_drop_carried,
						 event, true);
		cpus_read_unlock();
	}

	mutex_lock(&uncore_box_mutex);
	box->pmu->nr_events--;
	mutex_unlock(&uncore_box_mutex);
	kref_put(&box->ref, uncore_box_release);
	kfree(to_uevent(event));
	event->pmu_private = NULL;
}

/*
 * An event of a forwarding type (&struct uncore_type.forward), in process
 * context: validated like any other, placed on its package's reading CPU,
 * rewritten for the PMU that counts it and handed on: -ENOENT with a new
 * attr.type makes perf_init_event() offer it to that type's PMU. Nothing of
 * it stays here (no destroy, no box reference), and that PMU checks nothing
 * of ours, so what this PMU's capabilities would have refused is refused
 * here. Its group is that PMU's to validate, with the event in it.
 */
static int uncore_forward_init(struct uncore_pmu *upmu,
			       struct perf_event *event)
{
	struct uncore_event *ue;
	struct uncore_box *box;
	int err, cpu, pkg;

	/* PERF_PMU_CAP_NO_EXCLUDE, which the counting PMU does not have. */
	if (event_has_any_exclude_flag(event))
		return -EINVAL;
	/* Its interrupt would sample the reading CPU, not the node. */
	if (is_sampling_event(event))
		return -EOPNOTSUPP;
	ue = kzalloc(sizeof(*ue), GFP_KERNEL);
	if (!ue)
		return -ENOMEM;
	err = uncore_event_config(upmu->type, event, ue);
	kfree(ue);
	if (err)
		return err;

	/* As for an event of our own, but nothing to wait for after it. */
	pkg = topology_logical_package_id(event->cpu);
again:
	err = uncore_wait_move(event, pkg);
	if (err)
		return err;
	mutex_lock(&uncore_box_mutex);
	box = upmu->boxes[pkg];
	spin_lock(&uncore_open_lock);
	cpu = box ? uncore_move_cpu(box, event, pkg) : -ENODEV;
	if (cpu == -EAGAIN) {
		spin_unlock(&uncore_open_lock);
		mutex_unlock(&uncore_box_mutex);
		goto again;
	}
	/* The note of a move (uncore_pkg_move()) counts it, or comes later. */
	if (cpu >= 0)
		atomic_inc(&box->forwarded);
	spin_unlock(&uncore_open_lock);
	mutex_unlock(&uncore_box_mutex);
	if (cpu < 0)
		return cpu;
	/* Counted once per package, on the CPU its cpumask names. */
	event->cpu = cpu;
	err = upmu->type->forward(upmu->type, event);
	return err ? err : -ENOENT;
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

/* ---- sysfs --------------------------------------------------------------- */

struct uncore_str_attr {
	struct device_attribute attr;
	const char *str;
};

struct uncore_type_sysfs {
	struct attribute_group format;
	struct attribute_group events;
	struct attribute **format_attrs;
	struct attribute **event_attrs;
	struct uncore_str_attr *strs;
	char *names;
};

static ssize_t uncore_str_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  container_of(attr, struct uncore_str_attr, attr)->str);
}

static struct uncore_pmu *dev_to_uncore_pmu(struct device *dev)
{
	return to_uncore_pmu(dev_get_drvdata(dev));
}

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct uncore_pmu *upmu = dev_to_uncore_pmu(dev);
	cpumask_var_t mask;
	ssize_t ret;
	int pkg, cpu;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	/*
	 * A snapshot, with no lock: a reader of this file holds the pmu's
	 * sysfs active, which perf_pmu_unregister() waits for with perf's
	 * pmus_lock held; a CPU going offline waits for pmus_lock with the
	 * hotplug lock held for writing, and cpus_read_lock() here would wait
	 * for that writer. The values are CPU numbers and box pointers only
	 * compared with NULL, each read once.
	 */
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
		cpu = READ_ONCE(uncore_pkgs[pkg].cpu);
		if (READ_ONCE(upmu->boxes[pkg]) && cpu >= 0)
			cpumask_set_cpu(cpu, mask);
	}
	ret = cpumap_print_to_pagebuf(true, buf, mask);
	free_cpumask_var(mask);
	return ret;
}
static DEVICE_ATTR_RO(cpumask);

static ssize_t num_counters_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	const struct uncore_type *type = dev_to_uncore_pmu(dev)->type;

	return sysfs_emit(buf, "%d\n", type->num_counters);
}
static DEVICE_ATTR_RO(num_counters);

static ssize_t counter_width_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	const struct uncore_type *type = dev_to_uncore_pmu(dev)->type;

	return sysfs_emit(buf, "%d\n", type->ctr_bits);
}
static DEVICE_ATTR_RO(counter_width);

static ssize_t fixed_counter_width_show(struct device *dev,
					struct device_attribute *attr, char *buf)
{
	const struct uncore_type *type = dev_to_uncore_pmu(dev)->type;

	return sysfs_emit(buf, "%d\n", type->fixed_ctr_bits);
}
static DEVICE_ATTR_RO(fixed_counter_width);

static struct attribute *uncore_pmu_attrs[] = {
	&dev_attr_cpumask.attr,
	&dev_attr_num_counters.attr,
	&dev_attr_counter_width.attr,
	&dev_attr_fixed_counter_width.attr,
	NULL,
};

static const struct attribute_group uncore_pmu_group = {
	.attrs = uncore_pmu_attrs,
};

static void uncore_free_type_sysfs(struct uncore_type_sysfs *ts)
{
	if (!ts)
		return;
	kfree(ts->format_attrs);
	kfree(ts->event_attrs);
	kfree(ts->strs);
	kfree(ts->names);
	kfree(ts);
}

static void uncore_fill_str(struct uncore_str_attr *sa, struct attribute **slot,
			    const char *name, const char *str)
{
	sysfs_attr_init(&sa->attr.attr);
	sa->attr.attr.name = name;
	sa->attr.attr.mode = 0444;
	sa->attr.show = uncore_str_show;
	sa->str = str;
	*slot = &sa->attr.attr;
}

/* Length of "<name>.<suffix>" plus its NUL, 0 if the event has no @str. */
static size_t uncore_suffix_len(const char *name, const char *str,
				const char *suffix)
{
	return str ? strlen(name) + 1 + strlen(suffix) + 1 : 0;
}

/*
 * The events/ group: each alias, and perf's <alias>.scale and <alias>.unit
 * beside it where the event has them. Names with a suffix are built in
 * @ts->names, one allocation for the type.
 */
static int uncore_fill_events(struct uncore_type_sysfs *ts,
			      const struct uncore_event_desc *ev, int first)
{
	struct uncore_str_attr *sa = ts->strs + first;
	struct attribute **slot = ts->event_attrs;
	size_t len = 0;
	char *p;
	int i;

	for (i = 0; ev && ev[i].name; i++) {
		if (!uncore_listed(&ev[i]))
			continue;
		len += uncore_suffix_len(ev[i].name, ev[i].scale, "scale") +
		       uncore_suffix_len(ev[i].name, ev[i].unit, "unit");
	}
	ts->names = kzalloc(len + 1, GFP_KERNEL);
	if (!ts->names)
		return -ENOMEM;

	p = ts->names;
	for (i = 0; ev && ev[i].name; i++) {
		if (!uncore_listed(&ev[i]))
			continue;
		uncore_fill_str(sa++, slot++, ev[i].name, ev[i].config);
		if (ev[i].scale) {
			len = sprintf(p, "%s.scale", ev[i].name) + 1;
			uncore_fill_str(sa++, slot++, p, ev[i].scale);
			p += len;
		}
		if (ev[i].unit) {
			len = sprintf(p, "%s.unit", ev[i].name) + 1;
			uncore_fill_str(sa++, slot++, p, ev[i].unit);
			p += len;
		}
	}
	return 0;
}

static struct uncore_type_sysfs *uncore_alloc_type_sysfs(const struct uncore_type *type)
{
	const struct uncore_event_desc *ev = type->events;
	struct uncore_type_sysfs *ts;
	int nf = 0, ne = 0, i;

	while (type->formats && type->formats[nf].name)
		nf++;
	for (i = 0; ev && ev[i].name; i++)
		if (uncore_listed(&ev[i]))
			ne += 1 + !!ev[i].scale + !!ev[i].unit;

	ts = kzalloc(sizeof(*ts), GFP_KERNEL);
	if (!ts)
		return NULL;
	ts->format_attrs = kcalloc(nf + 1, sizeof(*ts->format_attrs), GFP_KERNEL);
	ts->event_attrs = kcalloc(ne + 1, sizeof(*ts->event_attrs), GFP_KERNEL);
	ts->strs = kcalloc(nf + ne, sizeof(*ts->strs), GFP_KERNEL);
	if (!ts->format_attrs || !ts->event_attrs || (nf + ne && !ts->strs))
		goto fail;
	for (i = 0; i < nf; i++)
		uncore_fill_str(&ts->strs[i], &ts->format_attrs[i],
				type->formats[i].name, type->formats[i].spec);
	if (uncore_fill_events(ts, ev, nf))
		goto fail;
	ts->format.name = "format";
	ts->format.attrs = ts->format_attrs;
	ts->events.name = "events";
	ts->events.attrs = ts->event_attrs;
	return ts;

fail:
	uncore_free_type_sysfs(ts);
	return NULL;
}

/* ---- debugfs: register access counts ---------------------------------- */

static int uncore_access_show(struct seq_file *m, void *v)
{
	int i, pkg;

	seq_printf(m, "# backend: %s\n", uncore_access_backend());
	seq_puts(m, "# pmu pkg msr_rd msr_wr pci_rd pci_wr errors\n");
	mutex_lock(&uncore_box_mutex);
	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_pmu *upmu = uncore_pmus[i];

		for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
			struct uncore_box *box = upmu->boxes[pkg];

			if (!box)
				continue;
			seq_printf(m, "%s %d %llu %llu %llu %llu %llu\n",
				   upmu->name, pkg, READ_ONCE(box->stats.msr_rd),
				   READ_ONCE(box->stats.msr_wr),
				   READ_ONCE(box->stats.pci_rd),
				   READ_ONCE(box->stats.pci_wr),
				   READ_ONCE(box->stats.errors));
		}
	}
	mutex_unlock(&uncore_box_mutex);
	return 0;
}

/* Which CPU reads each box, how many events it has, how often it polls. */
static int uncore_boxes_show(struct seq_file *m, void *v)
{
	int i, pkg;

	seq_puts(m, "# pmu pkg cpu events poll_ns throttled\n");
	mutex_lock(&uncore_box_mutex);
	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_pmu *upmu = uncore_pmus[i];

		for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
			struct uncore_box *box = upmu->boxes[pkg];
			int n;

			if (!box)
				continue;
			n = READ_ONCE(box->n_events);
			seq_printf(m, "%s %d %d %d %llu %d\n", upmu->name, pkg,
				   READ_ONCE(box->cpu), n,
				   n ? READ_ONCE(box->poll_ns) : 0,
				   READ_ONCE(box->n_throttled));
		}
	}
	mutex_unlock(&uncore_box_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uncore_boxes);

/* Each package's reading CPU, parking CPU, and whether it is up. */
static int uncore_packages_show(struct seq_file *m, void *v)
{
	int pkg;

	seq_puts(m, "# pkg cpu park moving up\n");
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
		struct uncore_package *p = &uncore_pkgs[pkg];

		seq_printf(m, "%d %d %d %d %d\n", pkg, READ_ONCE(p->cpu),
			   READ_ONCE(p->park), READ_ONCE(p->moving),
			   READ_ONCE(p->up));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uncore_packages);

/* Each package's PMI routing and what its handler did. */
static int uncore_pmi_show(struct seq_file *m, void *v)
{
	int pkg;

	seq_puts(m, "# pkg cpu nmi handled periods owed_nmi owed\n");
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
		struct uncore_pkg_pmi *p = &uncore_pkgs[pkg].pmi;

		seq_printf(m, "%d %d %lld %llu %llu %lld %d\n", pkg,
			   READ_ONCE(p->cpu), atomic64_read(&p->nmi),
			   READ_ONCE(p->handled), READ_ONCE(p->periods),
			   atomic64_read(&p->owed_nmi), atomic_read(&p->owed));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uncore_pmi);

/* Samples each box handed perf, by PMI or by its timer, and throttles. */
static int uncore_samples_show(struct seq_file *m, void *v)
{
	int i, pkg;

	seq_printf(m, "# throttle at %u samples per event per tick (max_sample_rate %u, HZ %d)\n",
		   uncore_tick_limit(), READ_ONCE(max_sample_rate), HZ);
	seq_puts(m, "# pmu pkg mode samples lost throttles over_budget\n");
	mutex_lock(&uncore_box_mutex);
	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_pmu *upmu = uncore_pmus[i];

		for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
			struct uncore_box *box = upmu->boxes[pkg];
			bool pmi;

			if (!box)
				continue;
			pmi = box->pmi_mask &&
			      uncore_pmi_routable(READ_ONCE(box->cpu));
			seq_printf(m, "%s %d %s %llu %llu %llu %llu\n",
				   upmu->name, pkg, pmi ? "pmi" : "timer",
				   READ_ONCE(box->samples),
				   READ_ONCE(box->lost),
				   READ_ONCE(box->throttles),
				   READ_ONCE(box->over_budget));
		}
	}
	mutex_unlock(&uncore_box_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uncore_samples);

static int uncore_access_open(struct inode *inode, struct file *file)
{
	return single_open(file, uncore_access_show, NULL);
}

/* Events on their way to perf's context: the CPU event_init gave each. */
static int uncore_opens_show(struct seq_file *m, void *v)
{
	struct uncore_open *o;
	int pkg;

	seq_puts(m, "# cpu pmu\n");
	spin_lock(&uncore_open_lock);
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++)
		if (uncore_pkgs[pkg].moving)
			seq_printf(m, "# package %d moving\n", pkg);
	list_for_each_entry(o, &uncore_opens, node) {
		if (!READ_ONCE(o->event->ctx))
			seq_printf(m, "%d %s\n", o->cpu,
				   to_uncore_pmu(o->event->pmu)->name);
	}
	spin_unlock(&uncore_open_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uncore_opens);

/* Each CPU's sample passes: how many, the longest, and their time. */
static int uncore_budget_show(struct seq_file *m, void *v)
{
	int cpu;

	seq_printf(m, "# budget %u%% of every %llu ns per CPU\n",
		   READ_ONCE(max_cpu_percent), UNCORE_BUDGET_WINDOW_NS);
	seq_puts(m, "# cpu passes worst_ns total_ns\n");
	for_each_possible_cpu(cpu) {
		struct uncore_cpu_budget *b = per_cpu_ptr(&uncore_budget, cpu);
		u64 n = READ_ONCE(b->passes);

		if (n)
			seq_printf(m, "%d %llu %llu %llu\n", cpu, n,
				   READ_ONCE(b->worst), READ_ONCE(b->total));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uncore_budget);

static void uncore_reset_stats(void *info)
{
	struct uncore_box *box = info;

	memset(&box->stats, 0, sizeof(box->stats));
}

/* Any write zeroes the counts, on each box's CPU so no increment races. */
static ssize_t uncore_access_write(struct file *file, const char __user *buf,
				   size_t len, loff_t *ppos)
{
	int i, pkg;

	cpus_read_lock();
	mutex_lock(&uncore_box_mutex);
	for (i = 0; i < uncore_n_pmus; i++) {
		for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
			struct uncore_box *box = uncore_pmus[i]->boxes[pkg];

			if (!box)
				continue;
			if (box->cpu >= 0)
				smp_call_function_single(box->cpu,
							 uncore_reset_stats,
							 box, 1);
			else
				uncore_reset_stats(box);
		}
	}
	mutex_unlock(&uncore_box_mutex);
	cpus_read_unlock();
	return len;
}

static const struct file_operations uncore_access_fops = {
	.owner = THIS_MODULE,
	.open = uncore_access_open,
	.read = seq_read,
	.write = uncore_access_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ---- CPU hotplug ------------------------------------------------------- */

/* Wait for every pass of the handler queued so far to finish. */
static void uncore_pmi_sync(struct uncore_pkg_pmi *p)
{
	irq_work_sync(&p->fwd);
	while (atomic_read_acquire(&p->csd_busy))
		cpu_relax();
	irq_work_sync(&p->work);
}

/* On a package's new reading CPU: a PMI routed before follows it. */
static void uncore_pkg_pmi_route(void *info)
{
	struct uncore_pkg_pmi *p = info;

	if (p->cpu >= 0 && uncore_pmi_routable(smp_processor_id()))
		uncore_pmi_arm(p);
}

/*
 * On a package's new reading CPU, IRQs off, at the end of a move: the
 * sampling events the box timers took over go back to the PMI path, each
 * with its owed periods emitted first. perf drops the samples of a stopped
 * event, so they are emitted before the stop; what the counter adds in
 * between goes into the next period.
 */
static void uncore_pkg_pmi_resume(void *info)
{
	int pkg = (long)info, cpu = smp_processor_id(), i, j;
	struct pt_regs *regs = NULL, caller;

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

/*
 * The end of a move of package @pkg to @to. The PMI is routed there once,
 * now that no event of the package is left on the old reading CPU; a pass
 * of the handler that the old route queued finishes before the PMI path
 * resumes on @to, so the two never walk the package's boxes at once.
 */
static void uncore_pkg_pmi_settle(int pkg, int to)
{
	struct uncore_pkg_pmi *p = &uncore_pkgs[pkg].pmi;

	WRITE_ONCE(p->moving, false);
	if (to < 0)
		return;
	smp_call_function_single(to, uncore_pkg_pmi_route, p, true);
	uncore_pmi_sync(p);
	smp_call_function_single(to, uncore_pkg_pmi_resume, (void *)(long)pkg,
				 true);
}

/*
 * On a package's new reading CPU at the end of a move: counters carried
 * for events that were not added back (disabled meanwhile, or their group
 * did not fit) stop; such an event starts afresh when it is added.
 */
static void uncore_pkg_uncarry(void *info)
{
	int pkg = (long)info, cpu = smp_processor_id(), i;

	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_box *box = uncore_pmus[i]->boxes[pkg];
		unsigned long bits;
		int idx;

		if (!box || box->cpu != cpu)
			continue;
		bits = box->carried;
		for_each_set_bit(idx, &bits, UNCORE_MAX_EVENTS)
			uncore_uncarry(box, idx);
	}
}

/* Move the events of package @pkg's pmus from CPU @from to @to. */
static void uncore_pkg_migrate(int pkg, int from, int to)
{
	int i;

	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_pmu *upmu = uncore_pmus[i];

		if (upmu->boxes[pkg] && upmu->registered)
			perf_pmu_migrate_context(&upmu->pmu, from, to);
	}
}

/* Does @cpu read a package, or hold a package's parked events? */
static bool uncore_cpu_taken(int cpu)
{
	int pkg;

	for (pkg = 0; pkg < uncore_max_pkgs; pkg++)
		if (uncore_pkgs[pkg].cpu == cpu || uncore_pkgs[pkg].park == cpu)
			return true;
	return false;
}

/*
 * The module is going: the hotplug callbacks run for every CPU as the
 * state is removed, and no CPU really goes; nothing to warn of.
 */
static bool uncore_exiting;

/* An online CPU, other than @a and @b, free to park a package's events. */
static int uncore_find_park(int a, int b)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (cpu != a && cpu != b && !uncore_cpu_taken(cpu))
			return cpu;
	return -1;
}

/*
 * In a hotplug callback: the events parked on @cpu (if any) go to another
 * free CPU, other than @except, before @cpu goes offline or starts reading
 * a package. With no such CPU they stay, and die with @cpu's contexts or
 * are refused by the boxes @cpu reads.
 */
static void uncore_repark(int cpu, int except)
{
	int pkg, to;

	for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
		if (uncore_pkgs[pkg].park != cpu)
			continue;
		to = uncore_find_park(cpu, except);
		WRITE_ONCE(uncore_pkgs[pkg].park, to);
		if (to < 0) {
			if (!uncore_exiting)
				pr_warn("package %d: no CPU left to hold its events while it is offline; they stop for good\n",
					pkg);
			continue;
		}
		uncore_pkg_migrate(pkg, cpu, to);
	}
}

/*
 * Reading CPU @from of package @pkg goes offline, @to (or no CPU, -1)
 * takes over. Events forwarded to another PMU on @from stay in its context
 * there: perf turns them off for good as @from goes (perf_event_exit_cpu()),
 * and only that PMU could move them, all of its events with them. Say so,
 * for the users whose counts stop.
 */
static void uncore_forwarded_note(int pkg, int from, int to)
{
	int i, n;

	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_pmu *upmu = uncore_pmus[i];
		struct uncore_box *box = upmu->boxes[pkg];

		if (!box || !upmu->type->forward)
			continue;
		n = atomic_xchg(&box->forwarded, 0);
		if (!n)
			continue;
		/* Closed ones among the @n are not known: "still open". */
		if (to >= 0)
			pr_notice("%s: events opened on CPU %d (%d since it began reading package %d) stop counting if still open; open them again to count on CPU %d\n",
				  upmu->name, from, n, pkg, to);
		else
			pr_notice("%s: events opened on CPU %d (%d since it began reading package %d) stop counting if still open; the package has no CPU online\n",
				  upmu->name, from, n, pkg);
	}
}

/*
 * Hand package @pkg's boxes from reading CPU @from to @to (-1: the package
 * has no CPU left), events included, in the hotplug callback (@going: of
 * @from's offline), the hotplug lock held for writing. perf moves one
 * pmu's events at a time and each move waits for a grace period: for the
 * whole while, sampling events added on @to are sampled by their box's
 * timer and the PMI stays with @from and the events still there
 * (uncore_pmi_reachable()). Events on their way to @from go first
 * (uncore_wait_opens()), and event_init waits for the move to end.
 */
static void uncore_pkg_move(int pkg, int from, int to, bool going)
{
	int i, park = -1;

	spin_lock(&uncore_open_lock);
	WRITE_ONCE(uncore_pkgs[pkg].moving, true);
	spin_unlock(&uncore_open_lock);
	uncore_wait_opens(from);
	if (going && !uncore_exiting)
		uncore_forwarded_note(pkg, from, to);
	if (uncore_plat->pmi)
		WRITE_ONCE(uncore_pkgs[pkg].pmi.moving, true);
	WRITE_ONCE(uncore_pkgs[pkg].cpu, to);
	/*
	 * With no CPU left, the package's events are parked on a CPU that
	 * reads no box of theirs: its add() refuses them, so they stay off
	 * (perf's time_running stops) until a CPU of the package returns
	 * (uncore_cpu_online()), and the box is reset then.
	 */
	if (to < 0) {
		park = uncore_find_park(from, -1);
		WRITE_ONCE(uncore_pkgs[pkg].park, park);
		if (park < 0 && !uncore_exiting)
			pr_warn("package %d: no CPU to hold its events while it is offline; they stop for good\n",
				pkg);
	}
	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_pmu *upmu = uncore_pmus[i];
		struct uncore_box *box = upmu->boxes[pkg];
		int dest = to < 0 ? park : to;

		if (!box)
			continue;
		WRITE_ONCE(box->cpu, to);
		if (to < 0)
			box->initialized = false;
		if (dest >= 0 && upmu->registered)
			perf_pmu_migrate_context(&upmu->pmu, from, dest);
	}
	if (to >= 0)
		smp_call_function_single(to, uncore_pkg_uncarry,
					 (void *)(long)pkg, true);
	if (uncore_plat->pmi)
		uncore_pkg_pmi_settle(pkg, to);
	WRITE_ONCE(uncore_pkgs[pkg].moving, false);
	wake_up_all(&uncore_move_wq);
}

/**
 * uncore_pkg_box() - a box of a package
 * @type: its type
 * @idx: its index within the type
 * @pkg: the package
 *
 * For a platform's pkg_init() and pkg_exit(), which reach the package's
 * global registers through a box that accounts the accesses.
 *
 * Return: the box, or NULL if the package has none.
 */
struct uncore_box *uncore_pkg_box(const struct uncore_type *type, int idx,
				  int pkg)
{
	int i;

	for (i = 0; i < uncore_n_pmus; i++)
		if (uncore_pmus[i]->type == type && uncore_pmus[i]->idx == idx)
			return uncore_pmus[i]->boxes[pkg];
	return NULL;
}

static int uncore_cpu_online(unsigned int cpu)
{
	int pkg = topology_logical_package_id(cpu);
	int cur = uncore_pkgs[pkg].cpu;
	int i, park;

	if (cur >= 0) {
		/*
		 * A reading CPU the package's PMI cannot reach (a BDX core
		 * beyond pmi_core_sel) samples by timer: it gives way to one
		 * the PMI can reach.
		 */
		if (!uncore_pmi_routable(cur) && uncore_pmi_routable(cpu))
			uncore_pkg_move(pkg, cur, cpu, false);
		return 0;
	}

	/* First CPU of the package: it reads the package's boxes from now on. */
	if (uncore_plat->pkg_init)
		uncore_plat->pkg_init(pkg);
	WRITE_ONCE(uncore_pkgs[pkg].up, true);
	WRITE_ONCE(uncore_pkgs[pkg].cpu, cpu);
	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_box *box = uncore_pmus[i]->boxes[pkg];

		if (!box)
			continue;
		WRITE_ONCE(box->cpu, cpu);
		if (!box->initialized)
			uncore_box_init(box);
	}
	/* Events parked while the package had no CPU: they resume here. */
	park = uncore_pkgs[pkg].park;
	if (park >= 0) {
		WRITE_ONCE(uncore_pkgs[pkg].park, -1);
		uncore_pkg_migrate(pkg, park, cpu);
	}
	return 0;
}

/* The next reading CPU: one the PMI can reach if the package has one. */
static int uncore_cpu_offline(unsigned int cpu)
{
	int pkg = topology_logical_package_id(cpu);
	int target = -1, other;

	uncore_repark(cpu, -1);
	if (uncore_pkgs[pkg].cpu != cpu)
		return 0;

	for_each_online_cpu(other) {
		if (other == cpu || topology_logical_package_id(other) != pkg)
			continue;
		if (target < 0 ||
		    (uncore_pmi_routable(other) && !uncore_pmi_routable(target)))
			target = other;
	}
	/* A parking CPU can read, once its parked events are elsewhere. */
	if (target >= 0)
		uncore_repark(target, cpu);
	uncore_pkg_move(pkg, cpu, target, true);
	/* Its last CPU: no event counts here any more, its boxes are off. */
	if (target < 0) {
		if (uncore_plat->pkg_exit)
			uncore_plat->pkg_exit(pkg);
		WRITE_ONCE(uncore_pkgs[pkg].up, false);
	}
	return 0;
}

/* ---- Setup ------------------------------------------------------------- */

static struct uncore_box *uncore_new_box(struct uncore_pmu *upmu, int pkg)
{
	struct uncore_box *box = kzalloc(sizeof(*box), GFP_KERNEL);

	if (!box)
		return NULL;
	box->pmu = upmu;
	box->pkg = pkg;
	box->cpu = -1;
	box->msr_base = upmu->type->box_offsets ?
			upmu->type->box_offsets[upmu->idx] :
			upmu->idx * upmu->type->box_stride;
	if (uncore_plat->pmi && upmu->type->pmi_mask)
		box->pmi_mask = upmu->type->pmi_mask(upmu->idx);
	INIT_LIST_HEAD(&box->pmi_node);
	kref_init(&box->ref);
	raw_spin_lock_init(&box->aux.lock);
	hrtimer_init(&box->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	box->hrtimer.function = uncore_poll;
	return box;
}

static void uncore_free_pmu(struct uncore_pmu *upmu)
{
	int pkg;

	if (!upmu)
		return;
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++)
		if (upmu->boxes[pkg])
			kref_put(&upmu->boxes[pkg]->ref, uncore_box_release);
	kfree(upmu->boxes);
	kfree(upmu);
}

/*
 * The pmu of box @idx of @type. MSR boxes are all known now; a PCI type's
 * pmu starts empty and is registered when its first box appears.
 */
static struct uncore_pmu *uncore_alloc_pmu(const struct uncore_type *type,
					   int idx,
					   const struct uncore_type_sysfs *ts)
{
	struct uncore_pmu *upmu;
	bool any = false;
	int pkg;

	upmu = kzalloc(sizeof(*upmu), GFP_KERNEL);
	if (!upmu)
		return ERR_PTR(-ENOMEM);
	upmu->boxes = kcalloc(uncore_max_pkgs, sizeof(*upmu->boxes), GFP_KERNEL);
	if (!upmu->boxes) {
		kfree(upmu);
		return ERR_PTR(-ENOMEM);
	}
	upmu->type = type;
	upmu->idx = idx;
	if (type->num_boxes > 1)
		snprintf(upmu->name, sizeof(upmu->name), "uncore_%s_%d",
			 type->name, idx);
	else
		snprintf(upmu->name, sizeof(upmu->name), "uncore_%s", type->name);

	for (pkg = 0; pkg < uncore_max_pkgs && !type->pci; pkg++) {
		if (type->present && !type->present(type, idx, pkg))
			continue;
		upmu->boxes[pkg] = uncore_new_box(upmu, pkg);
		if (!upmu->boxes[pkg]) {
			uncore_free_pmu(upmu);
			return ERR_PTR(-ENOMEM);
		}
		any = true;
	}
	if (!any && !type->pci) {
		uncore_free_pmu(upmu);
		return NULL;
	}

	upmu->attr_groups[0] = &ts->format;
	upmu->attr_groups[1] = &ts->events;
	upmu->attr_groups[2] = &uncore_pmu_group;
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
		.filter_match	= uncore_pmu_filter_match,
		.pmu_enable	= uncore_pmu_enable,
		.pmu_disable	= uncore_pmu_disable,
		.start_txn	= uncore_start_txn,
		.commit_txn	= uncore_commit_txn,
		.cancel_txn	= uncore_cancel_txn,
	};
	upmu->priv = (void *)ts;
	return upmu;
}

static void uncore_free_all(void)
{
	const struct uncore_type_sysfs *last = NULL;
	int i;

	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_pmu *upmu = uncore_pmus[i];

		/* pmus of one type are consecutive and share the type's sysfs */
		if (upmu->priv != last) {
			last = upmu->priv;
			uncore_free_type_sysfs(upmu->priv);
		}
		uncore_free_pmu(upmu);
	}
	kfree(uncore_pmus);
	uncore_pmus = NULL;
	uncore_n_pmus = 0;
}

static int uncore_alloc_all(void)
{
	const struct uncore_type * const *tp;
	int max = 0, i;

	for (tp = uncore_plat->types; *tp; tp++)
		max += (*tp)->num_boxes;
	uncore_pmus = kcalloc(max, sizeof(*uncore_pmus), GFP_KERNEL);
	if (!uncore_pmus)
		return -ENOMEM;

	for (tp = uncore_plat->types; *tp; tp++) {
		struct uncore_type_sysfs *ts = uncore_alloc_type_sysfs(*tp);
		bool used = false;

		if (!ts)
			return -ENOMEM;
		for (i = 0; i < (*tp)->num_boxes; i++) {
			struct uncore_pmu *upmu = uncore_alloc_pmu(*tp, i, ts);

			if (IS_ERR(upmu)) {
				if (!used)
					uncore_free_type_sysfs(ts);
				return PTR_ERR(upmu);
			}
			if (!upmu)
				continue;
			uncore_pmus[uncore_n_pmus++] = upmu;
			used = true;
		}
		if (!used)
			uncore_free_type_sysfs(ts);
	}
	return 0;
}

static int uncore_register(struct uncore_pmu *upmu)
{
	int err = perf_pmu_register(&upmu->pmu, upmu->name, -1);

	if (err == -EEXIST)
		pr_err("%s is registered already, by intel_uncore if it is loaded: "
		       UNCORE_INTEL_UNCORE_FIX "\n", upmu->name);
	else if (err)
		pr_err("cannot register %s: %d\n", upmu->name, err);
	else
		upmu->registered = true;
	return err;
}

static void uncore_unregister_all(void)
{
	int i;

	for (i = 0; i < uncore_n_pmus; i++) {
		if (!uncore_pmus[i]->registered)
			continue;
		perf_pmu_unregister(&uncore_pmus[i]->pmu);
		uncore_pmus[i]->registered = false;
	}
}

static struct uncore_pmu *uncore_find_pmu(const struct uncore_type *type,
					  int idx)
{
	int i;

	for (i = 0; i < uncore_n_pmus; i++)
		if (uncore_pmus[i]->type == type && uncore_pmus[i]->idx == idx)
			return uncore_pmus[i];
	return NULL;
}

static bool uncore_pmu_has_boxes(const struct uncore_pmu *upmu)
{
	int pkg;

	for (pkg = 0; pkg < uncore_max_pkgs; pkg++)
		if (upmu->boxes[pkg])
			return true;
	return false;
}

/**
 * uncore_pci_box_add() - a PCI box's device arrived
 * @type: its box type
 * @idx: box index within the type
 * @pkg: logical package, from the platform's bus mapping
 * @pdev: the PMON function (a reference is taken)
 * @aux_pdev: a second function the box needs, or NULL (reference taken)
 *
 * The box is reset and published; its pmu is registered if this is the
 * first box it has.
 *
 * Return: 0, -EBUSY if the package has this box already, or an errno.
 */
int uncore_pci_box_add(const struct uncore_type *type, int idx, int pkg,
		       struct pci_dev *pdev, struct pci_dev *aux_pdev)
{
	struct uncore_pmu *upmu = uncore_find_pmu(type, idx);
	struct uncore_box *box;
	int err = 0;

	if (WARN_ON_ONCE(!upmu || pkg < 0 || pkg >= uncore_max_pkgs))
		return -EINVAL;
	box = uncore_new_box(upmu, pkg);
	if (!box)
		return -ENOMEM;
	box->pdev = pci_dev_get(pdev);
	box->aux_pdev = pci_dev_get(aux_pdev);

	mutex_lock(&uncore_pci_mutex);
	cpus_read_lock();
	mutex_lock(&uncore_box_mutex);
	if (upmu->boxes[pkg]) {
		err = -EBUSY;
	} else {
		/* Config space is reachable from any CPU: reset it now. */
		box->cpu = uncore_pkgs[pkg].cpu;
		uncore_box_init(box);
		WRITE_ONCE(upmu->boxes[pkg], box);
	}
	mutex_unlock(&uncore_box_mutex);
	if (!err && !upmu->registered)
		err = uncore_register(upmu);
	if (err && err != -EBUSY) {
		mutex_lock(&uncore_box_mutex);
		WRITE_ONCE(upmu->boxes[pkg], NULL);
		mutex_unlock(&uncore_box_mutex);
	}
	cpus_read_unlock();
	mutex_unlock(&uncore_pci_mutex);

	if (err) {
		pci_dev_put(box->pdev);
		pci_dev_put(box->aux_pdev);
		kref_put(&box->ref, uncore_box_release);
	}
	return err;
}

/* On the box's CPU, IRQs off: every perf callback of the box runs there. */
static void uncore_box_kill(void *info)
{
	struct uncore_box *box = info;
	int i;

	for (i = 0; i < box->n_events; i++) {
		uncore_pmu_stop(box->events[i], PERF_EF_UPDATE);
		/* Their running time ends here, as a lost counter's does. */
		queue_work(system_wq, &to_uevent(box->events[i])->lost_work);
	}
	uncore_box_let_run(box);
	WRITE_ONCE(box->dead, true);
	hrtimer_try_to_cancel(&box->hrtimer);
}

/**
 * uncore_pci_box_remove() - a PCI box's device is going away
 * @pdev: its PMON function
 *
 * Events on the box are stopped and keep the counts read just now; from
 * then on nothing touches the device. The pmu is unregistered with its
 * last box, unless events are still open on it: perf 6.1 frees a pmu's
 * CPU contexts at unregistration, under any events still in them, so such
 * a pmu stays registered, boxless (new events get -ENODEV), until a box
 * returns or the module is unloaded.
 */
void uncore_pci_box_remove(struct pci_dev *pdev)
{
	struct uncore_box *box = NULL;
	struct uncore_pmu *upmu = NULL;
	bool unregister = false, wait = false;
	int i, pkg;

	mutex_lock(&uncore_pci_mutex);
	cpus_read_lock();
	mutex_lock(&uncore_box_mutex);
	for (i = 0; i < uncore_n_pmus && !box; i++) {
		for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
			struct uncore_box *b = uncore_pmus[i]->boxes[pkg];

			if (b && b->pdev == pdev) {
				box = b;
				upmu = uncore_pmus[i];
				break;
			}
		}
	}
	if (box) {
		if (box->cpu >= 0)
			smp_call_function_single(box->cpu, uncore_box_kill, box,
						 true);
		else
			WRITE_ONCE(box->dead, true);
		WRITE_ONCE(upmu->boxes[box->pkg], NULL);
		unregister = upmu->registered && !uncore_pmu_has_boxes(upmu) &&
			     !upmu->nr_events;
		/*
		 * From here hotplug leaves the pmu's (empty) contexts alone.
		 * An event may still be on its way out (see below) only if
		 * one was opened, and not while the module is going: every
		 * event holds a reference on it until perf is done with it.
		 */
		if (unregister) {
			upmu->registered = false;
			wait = upmu->used && THIS_MODULE->state != MODULE_STATE_GOING;
			upmu->used = false;
		}
	}
	mutex_unlock(&uncore_box_mutex);
	cpus_read_unlock();
	/*
	 * Not under cpus_read_lock(): unregistering waits for the pmu's sysfs
	 * readers, and cpumask_show() takes cpus_read_lock(), which a pending
	 * hotplug writer holds back: the three would wait in a cycle.
	 *
	 * perf frees the pmu's CPU contexts at unregistration, and puts an
	 * event's context only after its ->destroy(), which is where
	 * nr_events dropped. The task freeing the last event does no
	 * voluntary context switch in between: once every task has made
	 * one, perf holds nothing of this pmu.
	 */
	if (unregister) {
		if (wait)
			synchronize_rcu_tasks();
		perf_pmu_unregister(&upmu->pmu);
	}
	mutex_unlock(&uncore_pci_mutex);

	if (!box)
		return;
	/* Dead: no path dereferences the devices any more. */
	pci_dev_put(box->pdev);
	pci_dev_put(box->aux_pdev);
	box->pdev = NULL;
	box->aux_pdev = NULL;
	kref_put(&box->ref, uncore_box_release);
}

/*
 * Per-package PMI state and the NMI handler, for a platform with a PMI
 * path. The global registers are reached through box 0 of pmi->type,
 * which every package has (the BDX UBox).
 */
static int uncore_pmi_init(void)
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
	}
	err = register_nmi_handler(NMI_LOCAL, uncore_nmi_handler, 0,
				   KBUILD_MODNAME);
	if (err)
		return err;
	uncore_nmi_registered = true;
	return 0;
}

/* On the routed CPU: no PMI from this package any more, nothing frozen. */
static void uncore_pmi_disarm(void *info)
{
	struct uncore_pkg_pmi *p = info;

	uncore_plat->pmi->unfreeze(p->gbox, 0);
}

/* After the pmus are gone: no event can overflow into a PMI any more. */
static void uncore_pmi_exit(void)
{
	int pkg;

	if (!uncore_nmi_registered)
		return;
	cpus_read_lock();
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
		int cpu = uncore_pkgs[pkg].pmi.cpu;

		if (cpu >= 0 && cpu_online(cpu))
			smp_call_function_single(cpu, uncore_pmi_disarm,
						 &uncore_pkgs[pkg].pmi, true);
	}
	cpus_read_unlock();
	unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
	uncore_nmi_registered = false;
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++)
		uncore_pmi_sync(&uncore_pkgs[pkg].pmi);
}

/**
 * uncore_core_init() - register the pmus of a platform
 * @plat: the platform; its discover() has run
 *
 * Either every MSR pmu is registered or none is: a half-registered driver
 * would leave perf users guessing which boxes they can trust. PCI pmus are
 * registered as their boxes arrive, after this.
 *
 * Return: 0 or a negative errno.
 */
int uncore_core_init(const struct uncore_platform *plat)
{
	int err, i, pkg;

	uncore_plat = plat;
	uncore_pkgs = kcalloc(uncore_max_pkgs, sizeof(*uncore_pkgs), GFP_KERNEL);
	if (!uncore_pkgs)
		return -ENOMEM;
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
		uncore_pkgs[pkg].cpu = -1;
		uncore_pkgs[pkg].park = -1;
		uncore_pkgs[pkg].pmi.cpu = -1;
	}

	err = uncore_alloc_all();
	if (err)
		goto free;
	err = uncore_pmi_init();
	if (err)
		goto free;

	err = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "perf/uncore_pmu:online",
				uncore_cpu_online, uncore_cpu_offline);
	if (err < 0)
		goto free;
	uncore_hp_state = err;

	cpus_read_lock();
	for (i = 0; i < uncore_n_pmus; i++) {
		if (uncore_pmus[i]->type->pci)
			continue;
		err = uncore_register(uncore_pmus[i]);
		if (err)
			break;
	}
	cpus_read_unlock();
	if (err)
		goto unregister;

	uncore_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("access", 0600, uncore_debugfs, NULL,
			    &uncore_access_fops);
	debugfs_create_file("boxes", 0400, uncore_debugfs, NULL,
			    &uncore_boxes_fops);
	debugfs_create_file("packages", 0400, uncore_debugfs, NULL,
			    &uncore_packages_fops);
	debugfs_create_file("pmi", 0400, uncore_debugfs, NULL,
			    &uncore_pmi_fops);
	debugfs_create_file("samples", 0400, uncore_debugfs, NULL,
			    &uncore_samples_fops);
	debugfs_create_file("budget", 0400, uncore_debugfs, NULL,
			    &uncore_budget_fops);
	debugfs_create_file("opens", 0400, uncore_debugfs, NULL,
			    &uncore_opens_fops);
	debugfs_create_u32("open_delay_ms", 0600, uncore_debugfs,
			   &uncore_open_delay_ms);
	pr_info("%s: MSR access through %s\n", plat->name,
		uncore_access_backend());
	return 0;

unregister:
	uncore_unregister_all();
	uncore_exiting = true;
	cpuhp_remove_state(uncore_hp_state);
free:
	uncore_pmi_exit();
	uncore_free_all();
	kfree(uncore_pkgs);
	uncore_pkgs = NULL;
	return err;
}

/**
 * uncore_core_exit() - unregister everything uncore_core_init() set up
 *
 * The platform's PCI driver is gone by now, and with it the PCI boxes.
 */
void uncore_core_exit(void)
{
	debugfs_remove_recursive(uncore_debugfs);
	uncore_unregister_all();
	uncore_exiting = true;
	cpuhp_remove_state(uncore_hp_state);
	uncore_pmi_exit();
	uncore_free_all();
	kfree(uncore_pkgs);
	uncore_pkgs = NULL;
}
