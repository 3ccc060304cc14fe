// SPDX-License-Identifier: GPL-2.0
/*
 * Box operations of Intel's uncore PMON PCI layout (Broadwell-EP/EX's
 * config-space boxes): CTLn at event_ctl + 4n, CTRn at perf_ctr + 8n as two
 * dwords read without a tear (uncore_read_split()), and a function that
 * answers all ones taken as gone.
 *
 * Context: config space is reachable from any CPU; the core calls these
 * on the box's reading CPU with IRQs off, but for init at PCI probe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/pci.h>
#include <linux/sched/clock.h>

#include "uncore.h"
#include "pmon.h"

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
	u64 val = uncore_read_split(&uncore_pci_split, &ctx, width,
				    local64_read(&event->hw.prev_count));

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

/**
 * uncore_pci_read_status() - the box's overflow status
 * @box: the box
 *
 * Return: its BOX_STATUS; 0 if the type has none, or if the function
 * answered all ones (reserved bits set: it is gone, not overflowing).
 */
u32 uncore_pci_read_status(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;
	u32 st;

	if (!type->box_status)
		return 0;
	uncore_pci_read(box, box->pdev, type->box_status, &st);
	if (st == U32_MAX) {
		uncore_box_fault(box, "config read at", type->box_status);
		return 0;
	}
	return st;
}

/**
 * uncore_pci_clear_status() - acknowledge overflow status bits
 * @box: the box
 * @st: the bits, written back to BOX_STATUS (write 1 to clear)
 */
void uncore_pci_clear_status(struct uncore_box *box, u32 st)
{
	const struct uncore_type *type = box->pmu->type;

	uncore_pci_write(box, box->pdev, type->box_ovf_ctl ?: type->box_status,
			 st);
}

/**
 * uncore_pci_freeze() - freeze the box's counters through BOX_CTL
 * @box: the box
 *
 * Return: false if the type's BOX_CTL has no freeze.
 */
bool uncore_pci_freeze(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;

	if (!(type->box_ctl_freeze || type->box_ctl_run))
		return false;
	uncore_pci_write(box, box->pdev, type->box_ctl, type->box_ctl_freeze);
	return true;
}

/**
 * uncore_pci_unfreeze() - end uncore_pci_freeze()
 * @box: the box
 */
void uncore_pci_unfreeze(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;

	uncore_pci_write(box, box->pdev, type->box_ctl, type->box_ctl_run);
}

const struct uncore_ops uncore_pci_ops = {
	.init_box	= uncore_pci_init_box,
	.enable_event	= uncore_pci_enable_event,
	.disable_event	= uncore_pci_disable_event,
	.read_counter	= uncore_pci_read_counter,
	.write_counter	= uncore_pci_write_counter,
	.read_ctl	= uncore_pci_read_ctl,
	UNCORE_PCI_BOX_OPS,
};
