// SPDX-License-Identifier: GPL-2.0
/*
 * Packages and their reading CPUs: the one CPU of each package that
 * reads its boxes and hosts its events in perf's contexts, handed on as
 * CPUs go offline and come back (CPU hotplug), events moved with it
 * (perf_pmu_migrate_context()) with their counters carried across the
 * move, parked on a CPU of another package while the package has none,
 * and the events on their way from event_init to perf's context that a
 * move must not leave behind.
 *
 * Context: uncore_cpu_online() and uncore_cpu_offline() are cpuhp
 * callbacks (CPUHP_AP_ONLINE_DYN), in process context on the CPU that
 * comes or goes, the hotplug lock held for writing, serialised by cpuhp.
 * What must run on a reading CPU with IRQs off is sent there by IPI.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/topology.h>
#include <linux/wait.h>

#include "internal.h"

DECLARE_WAIT_QUEUE_HEAD(uncore_move_wq);
LIST_HEAD(uncore_opens);
DEFINE_SPINLOCK(uncore_open_lock);

/**
 * uncore_carry() - keep a moving event's counter counting
 * @box: the event's box
 * @event: the event, being taken off by perf_pmu_migrate_context()
 *
 * del() of a move (uncore_pkg_move()): perf takes the event off here and
 * adds it on the new reading CPU a grace period later. Its counter goes on
 * counting meanwhile, its auxiliary fields held, so that add() there reads
 * on from where it was: nothing the box counts in the gap is lost. A
 * counter that could raise a PMI loses ov_en: the PMI stays here until the
 * move ends, and the box's timer samples the event on the new CPU
 * meanwhile.
 *
 * Context: del() on the old reading CPU, IRQs off.
 *
 * Return: true if the counter is carried.
 */
bool uncore_carry(struct uncore_box *box, struct perf_event *event)
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
	box->carried_at[hwc->idx] = ktime_get_ns();
	return true;
}

/**
 * uncore_carry_done() - account a carried counter its event took back
 * @box: the box
 * @event: the event, added on the new reading CPU
 *
 * Nothing reads a carried counter between the old CPU's del and the new
 * CPU's add, and the new CPU's poll timer reads it next up to one poll
 * period (half the counter's wrap time at its event's highest rate)
 * later: a gap of half the wrap time or more may lose 2^width counts, on
 * a 32-bit counter (the Xeon MP's wrap in 1.13 s at one count a clock)
 * 2^32. The gap is measured rather than closed (review pmi-protocol N22):
 * its longest, and the carries that reached half the wrap time, go to
 * debugfs packages.
 *
 * Context: add() on the box's new reading CPU, IRQs off.
 */
void uncore_carry_done(struct uncore_box *box, struct perf_event *event)
{
	const struct uncore_type *type = box->pmu->type;
	struct uncore_package *p = &uncore_pkgs[box->pkg];
	u64 gap = ktime_get_ns() - box->carried_at[event->hw.idx];
	u64 rate = uncore_event_max_rate(type, event->attr.config);

	p->carries++;
	if (gap > p->carry_max_ns)
		WRITE_ONCE(p->carry_max_ns, gap);
	if (gap >= uncore_poll_period_ns(uncore_poll_width(type, event), rate))
		p->carry_late++;
}

/**
 * uncore_uncarry() - let a carried counter go
 * @box: the box
 * @idx: the counter, set in @box->carried
 *
 * Its event will not be added back to it: the counter stops and the
 * event's auxiliary fields are released.
 *
 * Context: on the box's (new) reading CPU, IRQs off.
 */
void uncore_uncarry(struct uncore_box *box, int idx)
{
	struct perf_event *event = box->carried_ev[idx];

	if (!box->dead)
		box->pmu->type->ops->disable_event(box, event);
	uncore_put_aux(box, event);
	box->carried &= ~BIT(idx);
	box->carried_ev[idx] = NULL;
}

/**
 * uncore_drop_carried() - drop an event's carried counter, if it still is
 * @info: the event (struct perf_event *)
 *
 * Context: IPI on the box's reading CPU, from the event's destroy.
 */
void uncore_drop_carried(void *info)
{
	struct perf_event *event = info;
	struct uncore_box *box = event_box(event);
	int idx = event->hw.idx;

	if (idx >= 0 && idx < UNCORE_MAX_EVENTS && box->carried_ev[idx] == event)
		uncore_uncarry(box, idx);
}

/**
 * uncore_prune_opens() - forget events that reached their context
 * @event: an event whose entry goes anyway, or NULL
 * @cpu: a CPU to ask about, or -1
 *
 * Drop the uncore_opens entries of events that perf has installed (and
 * @event's, if given).
 *
 * Context: any; takes uncore_open_lock.
 *
 * Return: whether an event given @cpu is still on its way there.
 */
bool uncore_prune_opens(struct perf_event *event, int cpu)
{
	struct uncore_open *o, *tmp;
	bool busy = false;

	spin_lock(&uncore_open_lock);
	list_for_each_entry_safe(o, tmp, &uncore_opens, node) {
		if (o->event == event || uncore_event_installed(o->event)) {
			list_del(&o->node);
			kfree(o);
		} else if (o->cpu == cpu) {
			busy = true;
		}
	}
	spin_unlock(&uncore_open_lock);
	return busy;
}

/**
 * uncore_wait_move() - wait for a package's move to end
 * @event: the event being opened
 * @pkg: its package
 *
 * In event_init, before it looks at package @pkg's reading CPU: wait for
 * the package's move (uncore_pkg_move()) to end. A group member does not
 * wait: perf_try_init_event() holds its leader's context mutex around
 * event_init, and perf_pmu_migrate_context() takes the mutex of every
 * context of the package on the old CPU, the leader's among them. The two
 * would wait for each other, and every cpus_read_lock() behind the hotplug
 * with them. uncore_move_cpu() gives a member its CPU during a move.
 *
 * Context: process context (event_init); sleeps.
 *
 * Return: 0, or -EINTR if the task was killed while it waited.
 */
int uncore_wait_move(struct perf_event *event, int pkg)
{
	if (event->group_leader != event)
		return 0;
	if (wait_event_killable(uncore_move_wq,
				!READ_ONCE(uncore_pkgs[pkg].moving)))
		return -EINTR;
	return 0;
}

/**
 * uncore_move_cpu() - the CPU an event of a box goes to
 * @box: the box
 * @event: the event being opened
 * @pkg: the box's package
 *
 * Outside a move, the box's reading CPU. During one, only a group member
 * gets here (uncore_wait_move()): its leader's CPU, if the leader is in a
 * context of this pmu; the mutex perf holds keeps the leader there, in the
 * old CPU's context or the new one's. perf refuses a member on any other
 * CPU, and the move takes the member along if it lands on the old CPU
 * (uncore_wait_opens(), or perf_pmu_migrate_context() once perf installed
 * it). A leader of another context has no CPU to offer: -EBUSY, for an
 * open that raced a hotplug.
 *
 * Context: event_init, uncore_open_lock held.
 *
 * Return: the CPU; -EAGAIN for an event that must wait for the move,
 * -ENODEV if the package has no CPU online, -EBUSY as above.
 */
int uncore_move_cpu(struct uncore_box *box, struct perf_event *event, int pkg)
{
	struct perf_event *leader = event->group_leader;

	lockdep_assert_held(&uncore_open_lock);
	if (!uncore_pkgs[pkg].moving) {
		int cpu = READ_ONCE(box->cpu);

		return cpu < 0 ? -ENODEV : cpu;
	}
	if (leader == event)
		return -EAGAIN;
	if (uncore_leader_in_ctx_of(leader, event->pmu))
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
bool uncore_exiting;

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
 * Hand package @pkg's boxes from reading CPU @from to @to (-1: the package
 * has no CPU left), events included, in the hotplug callback (@going: of
 * @from's offline), the hotplug lock held for writing. perf moves one
 * pmu's events at a time and each move waits for a grace period: for the
 * whole while, sampling events added on @to are sampled by their box's
 * timer and the PMI stays with @from and the events still there
 * (uncore_pmi_reachable()). Events on their way to @from go first
 * (uncore_wait_opens()), and event_init waits for the move to end.
 */
/*
 * The test hooks of a move (pmu.c), for its first box of a pmu with events
 * open: before the box changes reading CPU, wait (at most 10 s) until the
 * old CPU holds a group's commit on a box of the package; after, wait
 * uncore_move_delay_ms before perf moves the box's events. Return: whether
 * the box was that one.
 */
static bool uncore_test_move_wait(struct uncore_box *box)
{
	int waited;

	if (likely(!READ_ONCE(uncore_move_delay_ms)) ||
	    !READ_ONCE(box->pmu->nr_events))
		return false;
	pr_info("test hook: %s, package %d: the move waits for a group's commit\n",
		box->pmu->name, box->pkg);
	atomic_set(&uncore_commit_armed, box->pkg + 1);
	for (waited = 0; !atomic_read(&uncore_commit_held) && waited < 10000;
	     waited += 20)
		msleep(20);
	return true;
}

static void uncore_test_move_delay(struct uncore_box *box)
{
	u32 ms = xchg(&uncore_move_delay_ms, 0);

	atomic_set(&uncore_commit_armed, 0);
	pr_info("test hook: %s, package %d: its events move in %u ms\n",
		box->pmu->name, box->pkg, ms);
	msleep(ms);
}

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
		bool hook;

		if (!box)
			continue;
		hook = uncore_test_move_wait(box);
		WRITE_ONCE(box->cpu, to);
		if (unlikely(hook))
			uncore_test_move_delay(box);
		if (to < 0)
			box->initialized = false;
		if (dest >= 0 && upmu->registered)
			perf_pmu_migrate_context(&upmu->pmu, from, dest);
	}
	if (to >= 0)
		smp_call_function_single(to, uncore_pkg_uncarry,
					 (void *)(long)pkg, true);
	if (uncore_plat->pmi)
		uncore_pkg_pmi_settle(pkg, from, to);
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

/**
 * uncore_cpu_online() - a CPU came online
 * @cpu: the CPU
 *
 * The first CPU of a package starts reading it (pkg_init, box init, parked
 * events back); a later one takes over from a reading CPU the package's
 * PMI cannot reach.
 *
 * Context: cpuhp callback (CPUHP_AP_ONLINE_DYN) on @cpu, the hotplug lock
 * held for writing.
 *
 * Return: 0.
 */
int uncore_cpu_online(unsigned int cpu)
{
	int pkg = topology_logical_package_id(cpu);
	int i, park, cur;

	/*
	 * Packages are counted at load (topology_max_packages()); 6.1 gives
	 * a socket added later the next logical id, whatever that count.
	 */
	if (pkg < 0 || pkg >= uncore_max_pkgs) {
		pr_warn_once("CPU %u: package %d came after load; its uncore is not driven\n",
			     cpu, pkg);
		return 0;
	}
	cur = uncore_pkgs[pkg].cpu;
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

/**
 * uncore_cpu_offline() - a CPU is going offline
 * @cpu: the CPU
 *
 * Events parked on it go elsewhere; if it reads its package, the package
 * moves to another of its CPUs, one the PMI can reach if it has one, or is
 * parked; with its last CPU, pkg_exit. At unload every CPU is torn down
 * while all stay online: each package goes with its reading CPU, pkg_exit
 * included, rather than from one online CPU to the next.
 *
 * Context: cpuhp callback (CPUHP_AP_ONLINE_DYN) on @cpu, the hotplug lock
 * held for writing; or cpuhp_remove_state() at unload.
 *
 * Return: 0.
 */
int uncore_cpu_offline(unsigned int cpu)
{
	int pkg = topology_logical_package_id(cpu);
	int target = -1, other;

	uncore_repark(cpu, -1);
	if (pkg < 0 || pkg >= uncore_max_pkgs || uncore_pkgs[pkg].cpu != cpu)
		return 0;

	for_each_online_cpu(other) {
		if (uncore_exiting)
			break;
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
