// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_pmu: the Intel Xeon 7500 (Nehalem-EX, CPUID family 6 model 2Eh)
 * uncore: U, C, B, S, M, R and W boxes, all reached through MSRs of the
 * package (Intel Xeon Processor 7500 Series Uncore Programming Guide; line
 * references "000:N" are to its text in the project's shared seeds, and
 * reference/xeon7500-uncore.md is the digest).
 *
 * Every box but the U-box has the same register block: GLOBAL_CTL (one
 * ctr_en bit per counter), GLOBAL_STATUS, OVF_CTL (write 1 to clear), then
 * control/counter pairs from +0x10 (000:1744-1774). A counter counts only
 * with its own enable, its box's ctr_en bit and U GLOBAL_CTL.en_all set
 * (000:95, 172): the driver keeps ctr_en and en_all set while a package
 * is online and starts and stops events with their own enable bits.
 *
 * The seed has no M-box or W-box chapter and lost several tables: facts
 * marked [EXT] come from the digest's Appendix A (Linux, EDK2, likwid,
 * the SDM), not from the guide; Documentation/uncore_pmu.rst lists them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/topology.h>

#include "uncore.h"
#include "../intel/pmon.h"
#include "nhmex.h"

/* U-box: Table 2-1 (000:158-167); EVT_SEL and CTR addresses [EXT]. */
#define NHMEX_U_GLOBAL_CTL	0xc00
#define NHMEX_U_EVT_SEL		0xc10
#define NHMEX_U_CTR		0xc11
/*
 * U GLOBAL_CTL: the seed prints frz_all (bit 31, 000:182) only; en_all 28,
 * rst_all 29 and the U counter's enable, bit 0, are [EXT] (Linux, likwid).
 */
#define NHMEX_U_GCTL_U_EN	BIT_ULL(0)
#define NHMEX_U_GCTL_EN_ALL	BIT_ULL(28)
#define NHMEX_U_GCTL_RST_ALL	BIT_ULL(29)
#define NHMEX_U_GCTL_FRZ_ALL	BIT_ULL(31)
/*
 * pmi_core_sel: the guide's example is a one-hot mask of cores 0-7
 * (000:183-189) and gives no position; Linux defines the field as 4:1
 * (0x1e), too narrow for 8 cores. The driver takes Linux's start and the
 * guide's width, bits 8:1 (Documentation/uncore_pmu.rst).
 */
#define NHMEX_U_GCTL_CORE_SEL	GENMASK_ULL(8, 1)
#define NHMEX_U_GCTL_CORES	8
#define NHMEX_U_GLOBAL_STATUS	0xc01
#define NHMEX_U_GLOBAL_OVF_CTL	0xc02
/* U GLOBAL_STATUS (Table 2-3, 000:190-198) */
#define NHMEX_U_GSTS_OV_U	BIT_ULL(0)
#define NHMEX_U_GSTS_OV_W	BIT_ULL(1)
#define NHMEX_U_GSTS_OV_S1	BIT_ULL(2)
#define NHMEX_U_GSTS_OV_S0	BIT_ULL(3)
#define NHMEX_U_GSTS_PMI	BIT_ULL(30)
/* S_MSR_PMON_SUMMARY (Table 2-26, 000:1782-1802), at S base + 3 */
#define NHMEX_S_SUMMARY		3
#define NHMEX_SUM_C_R		BIT_ULL(0)	/* C-box 2/3 (S1: 6/7) */
#define NHMEX_SUM_C_L		BIT_ULL(2)	/* C-box 0/1 (S1: 4/5) */
#define NHMEX_SUM_MB		BIT_ULL(16)	/* B-box and M-box */
#define NHMEX_SUM_S		BIT_ULL(18)	/* the S-box itself */
#define NHMEX_SUM_R		BIT_ULL(19)	/* the R-box half */
#define NHMEX_SUM_ALL		(NHMEX_SUM_C_R | NHMEX_SUM_C_L | NHMEX_SUM_MB | \
				 NHMEX_SUM_S | NHMEX_SUM_R)

/* Box blocks (000:1744-1774, 3011-3157; C, B, M and W bases [EXT]). */
#define NHMEX_C0_BASE		0xd00
#define NHMEX_B0_BASE		0xc20
#define NHMEX_B_STRIDE		0x40
#define NHMEX_S0_BASE		0xc40
#define NHMEX_S_STRIDE		0x80
#define NHMEX_M0_BASE		0xca0
#define NHMEX_M_STRIDE		0x40
#define NHMEX_W_BASE		0xc80
#define NHMEX_R0_BASE		0xe00
#define NHMEX_R_STRIDE		0x20
#define NHMEX_W_FIXED_CTR	0x394	/* [EXT] */
#define NHMEX_W_FIXED_CTL	0x395	/* [EXT] */
/* W GLOBAL_CTL.fixed_en, and the fixed counter's status bit [EXT]. */
#define NHMEX_W_FIXED_EN	BIT_ULL(31)
/*
 * Every box but the U-box has the same block: GLOBAL_CTL at its base,
 * then these (000:1744-1774); counter i's control and counter at
 * CTL0/CTR0 + 2i.
 */
#define NHMEX_BOX_STATUS	1
#define NHMEX_BOX_OVF_CTL	2
#define NHMEX_BOX_CTL0		0x10
#define NHMEX_BOX_CTR0		0x11

/*
 * The guide gives no uncore clock. Every box counts at most once per
 * uncore clock per increment, and no Xeon 7500 runs its uncore at 3 GHz
 * [INF]: a bound for the poll period, not a frequency anyone relies on.
 */
#define NHMEX_UCLK_MAX_HZ	3000000000ULL

/* ---- Control register layouts (G2 of the digest) ----------------------- */

/* C, S and W EVT_SEL (Table 2-13, 000:470-498; S Table 2-30; W [EXT]). */
#define NHMEX_CTL_EVENT		GENMASK_ULL(7, 0)
#define NHMEX_CTL_UMASK		GENMASK_ULL(15, 8)
#define NHMEX_CTL_EDGE		BIT_ULL(18)
#define NHMEX_CTL_INVERT	BIT_ULL(23)
#define NHMEX_CTL_THRESH	GENMASK_ULL(31, 24)
#define NHMEX_CTL_COMMON	(NHMEX_CTL_EVENT | NHMEX_CTL_UMASK | \
				 NHMEX_CTL_EDGE | NHMEX_CTL_INVERT | \
				 NHMEX_CTL_THRESH)

/*
 * What uncore_check_foreign() compares: the fields of a control the guide
 * prints as read/write. Its MSR tables give each register an access pair
 * ("RW_RO"); the guide never explains the halves, and the first is taken
 * as software's access [INF: it is RO for the status-only SUMMARY and WO
 * for the write-1-to-clear OVF_CTLs, as their field tables describe them].
 * Of an RW control, every field its table defines reads back; "ig" bits
 * read 0 and "rsv" ones are never written. A type whose control row or
 * field table the seed lost is not checked: its readback is 0.
 *
 * C EVT_SEL (RW_RO, 000:413; the row of EVT_SEL_0, Table 2-13 lays out all
 * six, 000:470-484) and S CTL (RW_RO, 000:1745-1770; Table 2-30,
 * 000:1851-1866): threshold, invert, en, pmi_en, edge_detect, umask and
 * ev_sel. Not the S-box's reset_occ_cnt (17, 000:1863), an action whose
 * read value the guide does not give (the C-box's bit 17 is ig).
 */
#define NHMEX_CTL_READBACK	(GENMASK_ULL(31, 22) | BIT_ULL(20) | \
				 BIT_ULL(18) | GENMASK_ULL(15, 0))

/*
 * Invert flips the threshold comparison (000:461-465): without a
 * threshold it would invert nothing, so it is refused there.
 */
static const struct uncore_ctl_layout nhmex_ctl = {
	.en		= BIT_ULL(22),
	.ov_en		= BIT_ULL(20),
	.thresh		= NHMEX_CTL_THRESH,
	.need_thresh	= NHMEX_CTL_INVERT,
	.readback	= NHMEX_CTL_READBACK,
};

/*
 * The W-box's: the C-box layout and a fixed counter, all [EXT] (the seed
 * has no W-box chapter), so its controls are not checked.
 */
static const struct uncore_ctl_layout nhmex_ctl_w = {
	.en		= BIT_ULL(22),
	.fixed_en	= BIT_ULL(0),	/* W FIXED_CTL.en [EXT] */
	.ov_en		= BIT_ULL(20),
	.thresh		= NHMEX_CTL_THRESH,
	.need_thresh	= NHMEX_CTL_INVERT,
	/* FIXED_CTL has an enable bit and nothing else known [EXT]. */
	.fixed_no_ov	= true,
};

/*
 * U EVT_SEL (Table 2-6, 000:218-239): no umask, threshold or invert. Its
 * MSR row, with the access, went with Table 2-5 [EXT]: not checked.
 */
static const struct uncore_ctl_layout nhmex_ctl_u = {
	.en	= BIT_ULL(22),
	.ov_en	= BIT_ULL(20),
};

/*
 * B EVT_SEL (Table 2-20, 000:1161-1178): en 0, ev_sel 5:1, pmi_en 20.
 * Table 2-16 lost its EVT_SEL rows (000:1098-1105), and their access with
 * them: not checked.
 */
static const struct uncore_ctl_layout nhmex_ctl_b = {
	.en	= BIT_ULL(0),
	.ov_en	= BIT_ULL(20),
};

/*
 * R PMON_CTL (Table 2-44, 000:3217-3224): en 0, ev_sel 5:1, pmi_en 6,
 * every CTL0-15 RW_NA (000:3078-3137): all three read back.
 */
static const struct uncore_ctl_layout nhmex_ctl_r = {
	.en		= BIT_ULL(0),
	.ov_en		= BIT_ULL(6),
	.readback	= GENMASK_ULL(6, 0),
};

/* M CNT_CTL [EXT]: en 0, pmi_en 1. No M-box chapter: not checked. */
static const struct uncore_ctl_layout nhmex_ctl_m = {
	.en	= BIT_ULL(0),
	.ov_en	= BIT_ULL(1),
};

/* The 5-bit event select of the B and R boxes, config bits 5:1. */
#define NHMEX_EVENT5		GENMASK_ULL(5, 1)

/* ---- Overflow status ------------------------------------------------------ */

/*
 * The overflow of a box reaches the U-box through a hierarchy (000:73-93,
 * 129-137): the box's STATUS, then for C, B, M, R and S boxes a bit of
 * S-box 0's or 1's SUMMARY, then U GLOBAL_STATUS. The driver's status word
 * (struct uncore_pmi) puts the leaves of that tree side by side: U's own
 * ov_u and ov_w in bits 0-1, S-box n's SUMMARY in bits 24 + 20n up.
 */
#define NHMEX_ST_SUM(n)		(24 + 20 * (n))
#define NHMEX_ST(n, bit)	((u64)(bit) << NHMEX_ST_SUM(n))

static u64 nhmex_cbox_pmi(int idx)
{
	/* C-box 0-3 report to S-box 0, 4-7 to S-box 1; 0/1 and 4/5 "left". */
	return NHMEX_ST(idx / 4, idx % 4 < 2 ? NHMEX_SUM_C_L : NHMEX_SUM_C_R);
}

static u64 nhmex_mb_pmi(int idx)
{
	return NHMEX_ST(idx, NHMEX_SUM_MB);
}

static u64 nhmex_sbox_pmi(int idx)
{
	return NHMEX_ST(idx, NHMEX_SUM_S);
}

/* The left half (counters 0-7) reports to S-box 0, the right to S-box 1. */
static u64 nhmex_rbox_pmi(int idx)
{
	return NHMEX_ST(idx, NHMEX_SUM_R);
}

static u64 nhmex_ubox_pmi(int idx)
{
	return NHMEX_U_GSTS_OV_U;
}

static u64 nhmex_wbox_pmi(int idx)
{
	return NHMEX_U_GSTS_OV_W;
}

/* ---- Box ops --------------------------------------------------------------- */

/*
 * All ops run on the package's reading CPU with IRQs off (perf callbacks,
 * the poll hrtimer) or in its CPU hotplug online callback (init_box); the
 * registers are the package's, so no other CPU's access can interleave
 * with these through the driver. Nothing here runs in NMI context.
 */

/* A box's GLOBAL_CTL, STATUS and OVF_CTL (000:1744-1774). */
static u32 nhmex_box_reg(const struct uncore_box *box, u32 reg)
{
	return reg + box->msr_base;
}

/*
 * Stop whatever a previous user left counting, clear its overflow bits
 * (a new freeze is only seen once they are clear, 000:404-409), and set
 * every ctr_en bit: from now on an event starts and stops with its own
 * enable bit alone.
 */
static void nhmex_init_box(struct uncore_box *box)
{
	const struct uncore_type *type = box->pmu->type;
	int i;

	uncore_msr_write(box, nhmex_box_reg(box, type->box_ctl), 0);
	for (i = 0; i < type->num_counters; i++)
		uncore_msr_write(box, uncore_msr_ctl(box, i), 0);
	if (type->fixed_ctl)
		uncore_msr_write(box, type->fixed_ctl, 0);
	uncore_msr_write(box, nhmex_box_reg(box, type->box_ovf_ctl),
			 type->box_ctl_run);
	uncore_msr_write(box, nhmex_box_reg(box, type->box_ctl),
			 type->box_ctl_run);
}

/* _read_ctl: uncore_msr_read_ctl for the types whose layout has a readback. */
#define NHMEX_OPS(_read_ctl) {						\
	.init_box	= nhmex_init_box,				\
	.enable_event	= uncore_msr_enable_event,			\
	.disable_event	= uncore_msr_disable_event,			\
	.read_counter	= uncore_msr_read_counter,			\
	.write_counter	= uncore_msr_write_counter,			\
	.read_ctl	= _read_ctl,					\
	UNCORE_MSR_BOX_OPS,						\
}

static const struct uncore_ops nhmex_ops = NHMEX_OPS(uncore_msr_read_ctl);
/* The B-, M- and W-boxes, whose controls the poll timer does not check. */
static const struct uncore_ops nhmex_noreadback_ops = NHMEX_OPS(NULL);

/* ---- U-box (2.2) -------------------------------------------------------- */

static const struct uncore_format_desc nhmex_ubox_formats[] = {
	{ "event",	"config:0-7" },
	{ "edge",	"config:18" },
	{ }
};

/*
 * One counter, enabled by U GLOBAL_CTL bit 0 rather than a box block
 * (000:173, Appendix B #6). Event codes above 0xff (RECOV, the error
 * events, 000:282-283) do not fit ev_sel[7:0]: the format has 8 bits, so
 * they are refused, not truncated into another event.
 */
const struct uncore_type nhmex_ubox = {
	.name		= "ubox",
	.num_boxes	= 1,
	.num_counters	= 1,
	.ctr_bits	= 48,
	.max_inc	= 1,
	.clock_hz	= NHMEX_UCLK_MAX_HZ,
	.ctl		= &nhmex_ctl_u,
	.config_mask	= NHMEX_CTL_EVENT | NHMEX_CTL_EDGE,
	.event_ctl	= NHMEX_U_EVT_SEL,
	.perf_ctr	= NHMEX_U_CTR,
	.pmi_mask	= nhmex_ubox_pmi,
	.ops		= &uncore_msr_ops,
	.constraints	= nhmex_ubox_constraints,
	.formats	= nhmex_ubox_formats,
	.events		= nhmex_ubox_events,
};

/* ---- C-box (2.3) -------------------------------------------------------- */

static const struct uncore_format_desc nhmex_cbox_formats[] = {
	{ "event",	"config:0-7" },
	{ "umask",	"config:8-15" },
	{ "edge",	"config:18" },
	{ "inv",	"config:23" },
	{ "thresh",	"config:24-31" },
	{ }
};

/*
 * The eight C-boxes' blocks are interleaved, not in C-box order [EXT:
 * EDK2 and Linux; the seed has C-box 0 at 0xd00 only, 000:413-416]. All
 * eight exist whatever the part's LLC size (000:378-381).
 */
static const u32 nhmex_cbox_offsets[] = {
	0x00, 0x80, 0x40, 0xc0, 0x20, 0xa0, 0x60, 0xe0,
};

const struct uncore_type nhmex_cbox = {
	.name		= "cbox",
	.num_boxes	= ARRAY_SIZE(nhmex_cbox_offsets),
	.num_counters	= 6,
	.ctr_bits	= 48,
	.clock_hz	= NHMEX_UCLK_MAX_HZ,
	.box_ctl	= NHMEX_C0_BASE,
	.box_status	= NHMEX_C0_BASE + NHMEX_BOX_STATUS,
	.box_ovf_ctl	= NHMEX_C0_BASE + NHMEX_BOX_OVF_CTL,
	.box_ctl_run	= GENMASK_ULL(5, 0),
	.event_ctl	= NHMEX_C0_BASE + NHMEX_BOX_CTL0,
	.perf_ctr	= NHMEX_C0_BASE + NHMEX_BOX_CTR0,
	.msr_ctl_stride	= 2,
	.msr_ctr_stride	= 2,
	/* Occupancy events add up to 24 per cycle (000:561-562). */
	.max_inc	= 24,
	.ctl		= &nhmex_ctl,
	.config_mask	= NHMEX_CTL_COMMON,
	.box_offsets	= nhmex_cbox_offsets,
	.pmi_mask	= nhmex_cbox_pmi,
	.ops		= &nhmex_ops,
	.constraints	= nhmex_cbox_constraints,
	.formats	= nhmex_cbox_formats,
	.events		= nhmex_cbox_events,
};

/* ---- B-box (2.4) -------------------------------------------------------- */

#define NHMEX_B_MATCH0		0xe45	/* B1: 0xe4d (Table 2-16) */
#define NHMEX_B_MATCH_STRIDE	8
/* MATCH/MASK fields are 59:0 (Table 2-22, 000:1207-1225). */
#define NHMEX_B_MM_VALID	GENMASK_ULL(59, 0)
#define NHMEX_B_COUNTER		GENMASK_ULL(7, 6)

static const struct uncore_format_desc nhmex_bbox_formats[] = {
	{ "event",	"config:1-5" },
	{ "counter",	"config:6-7" },
	{ "match",	"config1:0-63" },
	{ "mask",	"config2:0-63" },
	{ }
};

/*
 * The events that use the box's one MATCH/MASK pair (000:1197-1200): on
 * counter 0 codes 1-3, on counter 1 codes 1-6, on counter 2 code 4.
 */
static bool nhmex_bbox_matches(int ctr, u32 ev)
{
	switch (ctr) {
	case 0:
		return ev >= 0x01 && ev <= 0x03;
	case 1:
		return ev >= 0x01 && ev <= 0x06;
	case 2:
		return ev == 0x04;
	}
	return false;
}

/*
 * B-box event selects are not symmetric (000:1177-1178): an event is a
 * counter and a code, and the user names both (mainline's "counter"
 * field). The table lists each counter's events; a code that is not one
 * of the chosen counter's is refused rather than counting another event.
 */
static int nhmex_bbox_hw_config(const struct uncore_type *type,
				struct perf_event *event,
				struct uncore_event *ue)
{
	u64 config = event->attr.config;
	int ctr = FIELD_GET(NHMEX_B_COUNTER, config);
	struct uncore_aux_alt *alt;

	if (ue->allowed != BIT(ctr))
		return -EINVAL;
	ue->aux.drop = NHMEX_B_COUNTER;
	if (!nhmex_bbox_matches(ctr, FIELD_GET(NHMEX_EVENT5, config)))
		return event->attr.config1 || event->attr.config2 ? -EINVAL : 0;
	if ((event->attr.config1 | event->attr.config2) & ~NHMEX_B_MM_VALID)
		return -EINVAL;
	alt = uncore_aux_request(&ue->aux, 0, BIT(0));
	alt->val[0] = event->attr.config1;
	alt->val[1] = event->attr.config2;
	return 0;
}

/* The guide gives no order for the pair (000:1197-1232). */
static void nhmex_bbox_write_aux(struct uncore_box *box, int slot,
				 const u64 *val, u32 regs)
{
	u32 msr = NHMEX_B_MATCH0 + box->pmu->idx * NHMEX_B_MATCH_STRIDE;

	if (regs & BIT(0))
		uncore_msr_write(box, msr, val[0]);
	if (regs & BIT(1))
		uncore_msr_write(box, msr + 1, val[1]);
}

static const struct uncore_aux_slot nhmex_bbox_aux[] = {
	{ .nregs = 2, .nfields = 1,
	  .field = { { NHMEX_B_MM_VALID, NHMEX_B_MM_VALID } } },
};

const struct uncore_type nhmex_bbox = {
	.name		= "bbox",
	.num_boxes	= 2,
	.num_counters	= 4,
	.ctr_bits	= 48,
	.clock_hz	= NHMEX_UCLK_MAX_HZ,
	.box_ctl	= NHMEX_B0_BASE,
	.box_status	= NHMEX_B0_BASE + NHMEX_BOX_STATUS,
	.box_ovf_ctl	= NHMEX_B0_BASE + NHMEX_BOX_OVF_CTL,
	.box_ctl_run	= GENMASK_ULL(3, 0),
	.event_ctl	= NHMEX_B0_BASE + NHMEX_BOX_CTL0,
	.perf_ctr	= NHMEX_B0_BASE + NHMEX_BOX_CTR0,
	.msr_ctl_stride	= 2,
	.msr_ctr_stride	= 2,
	.max_inc	= 1,			/* 000:1157-1158 */
	.ctl		= &nhmex_ctl_b,
	.config_mask	= NHMEX_EVENT5 | NHMEX_B_COUNTER,
	.config1_mask	= ~0ULL,
	.config2_mask	= ~0ULL,
	.box_stride	= NHMEX_B_STRIDE,
	.num_aux	= ARRAY_SIZE(nhmex_bbox_aux),
	.aux		= nhmex_bbox_aux,
	.pmi_mask	= nhmex_mb_pmi,
	.write_aux	= nhmex_bbox_write_aux,
	.ops		= &nhmex_noreadback_ops,
	.constraints	= nhmex_bbox_constraints,
	.formats	= nhmex_bbox_formats,
	.events		= nhmex_bbox_events,
	.hw_config	= nhmex_bbox_hw_config,
};

/* ---- S-box (2.5) -------------------------------------------------------- */

/* MM_CFG, MATCH, MASK [EXT addresses: Linux, EDK2]; S1 0x10 higher. */
#define NHMEX_S_MM_CFG0		0xe48
#define NHMEX_S_MM_STRIDE	0x10
#define NHMEX_S_MM_CFG_EN	BIT_ULL(63)	/* 000:1901-1908 */
/* S_MSR_MASK (Table 2-35): addr 38:1, hnid 0; 62:39 ignored. */
#define NHMEX_S_MASK_VALID	GENMASK_ULL(38, 0)
#define NHMEX_S_RESET_OCC	BIT_ULL(17)	/* Table 2-30 */
#define NHMEX_S_EV_PROG		0x00		/* TO_R_PROG_EV */

static const struct uncore_format_desc nhmex_sbox_formats[] = {
	{ "event",	"config:0-7" },
	{ "umask",	"config:8-15" },
	{ "edge",	"config:18" },
	{ "inv",	"config:23" },
	{ "thresh",	"config:24-31" },
	{ "match",	"config1:0-63" },
	{ "mask",	"config2:0-63" },
	{ }
};

/*
 * Occupancy events read a 7-bit subcounter per counter that must be reset
 * in the write that enables the counter (000:1741-1743, 1938-1944): the
 * event's control value carries reset_occ_cnt, so every enable resets it.
 * Codes from the event list (000:2030-2882); 0x2c and 0x2f are the summary
 * table's codes where the detail pages differ (digest, Appendix B #9).
 */
static bool nhmex_sbox_occupancy(u32 ev)
{
	switch (ev) {
	case 0x07: case 0x0a: case 0x0d: case 0x10: case 0x13: case 0x16:
	case 0x26: case 0x29: case 0x2c: case 0x2f: case 0x31:
		return true;
	}
	return false;
}

/*
 * DRS, NCB and NCS CYCLES_FULL with more than one C-box selected are
 * undefined (000:2626-2627, 2726-2727, 2779-2780): refused.
 */
static bool nhmex_sbox_one_cbox(u32 ev)
{
	return ev == 0x0e || ev == 0x11 || ev == 0x14;
}

static int nhmex_sbox_hw_config(const struct uncore_type *type,
				struct perf_event *event,
				struct uncore_event *ue)
{
	u64 config = event->attr.config;
	u32 ev = FIELD_GET(NHMEX_CTL_EVENT, config);
	struct uncore_aux_alt *alt;

	if (ev != NHMEX_S_EV_PROG) {
		if (event->attr.config1 || event->attr.config2)
			return -EINVAL;
		if (nhmex_sbox_one_cbox(ev) &&
		    hweight8(FIELD_GET(NHMEX_CTL_UMASK, config)) > 1)
			return -EINVAL;
		if (nhmex_sbox_occupancy(ev))
			ue->aux.ctl |= NHMEX_S_RESET_OCC;
		return 0;
	}
	/*
	 * The one event the match applies to (000:1720-1722). MATCH's layout
	 * is not in the seed: its 64 bits go as given; MASK's are known.
	 */
	if (event->attr.config2 & ~NHMEX_S_MASK_VALID)
		return -EINVAL;
	alt = uncore_aux_request(&ue->aux, 0, BIT(0));
	alt->val[0] = NHMEX_S_MM_CFG_EN;
	alt->val[1] = event->attr.config1;
	alt->val[2] = event->attr.config2;
	return 0;
}

/*
 * The protocol of 000:1900-1908: MM_CFG[63] clear before MATCH and MASK
 * are written (a write while it is set raises #GP), set once they hold
 * the new values. The box's other events ignore the match (000:1906).
 */
static void nhmex_sbox_write_aux(struct uncore_box *box, int slot,
				 const u64 *val, u32 regs)
{
	u32 msr = NHMEX_S_MM_CFG0 + box->pmu->idx * NHMEX_S_MM_STRIDE;

	uncore_msr_write(box, msr, 0);
	if (regs & BIT(1))
		uncore_msr_write(box, msr + 1, val[1]);
	if (regs & BIT(2))
		uncore_msr_write(box, msr + 2, val[2]);
	if (val[0])
		uncore_msr_write(box, msr, val[0]);
}

/* MM_CFG, MATCH, MASK: one field, taken whole. */
static const struct uncore_aux_slot nhmex_sbox_aux[] = {
	{ .nregs = 3, .nfields = 1,
	  .field = { { NHMEX_S_MM_CFG_EN, ~0ULL, NHMEX_S_MASK_VALID } } },
};

const struct uncore_type nhmex_sbox = {
	.name		= "sbox",
	.num_boxes	= 2,
	.num_counters	= 4,
	.ctr_bits	= 48,
	.clock_hz	= NHMEX_UCLK_MAX_HZ,
	.box_ctl	= NHMEX_S0_BASE,
	.box_status	= NHMEX_S0_BASE + NHMEX_BOX_STATUS,
	.box_ovf_ctl	= NHMEX_S0_BASE + NHMEX_BOX_OVF_CTL,
	.box_ctl_run	= GENMASK_ULL(3, 0),
	.event_ctl	= NHMEX_S0_BASE + NHMEX_BOX_CTL0,
	.perf_ctr	= NHMEX_S0_BASE + NHMEX_BOX_CTR0,
	.msr_ctl_stride	= 2,
	.msr_ctr_stride	= 2,
	.max_inc	= 64,			/* 000:1709-1722 */
	.ctl		= &nhmex_ctl,
	.config_mask	= NHMEX_CTL_COMMON,
	.config1_mask	= ~0ULL,
	.config2_mask	= ~0ULL,
	.box_stride	= NHMEX_S_STRIDE,
	.num_aux	= ARRAY_SIZE(nhmex_sbox_aux),
	.aux		= nhmex_sbox_aux,
	.pmi_mask	= nhmex_sbox_pmi,
	.write_aux	= nhmex_sbox_write_aux,
	.ops		= &nhmex_ops,
	.constraints	= nhmex_sbox_constraints,
	.formats	= nhmex_sbox_formats,
	.events		= nhmex_sbox_events,
	.hw_config	= nhmex_sbox_hw_config,
};

/* ---- M-box [EXT: the seed has no M-box chapter] ------------------------- */

/*
 * CNT_CTL and the sub-control registers are Linux's layout (digest A.1):
 * inc_sel picks an event that counts, or with flag_mode set_flag_sel one
 * whose flag is counted. The sub-controls' own layouts were not recovered,
 * except ZDP_CTL_FVC's split into shared bits and one 3-bit field per
 * event 0xd-0x10: their values go as the user gives them.
 */
#define NHMEX_M_COUNT_MODE	GENMASK_ULL(3, 2)
#define NHMEX_M_STORAGE_MODE	GENMASK_ULL(5, 4)
#define NHMEX_M_WRAP_MODE	BIT_ULL(6)
#define NHMEX_M_FLAG_MODE	BIT_ULL(7)
#define NHMEX_M_INC_SEL		GENMASK_ULL(13, 9)
#define NHMEX_M_SET_FLAG_SEL	GENMASK_ULL(21, 19)
#define NHMEX_M_ZDP_SHARED	(GENMASK_ULL(10, 0) | BIT_ULL(23))
#define NHMEX_M_ZDP_EVENT(n)	(GENMASK_ULL(13, 11) << (3 * (n)))
#define NHMEX_M_INC_FVC0	0x0d	/* inc_sel 0xd-0x10: FVC field 0-3 */
#define NHMEX_M_MM_CFG0		0xe54	/* M1: 0xe5c */
#define NHMEX_M_MM_STRIDE	8
#define NHMEX_M_MM_CFG_EN	BIT_ULL(63)
#define NHMEX_M_ADDR_MATCH	GENMASK_ULL(33, 0)
#define NHMEX_M_ADDR_MASK	GENMASK_ULL(26, 0)
/* config2, mainline's filter_match, filter_mask and filter_cfg_en */
#define NHMEX_M_F_MATCH		GENMASK_ULL(33, 0)
#define NHMEX_M_F_MASK		GENMASK_ULL(61, 34)
#define NHMEX_M_F_EN		BIT_ULL(63)

/* Slots: the sub-controls at base + 5 + slot, then the address match. */
enum {
	NHMEX_M_DSP,
	NHMEX_M_ISS,
	NHMEX_M_MAP,
	NHMEX_M_THR,		/* MSC_THR */
	NHMEX_M_PGT,
	NHMEX_M_PLD,
	NHMEX_M_ZDP,		/* ZDP_CTL_FVC */
	NHMEX_M_ADDR,		/* MM_CFG, ADDR_MATCH, ADDR_MASK */
	NHMEX_M_NONE = 0xff,
};

static const struct uncore_format_desc nhmex_mbox_formats[] = {
	{ "count_mode",		"config:2-3" },
	{ "storage_mode",	"config:4-5" },
	{ "wrap_mode",		"config:6" },
	{ "flag_mode",		"config:7" },
	{ "inc_sel",		"config:9-13" },
	{ "set_flag_sel",	"config:19-21" },
	{ "filter_cfg_en",	"config2:63" },
	{ "filter_match",	"config2:0-33" },
	{ "filter_mask",	"config2:34-61" },
	{ "dsp",		"config1:0-31" },
	{ "thr",		"config1:0-31" },
	{ "fvc",		"config1:0-31" },
	{ "pgt",		"config1:0-31" },
	{ "map",		"config1:0-31" },
	{ "iss",		"config1:0-31" },
	{ "pld",		"config1:32-63" },
	{ }
};

/*
 * The sub-controls an event reads [EXT: Linux's table, digest A.1]: the
 * first takes config1[31:0], the second config1[63:32].
 */
static void nhmex_mbox_subregs(bool flag, u32 sel, u8 *reg)
{
	reg[0] = NHMEX_M_NONE;
	reg[1] = NHMEX_M_NONE;
	if (flag) {
		static const u8 by_flag[8] = {
			[0] = NHMEX_M_DSP, [1] = NHMEX_M_ISS,
			[2 ... 4] = NHMEX_M_NONE, [5] = NHMEX_M_PGT,
			[6] = NHMEX_M_MAP, [7] = NHMEX_M_NONE,
		};

		reg[0] = by_flag[sel];
		return;
	}
	switch (sel) {
	case 0x00:
		reg[0] = NHMEX_M_DSP;
		break;
	case 0x04: case 0x05:
		reg[0] = NHMEX_M_THR;
		break;
	case 0x09:
		reg[0] = NHMEX_M_ISS;
		break;
	case 0x0a:
		reg[0] = NHMEX_M_ISS;
		reg[1] = NHMEX_M_PLD;
		break;
	case 0x0b:
		/* PLD alone: still config1[63:32], as with ISS (the pld format). */
		reg[1] = NHMEX_M_PLD;
		break;
	case 0x0d ... 0x10:
		reg[0] = NHMEX_M_ZDP;
		break;
	case 0x16:
		reg[0] = NHMEX_M_PGT;
		break;
	}
}

/*
 * Events 0xd-0x10 count the same thing through different FVC fields
 * [EXT]: an event may take any free field, its inc_sel following the
 * field. Its value is given in its own inc_sel's field (mainline's
 * bbox_cmds_read: inc_sel 0xd, fvc 0x2800) and moved with it.
 */
static int nhmex_mbox_fvc(struct uncore_event *ue, u64 config, u64 val)
{
	int own = FIELD_GET(NHMEX_M_INC_SEL, config) - NHMEX_M_INC_FVC0;
	u64 shared = val & NHMEX_M_ZDP_SHARED;
	u64 fv = (val & NHMEX_M_ZDP_EVENT(own)) >> (11 + 3 * own);
	struct uncore_aux_alt *alt;
	int i, n;

	if (val & ~(NHMEX_M_ZDP_SHARED | NHMEX_M_ZDP_EVENT(own)))
		return -EINVAL;
	ue->aux.drop |= NHMEX_M_INC_SEL;
	for (i = 0; i < 4; i++) {
		n = (own + i) % 4;
		alt = i ? uncore_aux_alternative(&ue->aux, NHMEX_M_ZDP,
						 BIT(0) | BIT(1 + n)) :
			  uncore_aux_request(&ue->aux, NHMEX_M_ZDP,
					     BIT(0) | BIT(1 + n));
		alt->val[0] = shared | fv << (11 + 3 * n);
		alt->ctl = FIELD_PREP(NHMEX_M_INC_SEL, NHMEX_M_INC_FVC0 + n);
	}
	return 0;
}

static int nhmex_mbox_hw_config(const struct uncore_type *type,
				struct perf_event *event,
				struct uncore_event *ue)
{
	u64 config = event->attr.config, c1 = event->attr.config1;
	u64 c2 = event->attr.config2;
	bool flag = config & NHMEX_M_FLAG_MODE;
	struct uncore_aux_alt *alt;
	bool pld;
	u8 reg[2];
	u32 sel;
	int i, err;

	/* The selector flag_mode does not use must be 0: it selects nothing. */
	if (config & (flag ? NHMEX_M_INC_SEL : NHMEX_M_SET_FLAG_SEL))
		return -EINVAL;
	sel = flag ? FIELD_GET(NHMEX_M_SET_FLAG_SEL, config) :
		     FIELD_GET(NHMEX_M_INC_SEL, config);
	nhmex_mbox_subregs(flag, sel, reg);
	if ((reg[0] == NHMEX_M_NONE && lower_32_bits(c1)) ||
	    (reg[1] == NHMEX_M_NONE && upper_32_bits(c1)))
		return -EINVAL;
	if (reg[0] == NHMEX_M_ZDP) {
		err = nhmex_mbox_fvc(ue, config, c1);
		if (err)
			return err;
	} else {
		for (i = 0; i < 2; i++) {
			if (reg[i] == NHMEX_M_NONE)
				continue;
			alt = uncore_aux_request(&ue->aux, reg[i], BIT(0));
			alt->val[0] = i ? upper_32_bits(c1) : lower_32_bits(c1);
		}
	}
	/*
	 * Address match serves the PLD events only [EXT: digest A.1]. A PLD
	 * event without one claims it too, disabled: a match another event
	 * left enabled would filter what it counts (uncore_aux_put()).
	 */
	pld = reg[0] == NHMEX_M_PLD || reg[1] == NHMEX_M_PLD;
	if (c2 && (!(c2 & NHMEX_M_F_EN) || !pld))
		return -EINVAL;
	if (!pld)
		return 0;
	alt = uncore_aux_request(&ue->aux, NHMEX_M_ADDR, BIT(0));
	if (!c2)
		return 0;
	alt->val[0] = NHMEX_M_MM_CFG_EN;
	alt->val[1] = FIELD_GET(NHMEX_M_F_MATCH, c2);
	alt->val[2] = FIELD_GET(NHMEX_M_F_MASK, c2);
	return 0;
}

/*
 * Address match: the S-Box's protocol (000:1900-1908), MM_CFG[63] clear
 * while ADDR_MATCH and ADDR_MASK are written, set once they hold. The seed
 * has no M-Box [INF]; mainline clears its MM_CFG first too. MM_CFG holds
 * the enable alone, so whether it was set follows from its new value and
 * whether it changed (@regs bit 0): at box init, where every register
 * "changed" to 0, it is cleared first.
 */
static void nhmex_mbox_write_aux(struct uncore_box *box, int slot,
				 const u64 *val, u32 regs)
{
	u32 msr = NHMEX_M_MM_CFG0 + box->pmu->idx * NHMEX_M_MM_STRIDE;

	if (slot != NHMEX_M_ADDR) {
		uncore_msr_write(box, box->pmu->type->box_ctl + box->msr_base +
				 5 + slot, val[0]);
		return;
	}
	/* Set before: now set and unchanged, or now clear and changed. */
	if (!val[0] != !(regs & BIT(0)))
		uncore_msr_write(box, msr, 0);
	if (regs & BIT(1))
		uncore_msr_write(box, msr + 1, val[1]);
	if (regs & BIT(2))
		uncore_msr_write(box, msr + 2, val[2]);
	if (val[0])
		uncore_msr_write(box, msr, val[0]);
}

#define NHMEX_M_SUBREG	{ .nregs = 1, .nfields = 1, .field = { { U32_MAX } } }

static const struct uncore_aux_slot nhmex_mbox_aux[] = {
	[NHMEX_M_DSP] = NHMEX_M_SUBREG,
	[NHMEX_M_ISS] = NHMEX_M_SUBREG,
	[NHMEX_M_MAP] = NHMEX_M_SUBREG,
	[NHMEX_M_THR] = NHMEX_M_SUBREG,
	[NHMEX_M_PGT] = NHMEX_M_SUBREG,
	[NHMEX_M_PLD] = NHMEX_M_SUBREG,
	[NHMEX_M_ZDP] = {
		.nregs = 1, .nfields = 5,
		.field = { { NHMEX_M_ZDP_SHARED }, { NHMEX_M_ZDP_EVENT(0) },
			   { NHMEX_M_ZDP_EVENT(1) }, { NHMEX_M_ZDP_EVENT(2) },
			   { NHMEX_M_ZDP_EVENT(3) } },
	},
	[NHMEX_M_ADDR] = {
		.nregs = 3, .nfields = 1,
		.field = { { NHMEX_M_MM_CFG_EN, NHMEX_M_ADDR_MATCH,
			     NHMEX_M_ADDR_MASK } },
	},
};

const struct uncore_type nhmex_mbox = {
	.name		= "mbox",
	.num_boxes	= 2,
	.num_counters	= 6,
	.ctr_bits	= 48,
	.clock_hz	= NHMEX_UCLK_MAX_HZ,
	.box_ctl	= NHMEX_M0_BASE,
	.box_status	= NHMEX_M0_BASE + NHMEX_BOX_STATUS,
	.box_ovf_ctl	= NHMEX_M0_BASE + NHMEX_BOX_OVF_CTL,
	.box_ctl_run	= GENMASK_ULL(5, 0),
	.event_ctl	= NHMEX_M0_BASE + NHMEX_BOX_CTL0,
	.perf_ctr	= NHMEX_M0_BASE + NHMEX_BOX_CTR0,
	.msr_ctl_stride	= 2,
	.msr_ctr_stride	= 2,
	/* No increment is known [EXT]: a bound that keeps the poll at 1 h. */
	.max_inc	= 8,
	.ctl		= &nhmex_ctl_m,
	.config_mask	= NHMEX_M_COUNT_MODE | NHMEX_M_STORAGE_MODE |
			  NHMEX_M_WRAP_MODE | NHMEX_M_FLAG_MODE |
			  NHMEX_M_INC_SEL | NHMEX_M_SET_FLAG_SEL,
	.config1_mask	= ~0ULL,
	.config2_mask	= NHMEX_M_F_MATCH | NHMEX_M_F_MASK | NHMEX_M_F_EN,
	.box_stride	= NHMEX_M_STRIDE,
	.num_aux	= ARRAY_SIZE(nhmex_mbox_aux),
	.aux		= nhmex_mbox_aux,
	.pmi_mask	= nhmex_mb_pmi,
	.write_aux	= nhmex_mbox_write_aux,
	.ops		= &nhmex_noreadback_ops,
	.constraints	= nhmex_mbox_constraints,
	.formats	= nhmex_mbox_formats,
	.events		= nhmex_mbox_events,
	.hw_config	= nhmex_mbox_hw_config,
};

/* ---- R-box (2.6) -------------------------------------------------------- */

/*
 * One R-box managed as two halves (000:2963-2979), each a PMU of eight
 * counters: rbox_0 counts ports 0-3, rbox_1 ports 4-7. A counter's ev_sel
 * = 6 * (port mod 4) + k picks a sub-register of a port (Tables 2-45/46):
 * k = 0/1 IPERF_CFG0/1, 2/3 the two fields of QLX_CFG, 4/5 XBR match/mask
 * set 1/2. Each pair is interchangeable (mainline pairs them too): an
 * event that finds its register holding another value takes the other
 * one, its ev_sel's low bit following.
 */
#define NHMEX_R_IPERF0		0xe04	/* + port; IPERF1 at 0xe24 + port */
#define NHMEX_R_IPERF1		0xe24
#define NHMEX_R_QLX_L		0xe0c	/* ports 0-3; 4-7 at 0xe2c */
#define NHMEX_R_QLX_R		0xe2c
#define NHMEX_R_XBR1_L		0xe60	/* + 4 port: MM_CFG, MATCH, MASK */
#define NHMEX_R_XBR2_L		0xe70
#define NHMEX_R_XBR1_R		0xe80
#define NHMEX_R_XBR2_R		0xe90
#define NHMEX_R_EV_ILLEGAL	0x18	/* 0x18-0x1f (000:3269-3271) */
#define NHMEX_R_PAIR		BIT_ULL(1)	/* ev_sel bit 0 */
/* IPERF_CFG: 23:22 ignored (000:3326-3380); QLX: two 8-bit fields [EXT] */
#define NHMEX_R_IPERF_VALID	(GENMASK_ULL(31, 24) | GENMASK_ULL(21, 0))
#define NHMEX_R_QLX_FIELD(j)	(GENMASK_ULL(7, 0) << (8 * (j)))
/* XBR MM_CFG (Table 2-50): 21:0 in use, 62:22 ignored, dis 63 kept 0 */
#define NHMEX_R_MM_CFG		GENMASK_ULL(63, 32)	/* config: MM_CFG 31:0 */
#define NHMEX_R_MM_CFG_VALID	GENMASK_ULL(21, 0)
#define NHMEX_R_MM_TRIG_EN	BIT_ULL(21)
/* XBR MATCH/MASK fields (000:3457-3472): RDS, RNID, DNID, MC, OPC, VNW */
#define NHMEX_R_XBR_VALID	(GENMASK_ULL(51, 48) | GENMASK_ULL(35, 31) | \
				 GENMASK_ULL(17, 3))

/* Slots of a half: 0/1 IPERF0/1 of its 4 ports, 2/3 QLX, 4-11 XBR sets. */
#define NHMEX_R_SLOT_QLX	2
#define NHMEX_R_SLOT_XBR	4

static const struct uncore_format_desc nhmex_rbox_formats[] = {
	{ "event",	"config:1-5" },
	{ "xbr_mm_cfg",	"config:32-63" },
	{ "xbr_match",	"config1:0-63" },
	{ "xbr_mask",	"config2:0-63" },
	{ "qlx_cfg",	"config1:0-15" },
	{ "iperf_cfg",	"config1:0-31" },
	{ }
};

/* The pair of @k's alternatives: @k's own sub-register, then its twin. */
static void nhmex_rbox_pair(struct uncore_event *ue, int k, int slot0,
			    int slot1, u32 f0, u32 f1, int reg, u64 v0,
			    u64 v1)
{
	struct uncore_aux_alt *alt;

	alt = uncore_aux_request(&ue->aux, slot0, f0);
	alt->val[reg] = v0;
	alt->ctl = k & 1 ? NHMEX_R_PAIR : 0;
	alt = uncore_aux_alternative(&ue->aux, slot1, f1);
	alt->val[reg] = v1;
	alt->ctl = k & 1 ? 0 : NHMEX_R_PAIR;
}

static int nhmex_rbox_hw_config(const struct uncore_type *type,
				struct perf_event *event,
				struct uncore_event *ue)
{
	u64 config = event->attr.config, c1 = event->attr.config1;
	u64 c2 = event->attr.config2, mm = config >> 32;
	u32 ev = FIELD_GET(NHMEX_EVENT5, config);
	int port = ev / 6, k = ev % 6, j, slot, set;
	u64 v;

	if (ev >= NHMEX_R_EV_ILLEGAL)
		return -EINVAL;
	ue->aux.drop = NHMEX_R_PAIR | NHMEX_R_MM_CFG;
	switch (k) {
	case 0:
	case 1:
		/* An IPERF value of 0 selects nothing: refused, not counted 0. */
		if (mm || c2 || !c1 || (c1 & ~NHMEX_R_IPERF_VALID))
			return -EINVAL;
		nhmex_rbox_pair(ue, k, k, k ^ 1, BIT(port), BIT(port), port,
				c1, c1);
		return 0;
	case 2:
	case 3:
		j = k - 2;
		if (mm || c2 || (c1 & ~NHMEX_R_QLX_FIELD(j)))
			return -EINVAL;
		v = c1 >> (8 * j);
		slot = NHMEX_R_SLOT_QLX + port / 2;
		nhmex_rbox_pair(ue, k, slot, slot, BIT(2 * (port % 2) + j),
				BIT(2 * (port % 2) + (j ^ 1)), port % 2,
				v << (8 * j), v << (8 * (j ^ 1)));
		return 0;
	}
	/*
	 * Match/mask needs mm_trig_en (000:3427-3436); without it the event
	 * counts nothing, which is refused rather than reported as 0.
	 */
	if ((mm & ~NHMEX_R_MM_CFG_VALID) || !(mm & NHMEX_R_MM_TRIG_EN) ||
	    ((c1 | c2) & ~NHMEX_R_XBR_VALID))
		return -EINVAL;
	set = k - 4;
	nhmex_rbox_pair(ue, k, NHMEX_R_SLOT_XBR + 4 * set + port,
			NHMEX_R_SLOT_XBR + 4 * (set ^ 1) + port, BIT(0),
			BIT(0), 0, mm, mm);
	/* Both alternatives carry the same MATCH and MASK. */
	for (j = 0; j < 2; j++) {
		ue->aux.req[0].alt[j].val[1] = c1;
		ue->aux.req[0].alt[j].val[2] = c2;
	}
	return 0;
}

/*
 * The sub-registers are the R-box's, addressed by port (Table 2-39); a
 * half's slots name its own four ports. XBR sets are written in the
 * guide's order, MM_CFG first (000:3427-3436).
 */
static void nhmex_rbox_write_aux(struct uncore_box *box, int slot,
				 const u64 *val, u32 regs)
{
	int half = box->pmu->idx, r;
	u32 msr;

	for (r = 0; r < UNCORE_AUX_REGS; r++) {
		if (!(regs & BIT(r)))
			continue;
		if (slot < NHMEX_R_SLOT_QLX) {
			msr = (slot ? NHMEX_R_IPERF1 : NHMEX_R_IPERF0) +
			      4 * half + r;
		} else if (slot < NHMEX_R_SLOT_XBR) {
			msr = (half ? NHMEX_R_QLX_R : NHMEX_R_QLX_L) +
			      2 * (slot - NHMEX_R_SLOT_QLX) + r;
		} else {
			int set = (slot - NHMEX_R_SLOT_XBR) / 4;
			int port = (slot - NHMEX_R_SLOT_XBR) % 4;

			msr = (half ? (set ? NHMEX_R_XBR2_R : NHMEX_R_XBR1_R) :
				      (set ? NHMEX_R_XBR2_L : NHMEX_R_XBR1_L)) +
			      4 * port + r;
		}
		uncore_msr_write(box, msr, val[r]);
	}
}

#define NHMEX_R_IPERF_SLOT {						\
	.nregs = 4, .nfields = 4,					\
	.field = { { NHMEX_R_IPERF_VALID }, { 0, NHMEX_R_IPERF_VALID },	\
		   { 0, 0, NHMEX_R_IPERF_VALID },			\
		   { 0, 0, 0, NHMEX_R_IPERF_VALID } },			\
}

#define NHMEX_R_QLX_SLOT {						\
	.nregs = 2, .nfields = 4,					\
	.field = { { NHMEX_R_QLX_FIELD(0) }, { NHMEX_R_QLX_FIELD(1) },	\
		   { 0, NHMEX_R_QLX_FIELD(0) },				\
		   { 0, NHMEX_R_QLX_FIELD(1) } },			\
}

#define NHMEX_R_XBR_SLOT {						\
	.nregs = 3, .nfields = 1,					\
	.field = { { NHMEX_R_MM_CFG_VALID, NHMEX_R_XBR_VALID,		\
		     NHMEX_R_XBR_VALID } },				\
}

static const struct uncore_aux_slot nhmex_rbox_aux[] = {
	NHMEX_R_IPERF_SLOT, NHMEX_R_IPERF_SLOT,
	NHMEX_R_QLX_SLOT, NHMEX_R_QLX_SLOT,
	NHMEX_R_XBR_SLOT, NHMEX_R_XBR_SLOT, NHMEX_R_XBR_SLOT, NHMEX_R_XBR_SLOT,
	NHMEX_R_XBR_SLOT, NHMEX_R_XBR_SLOT, NHMEX_R_XBR_SLOT, NHMEX_R_XBR_SLOT,
};

const struct uncore_type nhmex_rbox = {
	.name		= "rbox",
	.num_boxes	= 2,
	.num_counters	= 8,
	.ctr_bits	= 48,
	.clock_hz	= NHMEX_UCLK_MAX_HZ,
	.box_ctl	= NHMEX_R0_BASE,
	.box_status	= NHMEX_R0_BASE + NHMEX_BOX_STATUS,
	.box_ovf_ctl	= NHMEX_R0_BASE + NHMEX_BOX_OVF_CTL,
	.box_ctl_run	= GENMASK_ULL(7, 0),
	.event_ctl	= NHMEX_R0_BASE + NHMEX_BOX_CTL0,
	.perf_ctr	= NHMEX_R0_BASE + NHMEX_BOX_CTR0,
	.msr_ctl_stride	= 2,
	.msr_ctr_stride	= 2,
	/* Flits and arbitration events: at most one per port per clock [INF]. */
	.max_inc	= 1,
	.ctl		= &nhmex_ctl_r,
	.config_mask	= NHMEX_EVENT5 | NHMEX_R_MM_CFG,
	.config1_mask	= ~0ULL,
	.config2_mask	= ~0ULL,
	.box_stride	= NHMEX_R_STRIDE,
	.num_aux	= ARRAY_SIZE(nhmex_rbox_aux),
	.aux		= nhmex_rbox_aux,
	.pmi_mask	= nhmex_rbox_pmi,
	.write_aux	= nhmex_rbox_write_aux,
	.ops		= &nhmex_ops,
	.constraints	= nhmex_rbox_constraints,
	.formats	= nhmex_rbox_formats,
	.events		= nhmex_rbox_events,
	.hw_config	= nhmex_rbox_hw_config,
};

/* ---- W-box [EXT: the seed has one sentence, 000:114] --------------------- */

/*
 * Four general counters with the C-box's control layout and a fixed
 * counter of uncore clocks, selected as mainline does with event 0xff
 * (its clockticks alias). GLOBAL_CTL bit 31 enables the fixed counter and
 * STATUS/OVF_CTL bit 31 is its overflow [EXT: digest A.2].
 */
const struct uncore_type nhmex_wbox = {
	.name		= "wbox",
	.num_boxes	= 1,
	.num_counters	= 4,
	.ctr_bits	= 48,
	.clock_hz	= NHMEX_UCLK_MAX_HZ,
	.box_ctl	= NHMEX_W_BASE,
	.box_status	= NHMEX_W_BASE + NHMEX_BOX_STATUS,
	.box_ovf_ctl	= NHMEX_W_BASE + NHMEX_BOX_OVF_CTL,
	.box_ctl_run	= GENMASK_ULL(3, 0) | NHMEX_W_FIXED_EN,
	.event_ctl	= NHMEX_W_BASE + NHMEX_BOX_CTL0,
	.perf_ctr	= NHMEX_W_BASE + NHMEX_BOX_CTR0,
	.msr_ctl_stride	= 2,
	.msr_ctr_stride	= 2,
	.fixed_ctr_bits	= 48,
	.max_inc	= 1,
	.ctl		= &nhmex_ctl_w,
	.config_mask	= NHMEX_CTL_COMMON,
	.fixed_ctl	= NHMEX_W_FIXED_CTL,
	.fixed_ctr	= NHMEX_W_FIXED_CTR,
	.pmi_mask	= nhmex_wbox_pmi,
	.ops		= &nhmex_noreadback_ops,
	.constraints	= nhmex_wbox_constraints,
	.formats	= nhmex_cbox_formats,
	.events		= nhmex_wbox_events,
};

/* ---- Platform ------------------------------------------------------------ */

static const struct uncore_type * const nhmex_types[] = {
	&nhmex_ubox,
	&nhmex_cbox,
	&nhmex_bbox,
	&nhmex_sbox,
	&nhmex_mbox,
	&nhmex_rbox,
	&nhmex_wbox,
	NULL,
};

/*
 * The PMI goes to the cores set in pmi_core_sel (000:87-93); the core
 * number is taken as Linux's core ID, and a CPU whose core ID is beyond
 * the field cannot take it (its package's events are the timer's).
 */
static u64 nhmex_pmi_route(int cpu)
{
	int core = topology_core_id(cpu);

	if (core < 0 || core >= NHMEX_U_GCTL_CORES)
		return 0;
	return FIELD_PREP(NHMEX_U_GCTL_CORE_SEL, BIT(core));
}

/*
 * In NMI context, on a CPU of the package: U GLOBAL_STATUS, then the
 * SUMMARY of each S-box it names (§2.1.3, 000:129-137). MSRs only.
 */
static int nhmex_pmi_read_status(struct uncore_box *ubox, u64 *status)
{
	u64 gsts, sum;
	int n, err;

	*status = 0;
	err = uncore_msr_read(ubox, NHMEX_U_GLOBAL_STATUS, &gsts);
	if (err)
		return err;
	*status = gsts & (NHMEX_U_GSTS_OV_U | NHMEX_U_GSTS_OV_W);
	for (n = 0; n < 2; n++) {
		if (!(gsts & (n ? NHMEX_U_GSTS_OV_S1 : NHMEX_U_GSTS_OV_S0)))
			continue;
		err = uncore_msr_read(ubox, NHMEX_S0_BASE + n * NHMEX_S_STRIDE +
				      NHMEX_S_SUMMARY, &sum);
		if (err)
			return err;
		*status |= NHMEX_ST(n, sum & NHMEX_SUM_ALL);
	}
	return 0;
}

/*
 * The boxes' OVF_CTL writes cleared their leaves and with them the
 * summaries above (§2.1.4 b, 000:147-152); what is left is U's own: ov_u
 * and the pmi bit. U OVF_CTL is lost from the seed (000:203): write 1 to
 * clear, at STATUS's positions (000:176-177).
 */
static int nhmex_pmi_ack(struct uncore_box *ubox, u64 status)
{
	return uncore_msr_write(ubox, NHMEX_U_GLOBAL_OVF_CTL,
				(status & NHMEX_U_GSTS_OV_U) | NHMEX_U_GSTS_PMI);
}

/*
 * en_all clear stops every counter of the package, as the freeze of an
 * overflow does (000:80-85); the route and frz_all stay, so that an
 * overflow's freeze still on its way lands as it would have.
 */
static int nhmex_pmi_freeze(struct uncore_box *ubox, u64 route)
{
	return uncore_msr_write(ubox, NHMEX_U_GLOBAL_CTL,
				NHMEX_U_GCTL_U_EN | route |
				(route ? NHMEX_U_GCTL_FRZ_ALL : 0));
}

/*
 * §2.1.4 d: en_all set again, rst_all clear, in one write, with the PMI's
 * route and frz_all, so that the next overflow of a pmi_en counter stops
 * the package (000:80-85). Routed nowhere, nothing freezes.
 */
static int nhmex_pmi_unfreeze(struct uncore_box *ubox, u64 route)
{
	return uncore_msr_write(ubox, NHMEX_U_GLOBAL_CTL,
				NHMEX_U_GCTL_EN_ALL | NHMEX_U_GCTL_U_EN | route |
				(route ? NHMEX_U_GCTL_FRZ_ALL : 0));
}

static const struct uncore_pmi nhmex_pmi = {
	.type		= &nhmex_ubox,
	.route		= nhmex_pmi_route,
	.read_status	= nhmex_pmi_read_status,
	.ack		= nhmex_pmi_ack,
	.freeze		= nhmex_pmi_freeze,
	.unfreeze	= nhmex_pmi_unfreeze,
};

/*
 * The package's first CPU online (or module load), on that CPU before its
 * boxes are initialized: reset every counter (rst_all, 000:97-98), then
 * enable globally with rst_all clear in the same write (000:121-123).
 * en_all stays set while the package is online; the U counter's own
 * enable with it. frz_all and the PMI's route come with the first
 * sampling event (nhmex_pmi_unfreeze()).
 */
static void nhmex_pkg_init(int pkg)
{
	struct uncore_box *ubox = uncore_pkg_box(&nhmex_ubox, 0, pkg);

	if (!ubox)
		return;
	uncore_msr_write(ubox, NHMEX_U_GLOBAL_CTL, NHMEX_U_GCTL_RST_ALL);
	uncore_msr_write(ubox, NHMEX_U_GLOBAL_CTL,
			 NHMEX_U_GCTL_EN_ALL | NHMEX_U_GCTL_U_EN);
}

/* Its last CPU going, its events parked elsewhere: nothing counts here. */
static void nhmex_pkg_exit(int pkg)
{
	struct uncore_box *ubox = uncore_pkg_box(&nhmex_ubox, 0, pkg);

	if (ubox)
		uncore_msr_write(ubox, NHMEX_U_GLOBAL_CTL, 0);
}

/* Under QEMU an unknown MSR faults: a CPU without this uncore is refused. */
static int nhmex_probe(void)
{
	u64 val;

	if (uncore_msr_probe(NHMEX_U_GLOBAL_CTL, &val)) {
		pr_info("MSR 0x%x faults: no Xeon 7500 uncore here\n",
			NHMEX_U_GLOBAL_CTL);
		return -ENODEV;
	}
	return 0;
}

const struct uncore_platform nhmex_platform = {
	.id		= "nhmex",
	.name		= "Xeon 7500 (Nehalem-EX)",
	.probe		= nhmex_probe,
	.types		= nhmex_types,
	.pmi		= &nhmex_pmi,
	.pkg_init	= nhmex_pkg_init,
	.pkg_exit	= nhmex_pkg_exit,
};
