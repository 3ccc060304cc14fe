// SPDX-License-Identifier: GPL-2.0
/*
 * Box operations of Intel's uncore PMON MSR layout, shared by the Intel
 * families: a box's counter controls and counters at fixed strides from
 * box 0's, an optional box control that resets the box, and the
 * write-twice erratum of some Broadwell boxes.
 *
 * Context: MSRs are reached from a CPU of the box's package only: its
 * reading CPU with IRQs off for the perf callbacks, the poll timer and
 * the PMI pass; for init_box, the package's first CPU to come online, in
 * its hotplug callback (process context).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "uncore.h"
#include "pmon.h"

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

/**
 * uncore_msr_read_status() - the box's overflow status
 * @box: the box
 *
 * Return: its BOX_STATUS, 0 if the type has none or the read faulted.
 */
u32 uncore_msr_read_status(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;
	u64 val = 0;

	if (!type->box_status)
		return 0;
	uncore_msr_read(box, type->box_status + box->msr_base, &val);
	return val;
}

/**
 * uncore_msr_clear_status() - acknowledge overflow status bits
 * @box: the box
 * @st: the bits
 *
 * In their own register where the type has one (NHM-EX's OVF_CTL), else
 * in BOX_STATUS itself, write 1 to clear (BDX).
 */
void uncore_msr_clear_status(struct uncore_box *box, u32 st)
{
	const struct uncore_type *type = box->pmu->type;

	uncore_msr_write(box, (type->box_ovf_ctl ?: type->box_status) +
			 box->msr_base, st);
}

/**
 * uncore_msr_freeze() - freeze the box's counters through BOX_CTL
 * @box: the box
 *
 * Return: false if the type's BOX_CTL has no freeze.
 */
bool uncore_msr_freeze(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;

	if (!(type->box_ctl_freeze || type->box_ctl_run))
		return false;
	uncore_msr_write(box, type->box_ctl + box->msr_base,
			 type->box_ctl_freeze);
	return true;
}

/**
 * uncore_msr_unfreeze() - end uncore_msr_freeze()
 * @box: the box
 */
void uncore_msr_unfreeze(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;

	uncore_msr_write(box, type->box_ctl + box->msr_base, type->box_ctl_run);
}

const struct uncore_ops uncore_msr_ops = {
	.init_box	= uncore_msr_init_box,
	.enable_event	= uncore_msr_enable_event,
	.disable_event	= uncore_msr_disable_event,
	.read_counter	= uncore_msr_read_counter,
	.write_counter	= uncore_msr_write_counter,
	.read_ctl	= uncore_msr_read_ctl,
	UNCORE_MSR_BOX_OPS,
};
