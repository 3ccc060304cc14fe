// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_sim: a stand-in for the kernel's AMD core PMU in K8 guests.
 *
 * The driver's uncore_nb hands its events to the core PMU as raw events
 * (drivers/uncore/k8/k8.c). A QEMU guest under TCG has no core PMU: the
 * kernel probes the K7 counter MSRs, finds they do not hold a value, and
 * registers none ("PMU not available due to virtualization"), so a raw
 * event finds no PMU (-ENOENT). Where that is so, and only then, this
 * file registers a small PMU as "cpu" at PERF_TYPE_RAW, which counts on the
 * K8 model's PerfEvtSel0-3/PerfCtr0-3 through the simulator's MSR access.
 *
 * It is a stand-in, not a copy of arch/x86/events/amd/core.c: it counts
 * (no sampling, no overflow interrupt, no rdpmc: TCG has no RDPMC) on CPUs
 * (no per-task events), takes the raw events the real one takes, with the
 * same raw config mask, cycles and instructions as generic events. What
 * it does as the real one does on K8, because it decides what uncore_nb
 * counts on a part:
 *
 * - the per-node owner table, by which no two cores of a node hold
 *   northbridge events (codes E0h-FFh) on one counter index at once;
 * - where a northbridge event goes: the lowest index free in that table,
 *   whatever this CPU holds there, a core event on it moving to another
 *   counter (__amd_get_nb_event_constraints() gives the event that one
 *   index, and x86_schedule_events() places such a constraint first). So
 *   with the NMI watchdog's cycles on index 0 of every CPU, the first
 *   northbridge event of a node takes index 0 of the reading CPU while
 *   the other cores' watchdog stays there: the BKDG's rule that the
 *   other core must not use that index at all (004:38) is broken, and
 *   the model counts it (sibling_conflicts);
 * - how a counter starts: the count, then the selection with EN in one
 *   write (__x86_pmu_enable_event()), not the BKDG's disable-change-enable
 *   pair (004:32-34), which the model answers with its false edge.
 *
 * Where the real scheduler would leave the moved core event off for want
 * of a counter, the northbridge event waits instead (-EAGAIN).
 *
 * Context: every callback but event_init runs on the event's CPU with
 * interrupts off (perf core's CPU context); the owner table is shared by
 * the cores of a node and changed with cmpxchg only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/topology.h>
#include <asm/perf_event.h>

#include "sim.h"
#include "k8.h"

#define K8_PMU_CTRS		4
#define K8_PMU_EVTSEL0		0xc0010000
#define K8_PMU_PERFCTR0		0xc0010004
#define K8_PMU_CTR_BITS		48
#define K8_PMU_USR		BIT_ULL(16)
#define K8_PMU_OS		BIT_ULL(17)
#define K8_PMU_EN		BIT_ULL(22)
/* The real one's raw mask on family 0Fh: AMD64_RAW_EVENT_MASK. */
#define K8_PMU_RAW_MASK		AMD64_RAW_EVENT_MASK

/* What the real one maps PERF_COUNT_HW_CPU_CYCLES and _INSTRUCTIONS to. */
#define K8_PMU_CYCLES		0x0076
#define K8_PMU_INSTRUCTIONS	0x00c0

/* The events on a CPU's counters, by counter index. */
struct k8_pmu_cpu {
	struct perf_event *events[K8_PMU_CTRS];
};

static DEFINE_PER_CPU(struct k8_pmu_cpu, k8_pmu_cpus);

/* Per node and counter index, the northbridge event that holds it. */
static struct perf_event *k8_pmu_nb_owner[SIM_MAX_PKGS][K8_PMU_CTRS];

static bool k8_pmu_registered;

static bool k8_pmu_is_nb(u64 config)
{
	return (config & 0xe0) == 0xe0;
}

/* On the event's CPU: the simulator's register, as the CPU would see it. */
static u64 k8_pmu_rd(u32 msr)
{
	u64 val = 0;

	sim_model->access(msr, &val, false);
	return val;
}

static void k8_pmu_wr(u32 msr, u64 val)
{
	sim_model->access(msr, &val, true);
}

static int k8_pmu_event_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	u64 config;

	switch (attr->type) {
	case PERF_TYPE_RAW:
		config = attr->config & K8_PMU_RAW_MASK;
		break;
	case PERF_TYPE_HARDWARE:
		if (attr->config == PERF_COUNT_HW_CPU_CYCLES)
			config = K8_PMU_CYCLES;
		else if (attr->config == PERF_COUNT_HW_INSTRUCTIONS)
			config = K8_PMU_INSTRUCTIONS;
		else
			return -ENOENT;
		break;
	default:
		return -ENOENT;
	}
	if (event->cpu < 0 || (event->attach_state & PERF_ATTACH_TASK))
		return -EINVAL;
	if (is_sampling_event(event) || attr->precise_ip)
		return -EOPNOTSUPP;
	if (!attr->exclude_user)
		config |= K8_PMU_USR;
	if (!attr->exclude_kernel)
		config |= K8_PMU_OS;
	event->hw.config = config;
	event->hw.idx = -1;
	return 0;
}

static void k8_pmu_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev = local64_read(&hwc->prev_count);
	u64 now = k8_pmu_rd(K8_PMU_PERFCTR0 + hwc->idx);

	local64_set(&hwc->prev_count, now);
	local64_add((now - prev) & GENMASK_ULL(K8_PMU_CTR_BITS - 1, 0),
		    &event->count);
}

/*
 * The real one's sequence: the counter, then the selection with EN, one
 * write over whatever selection the index held (the BKDG asks for the
 * change with EN clear first, 004:32-34).
 */
static void k8_pmu_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	k8_pmu_wr(K8_PMU_PERFCTR0 + hwc->idx, 0);
	local64_set(&hwc->prev_count, 0);
	k8_pmu_wr(K8_PMU_EVTSEL0 + hwc->idx, hwc->config | K8_PMU_EN);
	hwc->state = 0;
}

static void k8_pmu_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		k8_pmu_wr(K8_PMU_EVTSEL0 + hwc->idx, hwc->config);
		hwc->state |= PERF_HES_STOPPED;
	}
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		k8_pmu_update(event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

static int k8_pmu_free_ctr(const struct k8_pmu_cpu *c)
{
	int i;

	for (i = 0; i < K8_PMU_CTRS && c->events[i]; i++)
		;
	return i < K8_PMU_CTRS ? i : -1;
}

/* A core event from counter @from to the free counter @to, counted on. */
static void k8_pmu_move(struct k8_pmu_cpu *c, int from, int to)
{
	struct perf_event *event = c->events[from];
	bool running = !(event->hw.state & PERF_HES_STOPPED);

	k8_pmu_stop(event, PERF_EF_UPDATE);
	c->events[from] = NULL;
	c->events[to] = event;
	event->hw.idx = to;
	if (running)
		k8_pmu_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
}

/*
 * A core event: the lowest free counter of this CPU. A northbridge event:
 * the lowest index free in its node's owner table, a core event of this
 * CPU there moving away (see the top of the file). None: -EAGAIN, and
 * perf multiplexes.
 */
static int k8_pmu_add(struct perf_event *event, int flags)
{
	struct k8_pmu_cpu *c = this_cpu_ptr(&k8_pmu_cpus);
	int node = topology_logical_package_id(smp_processor_id());
	bool nb = k8_pmu_is_nb(event->hw.config);
	int i, free = k8_pmu_free_ctr(c);

	if (free < 0)
		return -EAGAIN;
	i = free;
	if (nb) {
		for (i = 0; i < K8_PMU_CTRS; i++)
			if (!cmpxchg(&k8_pmu_nb_owner[node][i], NULL, event))
				break;
		if (i == K8_PMU_CTRS)
			return -EAGAIN;
		/* This CPU's own northbridge events own their indexes. */
		if (c->events[i])
			k8_pmu_move(c, i, free);
	}
	c->events[i] = event;
	event->hw.idx = i;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		k8_pmu_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

static void k8_pmu_del(struct perf_event *event, int flags)
{
	struct k8_pmu_cpu *c = this_cpu_ptr(&k8_pmu_cpus);
	int node = topology_logical_package_id(smp_processor_id());
	int i = event->hw.idx;

	k8_pmu_stop(event, PERF_EF_UPDATE);
	c->events[i] = NULL;
	if (k8_pmu_is_nb(event->hw.config))
		cmpxchg(&k8_pmu_nb_owner[node][i], event, NULL);
	event->hw.idx = -1;
	perf_event_update_userpage(event);
}

static void k8_pmu_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		k8_pmu_update(event);
}

/* No user rdpmc: TCG raises #UD for it. */
static int k8_pmu_event_idx(struct perf_event *event)
{
	return 0;
}

PMU_FORMAT_ATTR(event, "config:0-7,32-35");
PMU_FORMAT_ATTR(umask, "config:8-15");
PMU_FORMAT_ATTR(edge, "config:18");
PMU_FORMAT_ATTR(inv, "config:23");
PMU_FORMAT_ATTR(cmask, "config:24-31");

static struct attribute *k8_pmu_format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_umask.attr,
	&format_attr_edge.attr,
	&format_attr_inv.attr,
	&format_attr_cmask.attr,
	NULL,
};

static const struct attribute_group k8_pmu_format_group = {
	.name	= "format",
	.attrs	= k8_pmu_format_attrs,
};

static const struct attribute_group *k8_pmu_attr_groups[] = {
	&k8_pmu_format_group,
	NULL,
};

static struct pmu k8_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT,
	.attr_groups	= k8_pmu_attr_groups,
	.event_init	= k8_pmu_event_init,
	.add		= k8_pmu_add,
	.del		= k8_pmu_del,
	.start		= k8_pmu_start,
	.stop		= k8_pmu_stop,
	.read		= k8_pmu_read,
	.event_idx	= k8_pmu_event_idx,
};

/**
 * k8_pmu_init() - register the stand-in if the kernel has no core PMU
 *
 * Process context, at load. A kernel with a core PMU keeps it: the
 * stand-in is not registered (registering at a taken type would get
 * another one, with a warning).
 *
 * Return: 0, or perf_pmu_register()'s error.
 */
int k8_pmu_init(void)
{
	struct x86_pmu_capability cap;
	int err;

	perf_get_x86_pmu_capability(&cap);
	if (cap.num_counters_gp) {
		pr_info("the kernel has a core PMU (%d counters): no stand-in\n",
			cap.num_counters_gp);
		return 0;
	}
	err = perf_pmu_register(&k8_pmu, "cpu", PERF_TYPE_RAW);
	if (err)
		return err;
	k8_pmu_registered = true;
	pr_info("stand-in core PMU \"cpu\" registered: counting only, on the K8 model\n");
	return 0;
}

/**
 * k8_pmu_exit() - unregister the stand-in, if k8_pmu_init() registered it
 *
 * At unload: perf holds a module reference for each of its events, so
 * none is left. Its perf_event_mux_interval_ms is not for writing: perf
 * frees the multiplexing timers that a write queues without cancelling
 * them (the driver's uncore_perf_pmu_unregister() says more); the stand-in
 * is unloaded only by the tests, which do not write it.
 */
void k8_pmu_exit(void)
{
	if (k8_pmu_registered)
		perf_pmu_unregister(&k8_pmu);
	k8_pmu_registered = false;
}
