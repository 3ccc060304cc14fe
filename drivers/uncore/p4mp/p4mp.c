// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_pmu: the iFSB and L3 counters of the 64-bit Intel Xeon processor
 * MP with up to 8 MB L3 (NetBurst, CPUID family 0Fh, model 03h or 04h).
 *
 * Intel SDM Vol. 3B 18.20 (seed 003, one page): eight package-wide MSRs,
 * 0x107CC-0x107D3, each dedicated to one event. Bits 31:0 count, bits
 * 63:32 qualify the event and enable it: counting starts once any of them
 * is non-zero (003:33-35). There is no event select, no enable bit, no
 * global control, no overflow status and no interrupt. The page that lays
 * out the qualification bits is not in the seed, so the driver never
 * interprets them: attr.config is the upper half, verbatim.
 *
 * Which MSR is which unit comes from the SDM's MSR table and the pages
 * after the seed's [EXT]: IBUSQ 0x107CC/D (the seed names the pair but not
 * their addresses), ISNPQ 0x107CE/F, EFSB (DRDY) 0x107D0/1, and the IBUSQ
 * latency pair, control CTL6 at 0x107D2 and 64-bit counter CNTR7 at
 * 0x107D3 (reference/xeon-mp-l3-uncore.md sections 3 and 5).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <asm/processor.h>
#include <uncore_pmu/cpuid.h>

#include "uncore.h"
#include "p4mp.h"

/* SDM 18.20: "107CC through 107D3" (003:27). */
#define P4MP_MSR_IBUSQ0		0x107cc
#define P4MP_MSR_ISNPQ0		0x107ce
#define P4MP_MSR_EFSB0		0x107d0
#define P4MP_MSR_CTL6		0x107d2
#define P4MP_MSR_CNTR7		0x107d3

/* The count half and the control half of one MSR (003:33-34). */
#define P4MP_COUNT		GENMASK_ULL(31, 0)
#define P4MP_CTL_SHIFT		32
/*
 * The qualification bits a user may set: not 31:27 of qual (MSR 63:59),
 * Saturate and the bits above it in the digest's reading of Figures 18-51
 * to 18-53 [EXT, digest 6, moderate confidence]. A saturating counter
 * would stick at 2^32 - 1 and count 0 ever after; EFSB counts only with
 * a qualification bit set [EXT, SDM p.18-108], which those are not.
 */
#define P4MP_QUAL_VALID		GENMASK_ULL(26, 0)

/*
 * No clock or rate is given for these events [digest 7]. They count
 * conditions of queues fed at most once per core clock [INF], and no
 * NetBurst part shipped above 3.8 GHz: at that rate the 32-bit counters
 * wrap in 1.13 s, and the driver reads them every 0.56 s.
 */
#define P4MP_MAX_HZ		3800000000ULL

/*
 * CTL6's enable bit. The SDM's prose says "bit 26" of a 64-bit MSR whose
 * layout figure is lost [EXT, digest 5 and 10.10]: that is bit 26 or, if
 * it counts within the upper half as the other controls do, bit 58. One
 * constant, a parameter so a user with the part can correct it.
 */
static unsigned int lat_enable_bit = 26;

static int p4mp_set_lat_bit(const char *val, const struct kernel_param *kp)
{
	unsigned int bit;
	int err = kstrtouint(val, 0, &bit);

	if (err)
		return err;
	if (bit != 26 && bit != 58)
		return -EINVAL;
	lat_enable_bit = bit;
	return 0;
}

static const struct kernel_param_ops p4mp_lat_bit_ops = {
	.set	= p4mp_set_lat_bit,
	.get	= param_get_uint,
};
module_param_cb(p4mp_latency_enable_bit, &p4mp_lat_bit_ops, &lat_enable_bit,
		0444);
MODULE_PARM_DESC(p4mp_latency_enable_bit,
		 "Xeon MP L3: the MSR_IFSB_CTL6 bit that starts CNTR7, 26 or 58 (default 26)");

/*
 * Neither can overflow into an interrupt nor be frozen: all fields 0.
 * readback 0 too, and no read_ctl: uncore_check_foreign() does not look
 * for another agent's writes here. The seed says the upper half configures
 * qualification and enable (003:33-35), not what RDMSR returns of it, nor
 * which of its bits exist: its layout (Figure 18-51 on) and CTL6's are not
 * in the seed, and "R/W" is only in the SDM's MSR table [EXT, digest 3 and
 * 4.1]. A reserved bit that reads otherwise would report every event lost.
 */
static const struct uncore_ctl_layout p4mp_ctl;

/*
 * The ops run on the package's reading CPU with IRQs off (perf callbacks,
 * the poll hrtimer), as the core calls every type's; init_box in the
 * hotplug online callback there. Never in NMI: nothing here interrupts.
 * Another CPU never writes these MSRs through the driver, but an HT
 * sibling shares them, which is why only the reading CPU touches them.
 */
static u32 p4mp_msr(const struct uncore_box *box, int idx)
{
	return box->pmu->type->perf_ctr + idx;
}

/*
 * Control and count share the MSR: a write sets both. A stopped counter
 * does not move, so what a read gives is written back as the count and no
 * increment is lost; the core read the same value as prev_count before
 * enable_event. Already running with this control (an event carried over
 * a move of the reading CPU) it is left alone.
 */
static void p4mp_enable_event(struct uncore_box *box, struct perf_event *event)
{
	u32 msr = p4mp_msr(box, event->hw.idx);
	u64 val;

	if (uncore_msr_read(box, msr, &val))
		return;
	if (val >> P4MP_CTL_SHIFT == event->hw.config)
		return;
	uncore_msr_write(box, msr, event->hw.config << P4MP_CTL_SHIFT |
				   (val & P4MP_COUNT));
}

/*
 * An all-zero upper half stops the counter [INF: 003:35 says only that a
 * non-zero one starts it; digest 4.1]. The count written with it is the
 * one just read, so what the counter adds between the read and the write
 * is lost: a few clocks, which the part gives no way to avoid [digest 8.8].
 */
static void p4mp_disable_event(struct uncore_box *box, struct perf_event *event)
{
	u32 msr = p4mp_msr(box, event->hw.idx);
	u64 val;

	if (!uncore_msr_read(box, msr, &val))
		uncore_msr_write(box, msr, val & P4MP_COUNT);
}

static u64 p4mp_read_counter(struct uncore_box *box, struct perf_event *event)
{
	u64 val;

	if (uncore_msr_read(box, p4mp_msr(box, event->hw.idx), &val))
		return local64_read(&event->hw.prev_count);
	return val & P4MP_COUNT;
}

/* A previous user's events stop; their counts stay, prev is read anyway. */
static void p4mp_init_box(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;
	u64 val;
	int i;

	for (i = 0; i < type->num_counters; i++) {
		u32 msr = p4mp_msr(box, i);

		if (!uncore_msr_read(box, msr, &val) && val >> P4MP_CTL_SHIFT)
			uncore_msr_write(box, msr, val & P4MP_COUNT);
	}
}

static const struct uncore_ops p4mp_ops = {
	.init_box	= p4mp_init_box,
	.enable_event	= p4mp_enable_event,
	.disable_event	= p4mp_disable_event,
	.read_counter	= p4mp_read_counter,
};

/* Zero qualification never counts (003:35): refuse it, not count 0. */
static int p4mp_hw_config(const struct uncore_type *type,
			  struct perf_event *event, struct uncore_event *ue)
{
	return event->attr.config ? 0 : -EINVAL;
}

/*
 * The qualification half, verbatim. Its fields (T0/T1_match, Saturate,
 * ...) are known only from a badly extracted figure [digest 6]: they are
 * not named here, so that a wrong guess never becomes ABI; only the bits
 * that would saturate the counter are refused (P4MP_QUAL_VALID).
 */
static const struct uncore_format_desc p4mp_formats[] = {
	{ "qual", "config:0-31" },
	{ }
};

#define P4MP_QUAL_TYPE(_name, _msr) {			\
	.name		= _name,			\
	.num_boxes	= 1,				\
	.num_counters	= 2,				\
	.ctr_bits	= 32,				\
	.max_inc	= 1,				\
	.clock_hz	= P4MP_MAX_HZ,			\
	.ctl		= &p4mp_ctl,			\
	.config_mask	= P4MP_QUAL_VALID,		\
	.perf_ctr	= _msr,				\
	.ops		= &p4mp_ops,			\
	.formats	= p4mp_formats,			\
	.hw_config	= p4mp_hw_config,		\
}

static const struct uncore_type p4mp_ibusq = P4MP_QUAL_TYPE("ibusq", P4MP_MSR_IBUSQ0);
static const struct uncore_type p4mp_isnpq = P4MP_QUAL_TYPE("isnpq", P4MP_MSR_ISNPQ0);
static const struct uncore_type p4mp_efsb = P4MP_QUAL_TYPE("efsb", P4MP_MSR_EFSB0);

/*
 * The latency pair: CNTR7 counts while CTL6's enable bit is set, and
 * keeps its count when it is cleared ("freezes", [EXT] digest 5). What
 * else CTL6 holds is not known, so the event takes no config: the driver
 * writes the enable bit alone.
 */
static void p4mp_lat_enable(struct uncore_box *box, struct perf_event *event)
{
	uncore_msr_write(box, P4MP_MSR_CTL6, BIT_ULL(lat_enable_bit));
}

static void p4mp_lat_disable(struct uncore_box *box, struct perf_event *event)
{
	uncore_msr_write(box, P4MP_MSR_CTL6, 0);
}

/*
 * CNTR7's width: the SDM's prose says it "acts as a 64-bit event counter"
 * [EXT, digest 5], while 003:27-29 counts the low halves of all eight
 * MSRs, 107D3 included, as 32-bit counters. Either way the read is exact:
 * a value with a non-zero upper half comes from a 64-bit counter and is
 * taken as it is; one without is widened from the last read (its upper
 * half, plus 2^32 if the low half went back), which is what a 64-bit
 * counter below 2^32 gives too. The poll timer reads it at the 32-bit
 * counters' rate (poll_bits), so that a 32-bit CNTR7 wraps at most once
 * between two reads at one count a clock.
 */
static u64 p4mp_lat_read(struct uncore_box *box, struct perf_event *event)
{
	u64 prev = local64_read(&event->hw.prev_count), val;

	if (uncore_msr_read(box, P4MP_MSR_CNTR7, &val))
		return prev;
	if (val >> 32)
		return val;
	val |= prev & ~P4MP_COUNT;
	return val < prev ? val + BIT_ULL(32) : val;
}

static void p4mp_lat_init(struct uncore_box *box)
{
	uncore_msr_write(box, P4MP_MSR_CTL6, 0);
}

static const struct uncore_ops p4mp_lat_ops = {
	.init_box	= p4mp_lat_init,
	.enable_event	= p4mp_lat_enable,
	.disable_event	= p4mp_lat_disable,
	.read_counter	= p4mp_lat_read,
};

static const struct uncore_event_desc p4mp_lat_events[] = {
	/* The unit's one event, under the name the SDM gives it [EXT]. */
	{ .name = "ibusq_latency", .config = "config=0", .compat = true },
	{ }
};

static const struct uncore_type p4mp_ibusq_lat = {
	.name		= "ibusq_lat",
	.num_boxes	= 1,
	.num_counters	= 1,
	.ctr_bits	= 64,
	.poll_bits	= 32,
	/*
	 * Weighted cycles: an unknown number of transactions per clock
	 * [digest 5, INF]. One a clock, as the other counters of the part:
	 * a 32-bit CNTR7 counting faster would wrap between two polls.
	 */
	.max_inc	= 1,
	.clock_hz	= P4MP_MAX_HZ,
	.ctl		= &p4mp_ctl,
	.event_ctl	= P4MP_MSR_CTL6,
	.perf_ctr	= P4MP_MSR_CNTR7,
	.ops		= &p4mp_lat_ops,
	.events		= p4mp_lat_events,
};

static const struct uncore_type * const p4mp_types[] = {
	&p4mp_ibusq,
	&p4mp_isnpq,
	&p4mp_efsb,
	&p4mp_ibusq_lat,
	NULL,
};

/*
 * Family 0Fh, model 03h/04h also covers Pentium 4 and Xeon DP parts
 * without an L3, which have none of these MSRs [digest 1]. The model
 * check does not lean on the MSR faulting (under QEMU's TCG an unknown MSR
 * may read as 0): the L3 decides, and the read must not fault either.
 */
static int p4mp_probe(void)
{
	u64 val;

	if (!uncore_cpu_has_l3()) {
		pr_info("family 0Fh model %02xh without an L3: no iFSB/L3 counters\n",
			boot_cpu_data.x86_model);
		return -ENODEV;
	}
	if (uncore_msr_probe(P4MP_MSR_IBUSQ0, &val)) {
		pr_info("MSR 0x%x faults: no iFSB/L3 counters on this part\n",
			P4MP_MSR_IBUSQ0);
		return -ENODEV;
	}
	return 0;
}

const struct uncore_platform p4mp_platform = {
	.id	= "p4mp",
	.name	= "64-bit Xeon MP with L3 (NetBurst)",
	.probe	= p4mp_probe,
	.types	= p4mp_types,
};

/*
 * Family 0Fh model 06h (Xeon 7100) and family 6 model 1Dh (Xeon 7400)
 * have other L3 counters at the same addresses, with another layout
 * (SDM 18.21 [EXT], digest 1): the model table names them so that loading
 * says why nothing is registered.
 */
static int p4mp_other_probe(void)
{
	pr_info("MSRs 0x107cc-0x107d3 of family %xh model %02xh are the Xeon 7100/7400 L3 counters, which this driver does not support\n",
		boot_cpu_data.x86, boot_cpu_data.x86_model);
	return -ENODEV;
}

const struct uncore_platform p4mp_other_platform = {
	.id	= "xeon7x00",
	.name	= "Xeon 7100/7400 (not supported)",
	.probe	= p4mp_other_probe,
};
