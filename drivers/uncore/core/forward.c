// SPDX-License-Identifier: GPL-2.0
/*
 * Events of a forwarding type (&struct uncore_type.forward: K8's
 * northbridge events, which the core PMU's counters count): validated
 * here, placed on their package's reading CPU and handed to the PMU that
 * counts them, and the note a user gets when a move leaves them behind.
 *
 * Context: uncore_forward_init() in event_init (process context);
 * uncore_forwarded_note() in the offline callback of a reading CPU.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/slab.h>
#include <linux/topology.h>

#include "internal.h"

/**
 * uncore_forward_init() - event_init of a forwarding type
 * @upmu: the pmu the event was opened on
 * @event: the event
 *
 * An event of a forwarding type (&struct uncore_type.forward): validated
 * like any other, placed on its package's reading CPU, rewritten for the
 * PMU that counts it and handed on (UNCORE_HAND_ON, perf_compat.h).
 * Nothing of it stays here (no destroy, no box reference), and that PMU
 * checks nothing of ours, so what this PMU's capabilities would have
 * refused is refused here. Its group is that PMU's to validate, with the
 * event in it.
 *
 * Context: process context, from event_init; takes uncore_box_mutex.
 *
 * Return: UNCORE_HAND_ON with the event rewritten, or a negative errno.
 */
int uncore_forward_init(struct uncore_pmu *upmu, struct perf_event *event)
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
	return err ? err : UNCORE_HAND_ON;
}

/**
 * uncore_forwarded_note() - tell the users of forwarded events that a move stops them
 * @pkg: the package
 * @from: its reading CPU, going offline
 * @to: the CPU taking over, -1 for none
 *
 * Events forwarded to another PMU on @from stay in its context there: perf
 * turns them off for good as @from goes (perf_event_exit_cpu()), and only
 * that PMU could move them, all of its events with them. Say so, for the
 * users whose counts stop.
 *
 * Context: the offline callback of @from (uncore_pkg_move()).
 */
void uncore_forwarded_note(int pkg, int from, int to)
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
