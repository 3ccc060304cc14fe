/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_pmu: what the files of the generic core (drivers/uncore/core/)
 * share and no family sees: the package and PMI state, the event flags,
 * the module-wide tables and locks, and each file's functions that the
 * others call. Families see uncore.h only.
 *
 * Who calls what, and in which context, is said at each definition; the
 * files' own headers say what context their paths run in.
 */
#ifndef _UNCORE_PMU_INTERNAL_H
#define _UNCORE_PMU_INTERNAL_H

#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/wait.h>

#include "uncore.h"
#include "perf_compat.h"

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
 * @late: like @owed, for an NMI no handler claimed (NMI_UNKNOWN): the PMI
 *	of a claimed overflow that came after two unrelated NMIs had taken
 *	its status and its owed mark
 * @work: the part of the handler that runs in hardirq context, on @cpu
 * @fwd: on the hyperthread of @cpu that took the PMI, sends @csd to @cpu
 *	(NMI context may do neither that nor irq_work_queue_on(), which 6.1
 *	does not export anyway)
 * @csd: queues @work on @cpu, in IPI context there
 * @csd_busy: @csd is in flight
 * @nmi: NMIs that claimed new status
 * @owed_nmi: NMIs taken as an owed PMI
 * @late_nmi: unknown NMIs taken as a late PMI (@late)
 * @retry: while a pass's write of global status or control fails, passes
 *	again every UNCORE_FAULT_POLL_NS on @cpu, so that a freeze ends
 *	once the register answers
 * @retries: passes @retry queued
 * @handled: passes of @work
 * @periods: sample periods that elapsed
 * @moving: the package's boxes are changing reading CPU: a sampling event
 *	added meanwhile is sampled by its box's timer, and the PMI path is
 *	not taken, until the new CPU resumes it (uncore_pkg_move(),
 *	uncore_pkg_pmi_settle())
 *
 * The PMI is routed to a core and may reach either of its threads: the
 * NMI handlers run on @cpu or its sibling, and change @claimed, @owed,
 * @late and their counts by atomic operations. Everything else is touched
 * on @cpu only: in perf callbacks, the poll timer and @retry (IRQs off)
 * and in @work. @cpu itself changes in IPIs of a move's hotplug callback,
 * to -1 on the old reading CPU and to the new one there, with a grace
 * period and every pass finished in between; @moving in that callback
 * and the new CPU's IPI.
 */
struct uncore_pkg_pmi {
	int cpu;
	u64 ctl;
	struct uncore_box *gbox;
	struct list_head boxes;
	atomic64_t claimed;
	atomic_t owed;
	atomic_t late;
	struct irq_work work;
	struct irq_work fwd;
	call_single_data_t csd;
	atomic_t csd_busy;
	atomic64_t nmi;
	atomic64_t owed_nmi;
	atomic64_t late_nmi;
	struct hrtimer retry;
	u64 retries;
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
 * @carries: counters its moves carried that the new reading CPU took back
 * @carry_max_ns: the longest any of them went unread, from the old CPU's
 *	del to the new one's add: perf_pmu_migrate_context()'s grace period
 *	and the install (review pmi-protocol N22)
 * @carry_late: carries unread for half their counter's wrap time at its
 *	event's highest rate or longer: those may have lost 2^width counts
 *
 * @cpu, @park, @up and @pmi.cpu change in the CPU hotplug callbacks,
 * which cpuhp serialises; they are read elsewhere with READ_ONCE(). The
 * carry statistics change in add() on the new reading CPU, IRQs off.
 */
struct uncore_package {
	int cpu;
	int park;
	bool moving;
	bool up;
	struct uncore_pkg_pmi pmi;
	u64 carries;
	u64 carry_max_ns;
	u64 carry_late;
};

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
extern struct mutex uncore_box_mutex;

static inline struct uncore_pmu *to_uncore_pmu(struct pmu *pmu)
{
	return container_of(pmu, struct uncore_pmu, pmu);
}

static inline struct uncore_box *event_box(struct perf_event *event)
{
	return to_uevent(event)->box;
}

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

/**
 * struct uncore_str_attr - a read-only sysfs file that shows a string
 * @attr: the attribute
 * @str: what it shows (a format spec, an alias's config, scale or unit)
 */
struct uncore_str_attr {
	struct device_attribute attr;
	const char *str;
};

/**
 * struct uncore_type_sysfs - a box type's format/ and events/ groups
 * @format: format/, one file per field of the type's format table
 * @events: events/, one file per listed alias (and its .scale, .unit)
 * @format_attrs: @format's attributes, NULL-terminated
 * @event_attrs: @events' attributes, NULL-terminated
 * @strs: the files of both groups
 * @names: the names built for .scale and .unit files
 *
 * Built once per type at load (uncore_alloc_type_sysfs()), shared by the
 * type's pmus, freed after they are unregistered.
 */
struct uncore_type_sysfs {
	struct attribute_group format;
	struct attribute_group events;
	struct attribute **format_attrs;
	struct attribute **event_attrs;
	struct uncore_str_attr *strs;
	char *names;
};

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

/*
 * The budget's window: long enough that one pass stretched by an interrupt
 * or, in a virtual machine, by the host taking the CPU away does not use
 * it up, short enough that the CPU's share holds well below the kernel's
 * lockup and stall detectors (seconds).
 */
#define UNCORE_BUDGET_WINDOW_NS	(100ULL * NSEC_PER_MSEC)

/* setup.c: the platform, its pmus (consecutive by type) and packages. */
extern const struct uncore_platform *uncore_plat;
extern struct uncore_pmu **uncore_pmus;
extern int uncore_n_pmus;
extern struct uncore_package *uncore_pkgs;
struct uncore_pmu *uncore_find_pmu(const struct uncore_type *type, int idx);

/* pmu.c */
extern u32 uncore_open_delay_ms;
extern u32 uncore_commit_delay_ms;
extern u32 uncore_move_delay_ms;
extern atomic_t uncore_commit_armed;
extern atomic_t uncore_commit_held;
void uncore_pmu_setup(struct uncore_pmu *upmu);
void uncore_event_update(struct uncore_box *box, struct perf_event *event);
void uncore_box_init(struct uncore_box *box);
void uncore_put_aux(struct uncore_box *box, struct perf_event *event);
void uncore_scrub_aux(void *info);
void uncore_box_hold(struct uncore_box *box);
void uncore_box_let_run(struct uncore_box *box);
void uncore_pmu_start(struct perf_event *event, int flags);
void uncore_pmu_stop(struct perf_event *event, int flags);
void uncore_box_release(struct kref *ref);

/* package.c */
extern wait_queue_head_t uncore_move_wq;
extern struct list_head uncore_opens;
extern spinlock_t uncore_open_lock;
extern bool uncore_exiting;
bool uncore_carry(struct uncore_box *box, struct perf_event *event);
void uncore_uncarry(struct uncore_box *box, int idx);
void uncore_carry_done(struct uncore_box *box, struct perf_event *event);
void uncore_drop_carried(void *info);
bool uncore_prune_opens(struct perf_event *event, int cpu);
int uncore_wait_move(struct perf_event *event, int pkg);
int uncore_move_cpu(struct uncore_box *box, struct perf_event *event, int pkg);
int uncore_cpu_online(unsigned int cpu);
int uncore_cpu_offline(unsigned int cpu);

/* forward.c */
int uncore_forward_init(struct uncore_pmu *upmu, struct perf_event *event);
void uncore_forwarded_note(int pkg, int from, int to);

/* poll.c */
bool uncore_set_poll_period(struct uncore_box *box);
void uncore_poll_start(struct uncore_box *box);
void uncore_reprogram(struct uncore_box *box);
void uncore_lost_work(struct work_struct *work);
void uncore_park_irq(struct irq_work *work);
enum hrtimer_restart uncore_poll(struct hrtimer *hrtimer);

/* While a box or a global register fails, how often it is tried again. */
#define UNCORE_FAULT_POLL_NS	(100 * NSEC_PER_MSEC)

/* pmi.c */
extern u32 uncore_pass_delay_ms;
extern u32 uncore_handover_delay_ms;
extern u32 uncore_forward_unreachable;
extern u32 uncore_stale_delay_ms;
extern u32 uncore_stale_delay_type;
bool uncore_pmi_routable(int cpu);
bool uncore_pmi_reachable(const struct uncore_box *box);
void uncore_pmi_attach(struct uncore_box *box);
void uncore_pmi_resync(struct uncore_box *box, struct pt_regs *regs);
void uncore_pmi_detach(struct uncore_box *box);
void uncore_pkg_pmi_settle(int pkg, int from, int to);
int uncore_pmi_init(void);
void uncore_pmi_exit(void);

/* sample.c */
extern unsigned int uncore_max_sample_rate;
extern unsigned int uncore_max_cpu_percent;
DECLARE_PER_CPU(struct uncore_cpu_budget, uncore_budget);
void uncore_pass_begin(void);
void uncore_pass_end(void);
bool uncore_over_budget(u64 now);
u64 uncore_budget_wait(u64 now);
bool uncore_counter_interrupts(struct perf_event *event);
void uncore_sampling_mode(struct perf_event *event, bool pmi);
bool uncore_pmi_event(struct perf_event *event);
bool uncore_timer_event(struct perf_event *event);
u64 uncore_sample_tick_ns(void);
s64 uncore_period_begin(struct hw_perf_event *hwc, bool carry);
void uncore_set_period(struct uncore_box *box, struct perf_event *event);
unsigned int uncore_tick_limit(void);
struct pt_regs *uncore_timer_regs(struct pt_regs *caller);
void uncore_sample_owed(struct uncore_box *box, struct perf_event *event);
u64 uncore_sample(struct uncore_box *box, struct perf_event *event,
		  struct pt_regs *regs, bool *running);
void uncore_pmi_sample(struct uncore_pkg_pmi *p, struct uncore_box *box,
		       struct perf_event *event, struct pt_regs *regs);

/* sysfs.c */
extern const struct attribute_group uncore_pmu_group;
bool uncore_available(const char *cond);
void uncore_free_type_sysfs(struct uncore_type_sysfs *ts);
struct uncore_type_sysfs *uncore_alloc_type_sysfs(const struct uncore_type *type);

/* debugfs.c */
void uncore_debugfs_init(void);
void uncore_debugfs_exit(void);

#endif /* _UNCORE_PMU_INTERNAL_H */
