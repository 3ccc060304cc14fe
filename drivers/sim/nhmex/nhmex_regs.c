// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_sim: the registers of the Xeon 7500 (Nehalem-EX) uncore PMU (see
 * nhmex.c for the part), as pure functions of a package's state and sim
 * time: no locking, no hardware, no debugfs. KUnit tests them
 * (tests/kunit/nhmex_regs_test.c).
 *
 * (000:N) is line N of the guide's seed; [EXT] a fact from outside it
 * (the digest's Appendix A); [INF] a choice of this model.
 */
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "counter.h"
#include "nhmex.h"
#include "sim.h"

/* U/C/S/W counter control (Tables 2-6, 2-13, 2-30; W [EXT]). */
#define NHMEX_CTL_EV_SEL	GENMASK_ULL(7, 0)
#define NHMEX_CTL_UMASK		GENMASK_ULL(15, 8)
#define NHMEX_CTL_OCC_RST	BIT_ULL(17)	/* S only (000:1863) */
#define NHMEX_S_OCC_MASK	0x7f		/* 7-bit tally (000:1938) */
#define NHMEX_CTL_EDGE		BIT_ULL(18)
#define NHMEX_CTL_PMI_EN	BIT_ULL(20)
#define NHMEX_CTL_EN		BIT_ULL(22)
#define NHMEX_CTL_INVERT	BIT_ULL(23)
#define NHMEX_CTL_THRESH	GENMASK_ULL(31, 24)
#define NHMEX_CTL_CSW		(NHMEX_CTL_EV_SEL | NHMEX_CTL_UMASK | \
				 NHMEX_CTL_EDGE | NHMEX_CTL_PMI_EN | \
				 NHMEX_CTL_EN | NHMEX_CTL_INVERT | \
				 NHMEX_CTL_THRESH)
#define NHMEX_CTL_RSV		GENMASK_ULL(62, 61)

/* B and R counter control (Tables 2-20, 2-44). */
#define NHMEX_BR_EN		BIT_ULL(0)
#define NHMEX_BR_EV_SEL		GENMASK_ULL(5, 1)
#define NHMEX_B_PMI_EN		BIT_ULL(20)
#define NHMEX_R_PMI_EN		BIT_ULL(6)
/* ev_sel = 6 * (port mod 4) + k; 0x18-0x1F select nothing (000:3269-3270) */
#define NHMEX_R_SELS_PER_PORT	6
#define NHMEX_R_EV_ILLEGAL	(NHMEX_R_SELS_PER_PORT * NHMEX_RPORTS_PER_HALF)

/* M counter control [EXT]. */
#define NHMEX_M_EN		BIT_ULL(0)
#define NHMEX_M_PMI_EN		BIT_ULL(1)
#define NHMEX_M_COUNT_MODE	GENMASK_ULL(3, 2)
#define NHMEX_M_STORAGE_MODE	GENMASK_ULL(5, 4)
#define NHMEX_M_WRAP_MODE	BIT_ULL(6)
#define NHMEX_M_FLAG_MODE	BIT_ULL(7)
#define NHMEX_M_INC_SEL		GENMASK_ULL(13, 9)
#define NHMEX_M_SET_FLAG_SEL	GENMASK_ULL(21, 19)
/* inc_sel 0xD + n uses ZDP_CTL_FVC bits (13 + 3n):(11 + 3n), NHM-EX [EXT] */
#define NHMEX_M_FVC_SEL		0xd
#define NHMEX_M_NR_FVC		4
#define NHMEX_M_FVC_SHIFT	11
#define NHMEX_M_FVC_WIDTH	3
#define NHMEX_M_ADDR_MATCH	GENMASK_ULL(33, 0)
#define NHMEX_M_ADDR_MASK	GENMASK_ULL(26, 0)

/* MM_CFG bit 63 enables S and M matching (000:1901-1908; M [EXT]). */
#define NHMEX_MM_CFG_EN		BIT_ULL(63)
/* B MATCH/MASK: fields 59:0, 63:60 not listed (000:1207-1232). */
#define NHMEX_B_MM_VALID	GENMASK_ULL(59, 0)
/* S MASK 62:39 ig (000:1913); MATCH address PA[43:6] in 38:1, hnid 0. */
#define NHMEX_S_MASK_IG		GENMASK_ULL(62, 39)
#define NHMEX_S_ADDR_HNID	GENMASK_ULL(38, 0)

/* R sub-registers (000:3326-3472). IPERF 23:22 and MM_CFG 62:22 are ig. */
#define NHMEX_R_IPERF_VALID	(GENMASK_ULL(31, 24) | GENMASK_ULL(21, 0))
#define NHMEX_R_QLX_VALID	GENMASK_ULL(15, 0)	/* [EXT] */
#define NHMEX_R_QLX_RSV		GENMASK_ULL(31, 16)
#define NHMEX_R_QLX_FIELD	GENMASK(7, 0)
#define NHMEX_R_XBR_DIS		BIT_ULL(63)
#define NHMEX_R_XBR_TRIG_EN	BIT_ULL(21)
#define NHMEX_R_XBR_CFG_VALID	(NHMEX_R_XBR_DIS | GENMASK_ULL(21, 0))
#define NHMEX_R_XBR_MM_RSV	(GENMASK_ULL(63, 52) | GENMASK_ULL(47, 36) | \
				 GENMASK_ULL(30, 18) | GENMASK_ULL(2, 0))

#define NHMEX_U_GCTL_VALID	(NHMEX_U_GCTL_U_EN | NHMEX_U_GCTL_CORE_SEL | \
				 NHMEX_U_GCTL_EN_ALL | NHMEX_U_GCTL_RST_ALL | \
				 NHMEX_U_GCTL_FRZ_ALL)
/* What U OVF_CTL clears; the ov_w/ov_s* summaries are derived. */
#define NHMEX_U_GSTS_LEAVES	(NHMEX_U_GSTS_OV_U | NHMEX_U_GSTS_PMI | \
				 NHMEX_U_GSTS_COND)

/* Instance bases. The C-Boxes are interleaved [EXT] (digest G13). */
static const u32 nhmex_cbox_base[] = {
	0xd00, 0xd80, 0xd40, 0xdc0, 0xd20, 0xda0, 0xd60, 0xde0,
};

static const u32 nhmex_bbox_base[] = { 0xc20, 0xc60 };
/* B has MATCH/MASK only, at +1/+2 of these: 0xe45/0xe46 (000:1100-1105) */
static const u32 nhmex_bbox_mm[] = { 0xe44, 0xe4c };
static const u32 nhmex_sbox_base[] = { 0xc40, 0xcc0 };	/* 000:1744-1774 */
static const u32 nhmex_sbox_mm[] = { 0xe48, 0xe58 };	/* [EXT] */
static const u32 nhmex_mbox_base[] = { 0xca0, 0xce0 };	/* [EXT] */
static const u32 nhmex_mbox_mm[] = { 0xe54, 0xe5c };	/* [EXT] */
static const u32 nhmex_rbox_base[] = { 0xe00, 0xe20 };	/* 000:3114-3157 */
#define NHMEX_MSR_W_BASE	0xc80			/* [EXT] */

static_assert(ARRAY_SIZE(nhmex_cbox_base) == NHMEX_NR_CBOX);
static_assert(ARRAY_SIZE(nhmex_bbox_base) == NHMEX_NR_BBOX);
static_assert(ARRAY_SIZE(nhmex_bbox_mm) == NHMEX_NR_BBOX);
static_assert(ARRAY_SIZE(nhmex_sbox_base) == NHMEX_NR_SBOX);
static_assert(ARRAY_SIZE(nhmex_sbox_mm) == NHMEX_NR_SBOX);
static_assert(ARRAY_SIZE(nhmex_mbox_base) == NHMEX_NR_MBOX);
static_assert(ARRAY_SIZE(nhmex_mbox_mm) == NHMEX_NR_MBOX);
static_assert(ARRAY_SIZE(nhmex_rbox_base) == NHMEX_NR_RHALF);
/* Each S-Box summarises the B, M and R-Box half of its side (000:1782-1802) */
static_assert(NHMEX_NR_BBOX == NHMEX_NR_SBOX && NHMEX_NR_MBOX == NHMEX_NR_SBOX &&
	      NHMEX_NR_RHALF == NHMEX_NR_SBOX);
/* Every kind's counters fit a box's ctr[]. */
#define NHMEX_FITS(n)	(ARRAY_SIZE(((struct nhmex_box *)NULL)->ctr) >= (n))
static_assert(NHMEX_FITS(NHMEX_UBOX_CTRS) && NHMEX_FITS(NHMEX_CBOX_CTRS) &&
	      NHMEX_FITS(NHMEX_BBOX_CTRS) && NHMEX_FITS(NHMEX_SBOX_CTRS) &&
	      NHMEX_FITS(NHMEX_MBOX_CTRS) && NHMEX_FITS(NHMEX_RBOX_CTRS) &&
	      NHMEX_FITS(NHMEX_WBOX_CTRS));
/* An XBR set holds one MM_CFG/MATCH/MASK triple per port of a half. */
static_assert(NHMEX_R_XBR_SET_STRIDE ==
	      NHMEX_R_XBR_PORT_STRIDE * NHMEX_RPORTS_PER_HALF);

static const struct {
	const char *name;
	unsigned int count;
	unsigned int nr_ctrs;
} nhmex_types[NHMEX_NR_BOX_TYPES] = {
	[NHMEX_UBOX] = { "ubox", 1, NHMEX_UBOX_CTRS },
	[NHMEX_CBOX] = { "cbox", NHMEX_NR_CBOX, NHMEX_CBOX_CTRS },
	[NHMEX_BBOX] = { "bbox", NHMEX_NR_BBOX, NHMEX_BBOX_CTRS },
	[NHMEX_SBOX] = { "sbox", NHMEX_NR_SBOX, NHMEX_SBOX_CTRS },
	[NHMEX_MBOX] = { "mbox", NHMEX_NR_MBOX, NHMEX_MBOX_CTRS },
	[NHMEX_RBOX] = { "rbox", NHMEX_NR_RHALF, NHMEX_RBOX_CTRS },
	[NHMEX_WBOX] = { "wbox", 1, NHMEX_WBOX_CTRS },
};

/*
 * Per box kind, the counter control: bits kept, reserved bits (a write
 * setting one is counted; they are dropped like the ignored rest), and
 * where en, pmi_en and ev_sel are (digest G2).
 */
static const struct nhmex_ctl_layout {
	u64 valid;
	u64 rsv;
	u64 en;
	u64 pmi_en;
	u64 ev_sel;
} nhmex_ctl_layouts[NHMEX_NR_BOX_TYPES] = {
	/* Table 2-6 (000:218-239): no umask, threshold or invert. */
	[NHMEX_UBOX] = {
		.valid = NHMEX_CTL_EV_SEL | NHMEX_CTL_EDGE | NHMEX_CTL_PMI_EN |
			 NHMEX_CTL_EN,
		.rsv = BIT_ULL(62),
		.en = NHMEX_CTL_EN, .pmi_en = NHMEX_CTL_PMI_EN,
		.ev_sel = NHMEX_CTL_EV_SEL,
	},
	/* Table 2-13: 49:32 is not listed, so written 0 (000:474-475). */
	[NHMEX_CBOX] = {
		.valid = NHMEX_CTL_CSW,
		.rsv = NHMEX_CTL_RSV | GENMASK_ULL(49, 32),
		.en = NHMEX_CTL_EN, .pmi_en = NHMEX_CTL_PMI_EN,
		.ev_sel = NHMEX_CTL_EV_SEL,
	},
	[NHMEX_BBOX] = {	/* Table 2-20; rsv 50 overlaps ig (000:1165) */
		.valid = NHMEX_BR_EN | NHMEX_BR_EV_SEL | NHMEX_B_PMI_EN,
		.rsv = NHMEX_CTL_RSV | BIT_ULL(50),
		.en = NHMEX_BR_EN, .pmi_en = NHMEX_B_PMI_EN,
		.ev_sel = NHMEX_BR_EV_SEL,
	},
	[NHMEX_SBOX] = {	/* Table 2-30 (000:1851-1874) */
		.valid = NHMEX_CTL_CSW | NHMEX_CTL_OCC_RST,
		.rsv = NHMEX_CTL_RSV,
		.en = NHMEX_CTL_EN, .pmi_en = NHMEX_CTL_PMI_EN,
		.ev_sel = NHMEX_CTL_EV_SEL,
	},
	[NHMEX_MBOX] = {	/* [EXT]: no reserved bits known */
		.valid = NHMEX_M_EN | NHMEX_M_PMI_EN | NHMEX_M_COUNT_MODE |
			 NHMEX_M_STORAGE_MODE | NHMEX_M_WRAP_MODE |
			 NHMEX_M_FLAG_MODE | NHMEX_M_INC_SEL |
			 NHMEX_M_SET_FLAG_SEL,
		.en = NHMEX_M_EN, .pmi_en = NHMEX_M_PMI_EN,
		.ev_sel = NHMEX_M_INC_SEL,
	},
	[NHMEX_RBOX] = {	/* Table 2-44 (000:3217-3240) */
		.valid = NHMEX_BR_EN | NHMEX_BR_EV_SEL | NHMEX_R_PMI_EN,
		.rsv = NHMEX_CTL_RSV,
		.en = NHMEX_BR_EN, .pmi_en = NHMEX_R_PMI_EN,
		.ev_sel = NHMEX_BR_EV_SEL,
	},
	[NHMEX_WBOX] = {	/* [EXT]: as C, and rsv 50 */
		.valid = NHMEX_CTL_CSW,
		.rsv = NHMEX_CTL_RSV | BIT_ULL(50),
		.en = NHMEX_CTL_EN, .pmi_en = NHMEX_CTL_PMI_EN,
		.ev_sel = NHMEX_CTL_EV_SEL,
	},
};

/* B-Box events that need the box's MATCH/MASK, per counter (000:1197-1200) */
static const u32 nhmex_b_match_events[NHMEX_BBOX_CTRS] = {
	GENMASK(3, 1), GENMASK(6, 1), BIT(4), 0,
};

/* U GLOBAL_STATUS bit summarising each S-Box (Table 2-3). */
static const u32 nhmex_u_ov_s[NHMEX_NR_SBOX] = {
	NHMEX_U_GSTS_OV_S0, NHMEX_U_GSTS_OV_S1,
};

/* What an MSR is, once decoded. */
enum nhmex_reg {
	NHMEX_REG_NONE,
	NHMEX_REG_GCTL,
	NHMEX_REG_GSTATUS,
	NHMEX_REG_OVF,
	NHMEX_REG_SUMMARY,
	NHMEX_REG_CTL,
	NHMEX_REG_CTR,
	NHMEX_REG_MSUB,
	NHMEX_REG_MM,
	NHMEX_REG_IPERF,
	NHMEX_REG_QLX,
	NHMEX_REG_XBR,
	NHMEX_REG_FIXED_CTR,
	NHMEX_REG_FIXED_CTL,
};

/*
 * @n: counter, sub-control, enum nhmex_mm index; @set: IPERF_CFG0/1 or
 * XBR set 1/2 (0/1).
 */
struct nhmex_loc {
	enum nhmex_reg reg;
	struct nhmex_box *box;
	struct nhmex_rport *port;
	unsigned int n;
	unsigned int set;
};

static u64 nhmex_field(u64 v, u64 mask)
{
	return (v & mask) >> __ffs64(mask);
}

static u64 nhmex_mul(u64 a, u64 b)
{
	u64 r;

	return check_mul_overflow(a, b, &r) ? U64_MAX : r;
}

static u64 nhmex_ticks(u64 t, u64 hz)
{
	return mul_u64_u64_div_u64(min(t, SIM_TIME_MAX_NS), hz, NSEC_PER_SEC);
}

/**
 * nhmex_box_count() - instances of a kind of box
 * @type: the kind
 *
 * Return: how many the part has; 0 if @type is no kind.
 */
unsigned int nhmex_box_count(enum nhmex_box_type type)
{
	return type < NHMEX_NR_BOX_TYPES ? nhmex_types[type].count : 0;
}

/**
 * nhmex_box_nr_ctrs() - general counters of a kind of box
 * @type: the kind
 *
 * Return: how many each box of the kind has; 0 if @type is no kind.
 */
unsigned int nhmex_box_nr_ctrs(enum nhmex_box_type type)
{
	return type < NHMEX_NR_BOX_TYPES ? nhmex_types[type].nr_ctrs : 0;
}

/**
 * nhmex_ctl_en_bits() - where a kind of box's counter controls hold en
 * @type: kind of box
 * @pmi_en: set to the pmi_en bit
 *
 * Return: the en bit.
 */
u64 nhmex_ctl_en_bits(enum nhmex_box_type type, u64 *pmi_en)
{
	*pmi_en = nhmex_ctl_layouts[type].pmi_en;
	return nhmex_ctl_layouts[type].en;
}

/**
 * nhmex_box_name() - the name of a kind of box
 * @type: the kind
 *
 * Return: its name in debugfs; "?" if @type is no kind.
 */
const char *nhmex_box_name(enum nhmex_box_type type)
{
	return type < NHMEX_NR_BOX_TYPES ? nhmex_types[type].name : "?";
}

/**
 * nhmex_box() - a box of a package
 * @p: package state
 * @type: the box's kind
 * @idx: its instance
 *
 * Return: box @idx of kind @type, or NULL if there is no such box.
 */
struct nhmex_box *nhmex_box(struct nhmex_pkg *p, enum nhmex_box_type type,
			    unsigned int idx)
{
	if (idx >= nhmex_box_count(type))
		return NULL;
	switch (type) {
	case NHMEX_UBOX:
		return &p->ubox;
	case NHMEX_CBOX:
		return &p->cbox[idx];
	case NHMEX_BBOX:
		return &p->bbox[idx];
	case NHMEX_SBOX:
		return &p->sbox[idx];
	case NHMEX_MBOX:
		return &p->mbox[idx];
	case NHMEX_RBOX:
		return &p->rbox[idx];
	case NHMEX_WBOX:
		return &p->wbox;
	default:
		return NULL;
	}
}

static void nhmex_box_init(struct nhmex_box *b, enum nhmex_box_type type,
			   unsigned int idx, u32 base, u32 mm_msr)
{
	b->type = type;
	b->idx = idx;
	b->nr_ctrs = nhmex_types[type].nr_ctrs;
	b->base = base;
	b->mm_msr = mm_msr;
}

/**
 * nhmex_pkg_init() - every register at its reset value 0
 * @p: the package
 * @id: its number
 * @uclk_hz: uncore clock (capped at SIM_MAX_CLK_HZ)
 * @now_ns: sim time now; the fixed counter counts from here
 */
void nhmex_pkg_init(struct nhmex_pkg *p, unsigned int id, u64 uclk_hz,
		    u64 now_ns)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->id = id;
	p->uclk_hz = min(uclk_hz, SIM_MAX_CLK_HZ);
	p->now_ns = min(now_ns, SIM_TIME_MAX_NS);
	p->uclk_ticks = nhmex_ticks(p->now_ns, p->uclk_hz);

	nhmex_box_init(&p->ubox, NHMEX_UBOX, 0, NHMEX_MSR_U_BASE, 0);
	for (i = 0; i < NHMEX_NR_CBOX; i++)
		nhmex_box_init(&p->cbox[i], NHMEX_CBOX, i, nhmex_cbox_base[i], 0);
	for (i = 0; i < NHMEX_NR_BBOX; i++)
		nhmex_box_init(&p->bbox[i], NHMEX_BBOX, i, nhmex_bbox_base[i],
			       nhmex_bbox_mm[i]);
	for (i = 0; i < NHMEX_NR_SBOX; i++)
		nhmex_box_init(&p->sbox[i], NHMEX_SBOX, i, nhmex_sbox_base[i],
			       nhmex_sbox_mm[i]);
	for (i = 0; i < NHMEX_NR_MBOX; i++)
		nhmex_box_init(&p->mbox[i], NHMEX_MBOX, i, nhmex_mbox_base[i],
			       nhmex_mbox_mm[i]);
	for (i = 0; i < NHMEX_NR_RHALF; i++)
		nhmex_box_init(&p->rbox[i], NHMEX_RBOX, i, nhmex_rbox_base[i], 0);
	nhmex_box_init(&p->wbox, NHMEX_WBOX, 0, NHMEX_MSR_W_BASE, 0);
}

/* en_all set and rst_all clear: the package may count (000:121-123). */
static bool nhmex_pkg_on(const struct nhmex_pkg *p)
{
	return (p->u_ctl & NHMEX_U_GCTL_EN_ALL) &&
	       !(p->u_ctl & NHMEX_U_GCTL_RST_ALL);
}

static bool nhmex_r_sel_legal(u64 ctl)
{
	return nhmex_field(ctl, NHMEX_BR_EV_SEL) < NHMEX_R_EV_ILLEGAL;
}

/**
 * nhmex_ctr_counting() - does counter @i of @box count now?
 * @p: the package
 * @box: the box
 * @i: counter index
 *
 * The three-level enable (000:95): the control's en, the box's ctr_en
 * bit and en_all, with rst_all clear. The U counter's second level is
 * u_en in U GLOBAL_CTL (000:173); an R counter with an illegal ev_sel
 * never counts.
 *
 * Return: true if it counts.
 */
bool nhmex_ctr_counting(const struct nhmex_pkg *p,
			const struct nhmex_box *box, unsigned int i)
{
	u64 ctl = box->ctr[i].ctl;

	if (!nhmex_pkg_on(p) || !(ctl & nhmex_ctl_layouts[box->type].en))
		return false;
	if (box->type == NHMEX_UBOX)
		return p->u_ctl & NHMEX_U_GCTL_U_EN;
	if (box->type == NHMEX_RBOX && !nhmex_r_sel_legal(ctl))
		return false;
	return box->ctl & BIT(i);
}

/**
 * nhmex_fixed_counting() - does the W-Box fixed counter count
 * @p: package state
 *
 * The W fixed counter: fixed_en, FIXED_CTL.en and the package [EXT].
 *
 * Return: true if it does.
 */
bool nhmex_fixed_counting(const struct nhmex_pkg *p)
{
	return nhmex_pkg_on(p) && (p->wbox.ctl & NHMEX_W_GCTL_FIXED_EN) &&
	       (p->wfixed.ctl & NHMEX_W_FIXED_CTL_EN);
}

/**
 * nhmex_ctr_read() - what a read of a counter returns
 * @p: package state
 * @c: the counter
 *
 * Return: its value; 0 while rst_all holds it [INF].
 */
u64 nhmex_ctr_read(const struct nhmex_pkg *p, const struct nhmex_ctr *c)
{
	return p->u_ctl & NHMEX_U_GCTL_RST_ALL ? 0 : c->val & NHMEX_CTR_MASK;
}

/**
 * nhmex_s_summary() - S_MSR_PMON_SUMMARY of S-Box @s
 * @p: the package
 * @s: S-Box index
 *
 * Derived from the leaves, never stored (000:147-152, Table 2-26): S0 sees
 * C-Box 0/1 (ov_c_l), 2/3 (ov_c_r), B0 and M0, the left R half and
 * itself; S1 the same on the other side.
 *
 * Return: the register.
 */
u32 nhmex_s_summary(const struct nhmex_pkg *p, unsigned int s)
{
	const unsigned int per = NHMEX_NR_CBOX / NHMEX_NR_SBOX;
	u32 sum = 0;
	unsigned int i;

	for (i = 0; i < per; i++)
		if (p->cbox[s * per + i].status)
			sum |= i < per / 2 ? NHMEX_S_SUM_OV_C_L :
					     NHMEX_S_SUM_OV_C_R;
	if (p->bbox[s].status || p->mbox[s].status)
		sum |= NHMEX_S_SUM_OV_MB;
	if (p->sbox[s].status)
		sum |= NHMEX_S_SUM_OV_S;
	if (p->rbox[s].status)
		sum |= NHMEX_S_SUM_OV_R;
	return sum;
}

/**
 * nhmex_u_status() - what a read of U GLOBAL_STATUS returns
 * @p: package state
 *
 * Return: its leaves and the summaries of W, S0 and S1.
 */
u32 nhmex_u_status(const struct nhmex_pkg *p)
{
	u32 st = p->u_status;
	unsigned int s;

	if (p->wbox.status)
		st |= NHMEX_U_GSTS_OV_W;
	for (s = 0; s < NHMEX_NR_SBOX; s++)
		if (nhmex_s_summary(p, s))
			st |= nhmex_u_ov_s[s];
	return st;
}

/*
 * The pending freeze takes effect (000:80-85): en_all is cleared, so
 * nothing counts until software sets it again, and the PMI asked for by
 * the overflows that joined the freeze is owed, to the cores of all of
 * them (merged with one still owed). Their pmi_core_sel is taken at each
 * overflow, when the U-Box receives its message [INF].
 */
static void nhmex_freeze(struct nhmex_pkg *p)
{
	p->freeze_pending = false;
	p->u_ctl &= ~NHMEX_U_GCTL_EN_ALL;
	p->frozen = true;
	p->stats.freezes++;
	if (!p->freeze_cores)
		return;
	p->pmi_owed = true;
	p->pmi_cores |= p->freeze_cores;
	p->freeze_cores = 0;
}

/*
 * A carry out of bit 47 (000:74-93): the leaf status bit is set whatever
 * pmi_en says. With pmi_en, U pmi is set, and:
 * - with frz_all, a freeze is pending: en_all is cleared freeze_delay_ns
 *   of sim time later, and every counter counts until then, this one
 *   included, from its wrapped value (000:247-251). Overflows meanwhile
 *   join the same freeze (their status bits are set at once). The PMI
 *   comes with the freeze (nhmex_freeze()); with freeze_delay_ns = 0 both
 *   are at once.
 * - without frz_all, the PMI is owed at once, and nothing freezes.
 * pmi_core_sel = 0 asks for no PMI (000:189). Delivery is left to
 * whoever takes the PMI with nhmex_take_pmi().
 */
static void nhmex_overflow(struct nhmex_pkg *p, struct nhmex_box *box,
			   u32 st_bit, bool pmi_en)
{
	u8 cores;

	p->stats.overflows++;
	if (box->type == NHMEX_UBOX)
		p->u_status |= NHMEX_U_GSTS_OV_U;
	else
		box->status |= st_bit;
	if (!pmi_en)
		return;
	p->u_status |= NHMEX_U_GSTS_PMI;
	cores = nhmex_field(p->u_ctl, NHMEX_U_GCTL_CORE_SEL);
	if (cores)
		p->stats.pmis++;
	if (!(p->u_ctl & NHMEX_U_GCTL_FRZ_ALL)) {
		if (cores) {
			p->pmi_owed = true;
			p->pmi_cores |= cores;
		}
		return;
	}
	p->freeze_cores |= cores;
	if (!p->freeze_pending) {
		p->freeze_pending = true;
		p->freeze_at = min(p->now_ns + p->freeze_delay_ns,
				   SIM_TIME_MAX_NS);
	}
	/* No skew: frozen at the overflow, as the line that caused it ends. */
	if (p->freeze_at <= p->now_ns)
		nhmex_freeze(p);
}

/**
 * nhmex_freeze_now() - the pending freeze, if any, takes effect now
 * @p: the package
 *
 * For the PMI timer while the sim clock is frozen: sim time then never
 * reaches freeze_at, and only the timer can apply the freeze.
 */
void nhmex_freeze_now(struct nhmex_pkg *p)
{
	if (p->freeze_pending)
		nhmex_freeze(p);
}

/**
 * nhmex_take_pmi() - hand an owed PMI to delivery
 * @p: the package
 * @cores: the pmi_core_sel cores it is owed to, merged over overflows
 *
 * A freeze still pending owes nothing yet: nhmex_advance() to a time at
 * or after freeze_at, or nhmex_freeze_now(), applies it first.
 *
 * Return: true if a PMI was owed; it no longer is.
 */
bool nhmex_take_pmi(struct nhmex_pkg *p, u8 *cores)
{
	if (!p->pmi_owed)
		return false;
	*cores = p->pmi_cores;
	p->pmi_owed = false;
	p->pmi_cores = 0;
	return true;
}

static void nhmex_add(struct nhmex_pkg *p, struct nhmex_box *box,
		      unsigned int i, u64 n)
{
	struct nhmex_ctr *c = &box->ctr[i];

	c->total += n;
	if (sim_counter_add(&c->val, NHMEX_CTR_MASK, n))
		nhmex_overflow(p, box, BIT(i),
			       c->ctl & nhmex_ctl_layouts[box->type].pmi_en);
}

/*
 * The W fixed counter up to @now_ns in one step. Ticks are differences
 * of floor(t * uclk_hz / 1e9) of absolute sim times, so nothing drifts
 * however the accesses are spaced.
 */
static void nhmex_step(struct nhmex_pkg *p, u64 now_ns)
{
	u64 ticks, d;

	if (now_ns <= p->now_ns)
		return;
	ticks = nhmex_ticks(now_ns, p->uclk_hz);
	d = ticks - p->uclk_ticks;
	p->now_ns = now_ns;
	p->uclk_ticks = ticks;
	if (!d || !nhmex_fixed_counting(p))
		return;
	p->wfixed.total += d;
	/* No pmi_en is known for the fixed counter: status only [INF]. */
	if (sim_counter_add(&p->wfixed.val, NHMEX_CTR_MASK, d))
		nhmex_overflow(p, &p->wbox, NHMEX_W_GSTS_OV_FIXED, false);
}

/**
 * nhmex_advance() - bring the package up to sim time @now_ns
 * @p: the package
 * @now_ns: sim time; earlier times than the last are ignored
 *
 * The W fixed counter counts up to @now_ns, and a pending freeze due by
 * then takes effect: the step is split at freeze_at, so the fixed counter
 * counts exactly up to the freeze. Every access calls this first, so what
 * it does at or after freeze_at finds the package frozen.
 */
void nhmex_advance(struct nhmex_pkg *p, u64 now_ns)
{
	now_ns = min(now_ns, SIM_TIME_MAX_NS);
	if (p->freeze_pending && p->freeze_at <= max(now_ns, p->now_ns)) {
		nhmex_step(p, p->freeze_at);
		nhmex_freeze(p);
	}
	nhmex_step(p, now_ns);
}

/* ---- MSR decoding ------------------------------------------------------ */

/* Register at offset @off of @b's block (the digest's section 2). */
static enum nhmex_reg nhmex_box_reg(const struct nhmex_box *b, u32 off,
				    unsigned int *n)
{
	if (off >= NHMEX_BOX_CTL0) {
		off -= NHMEX_BOX_CTL0;
		*n = off / 2;
		if (*n >= b->nr_ctrs)
			return NHMEX_REG_NONE;
		return off % 2 ? NHMEX_REG_CTR : NHMEX_REG_CTL;
	}
	switch (off) {
	case NHMEX_BOX_GLOBAL_CTL:
		return NHMEX_REG_GCTL;
	case NHMEX_BOX_GLOBAL_STATUS:
		return NHMEX_REG_GSTATUS;
	case NHMEX_BOX_OVF_CTL:
		return NHMEX_REG_OVF;
	}
	if (b->type == NHMEX_SBOX && off == NHMEX_S_SUMMARY)
		return NHMEX_REG_SUMMARY;
	if (b->type == NHMEX_MBOX && off >= NHMEX_M_SUB_FIRST &&
	    off < NHMEX_M_SUB_FIRST + NHMEX_M_NR_SUB) {
		*n = off - NHMEX_M_SUB_FIRST;
		return NHMEX_REG_MSUB;
	}
	/* Left block: IPERF_CFG0 of every port; right: IPERF_CFG1. */
	if (b->type == NHMEX_RBOX && off >= NHMEX_R_IPERF_FIRST &&
	    off < NHMEX_R_IPERF_FIRST + NHMEX_NR_RPORTS) {
		*n = off - NHMEX_R_IPERF_FIRST;
		return NHMEX_REG_IPERF;
	}
	if (b->type == NHMEX_RBOX && off >= NHMEX_R_QLX_FIRST &&
	    off < NHMEX_R_QLX_FIRST + NHMEX_RPORTS_PER_HALF) {
		*n = b->idx * NHMEX_RPORTS_PER_HALF + off - NHMEX_R_QLX_FIRST;
		return NHMEX_REG_QLX;
	}
	return NHMEX_REG_NONE;
}

/* XBR set 1 at 0xE60 + 4p (0xE80 for ports 4-7), set 2 0x10 above. */
static bool nhmex_decode_xbr(struct nhmex_pkg *p, u32 msr,
			     struct nhmex_loc *loc)
{
	u32 off = msr - NHMEX_MSR_R_XBR_FIRST;
	unsigned int half, port;

	if (msr < NHMEX_MSR_R_XBR_FIRST ||
	    off >= NHMEX_NR_RHALF * NHMEX_R_XBR_HALF_STRIDE)
		return false;
	half = off / NHMEX_R_XBR_HALF_STRIDE;
	off %= NHMEX_R_XBR_HALF_STRIDE;
	loc->set = off / NHMEX_R_XBR_SET_STRIDE;
	off %= NHMEX_R_XBR_SET_STRIDE;
	port = half * NHMEX_RPORTS_PER_HALF + off / NHMEX_R_XBR_PORT_STRIDE;
	loc->n = off % NHMEX_R_XBR_PORT_STRIDE;
	if (loc->n >= NHMEX_NR_MM)
		return false;
	loc->reg = NHMEX_REG_XBR;
	loc->port = &p->rport[port];
	return true;
}

static bool nhmex_decode(struct nhmex_pkg *p, u32 msr, struct nhmex_loc *loc)
{
	enum nhmex_box_type t;
	unsigned int i;

	memset(loc, 0, sizeof(*loc));
	if (msr == NHMEX_MSR_W_FIXED_CTR || msr == NHMEX_MSR_W_FIXED_CTL) {
		loc->reg = msr == NHMEX_MSR_W_FIXED_CTR ?
			   NHMEX_REG_FIXED_CTR : NHMEX_REG_FIXED_CTL;
		loc->box = &p->wbox;
		return true;
	}
	if (nhmex_decode_xbr(p, msr, loc))
		return true;
	for (t = 0; t < NHMEX_NR_BOX_TYPES; t++) {
		for (i = 0; i < nhmex_box_count(t); i++) {
			struct nhmex_box *b = nhmex_box(p, t, i);

			if (msr >= b->base &&
			    msr < b->base + NHMEX_BOX_CTL0 + 2 * b->nr_ctrs) {
				loc->box = b;
				loc->reg = nhmex_box_reg(b, msr - b->base,
							 &loc->n);
				if (loc->reg == NHMEX_REG_IPERF) {
					loc->port = &p->rport[loc->n];
					loc->set = b->idx;
				} else if (loc->reg == NHMEX_REG_QLX) {
					loc->port = &p->rport[loc->n];
				}
				return loc->reg != NHMEX_REG_NONE;
			}
			if (b->mm_msr && msr >= b->mm_msr &&
			    msr < b->mm_msr + NHMEX_NR_MM) {
				loc->n = msr - b->mm_msr;
				/* The B-Box has MATCH and MASK only. */
				if (t == NHMEX_BBOX && loc->n == NHMEX_MM_CFG)
					return false;
				loc->box = b;
				loc->reg = NHMEX_REG_MM;
				return true;
			}
		}
	}
	return false;
}

/**
 * nhmex_msr_exists() - does the part have an MSR
 * @p: package state
 * @msr: the MSR
 *
 * What exists never changes: no lock needed to ask.
 *
 * Return: true if an access to @msr would not fault.
 */
bool nhmex_msr_exists(struct nhmex_pkg *p, u32 msr)
{
	struct nhmex_loc loc;

	return nhmex_decode(p, msr, &loc);
}

/* ---- Writes and reads -------------------------------------------------- */

static void nhmex_check_rsvd(struct nhmex_pkg *p, u64 val, u64 rsv)
{
	if (val & rsv)
		p->stats.rsvd_writes++;
}

static u32 nhmex_box_bits(const struct nhmex_box *b)
{
	u32 bits = GENMASK(b->nr_ctrs - 1, 0);

	/* fixed_en / ov_fixed / clr_ov_fixed are bit 31 [EXT] */
	if (b->type == NHMEX_WBOX)
		bits |= NHMEX_W_GCTL_FIXED_EN;
	return bits;
}

static void nhmex_ctr_clear(struct nhmex_ctr *c)
{
	c->val = 0;
	c->total = 0;
	c->prev_cond = false;
}

/*
 * rst_all: a write with it set zeroes every counter of the package; while
 * it stays set they read 0 and do not count (digest G9). Writes to the
 * counters meanwhile are kept, so the guide's sequence of preloading
 * before the write of en_all = 1, rst_all = 0 works (000:97-123) [INF].
 *
 * No write cancels a pending freeze, as on Broadwell (where unfrz_all
 * does not): clearing frz_all or en_all, or setting en_all again (the
 * driver's unfreeze), leaves it to clear en_all at freeze_at and owe its
 * PMI then. Setting en_all ends a freeze that took effect (frozen).
 */
static void nhmex_write_u_ctl(struct nhmex_pkg *p, u64 val)
{
	enum nhmex_box_type t;
	unsigned int i, j;

	p->u_ctl = val & NHMEX_U_GCTL_VALID;
	if (val & NHMEX_U_GCTL_EN_ALL)
		p->frozen = false;
	if (!(val & NHMEX_U_GCTL_RST_ALL))
		return;
	for (t = 0; t < NHMEX_NR_BOX_TYPES; t++) {
		for (i = 0; i < nhmex_box_count(t); i++) {
			struct nhmex_box *b = nhmex_box(p, t, i);

			for (j = 0; j < b->nr_ctrs; j++)
				nhmex_ctr_clear(&b->ctr[j]);
		}
	}
	nhmex_ctr_clear(&p->wfixed);
}

static void nhmex_write_ctl(struct nhmex_pkg *p, struct nhmex_box *b,
			    unsigned int n, u64 val)
{
	const struct nhmex_ctl_layout *lay = &nhmex_ctl_layouts[b->type];
	struct nhmex_ctr *c = &b->ctr[n];

	nhmex_check_rsvd(p, val, lay->rsv);
	c->ctl = val & lay->valid;
	c->prev_cond = false;
	if (b->type == NHMEX_RBOX && !nhmex_r_sel_legal(c->ctl))
		p->stats.illegal_sel++;
	/*
	 * Occupancy events want reset_occ_cnt in the write that enables
	 * them (000:1741-1743): it zeroes the counter's tally. Without it
	 * the tally keeps what it held, so the count is off. Record whether
	 * the enabling write had it.
	 */
	if (b->type == NHMEX_SBOX && (c->ctl & NHMEX_CTL_EN)) {
		c->occ_reset = c->ctl & NHMEX_CTL_OCC_RST;
		if (c->occ_reset)
			c->occ = 0;
	}
}

static int nhmex_write_mm(struct nhmex_pkg *p, struct nhmex_box *b,
			  unsigned int n, u64 val)
{
	static const u64 m_valid[NHMEX_NR_MM] = {
		[NHMEX_MM_CFG] = NHMEX_MM_CFG_EN,
		[NHMEX_MM_MATCH] = NHMEX_M_ADDR_MATCH,
		[NHMEX_MM_MASK] = NHMEX_M_ADDR_MASK,
	};
	u64 valid = U64_MAX, rsv = 0;

	/*
	 * #GP while matching is on: the S-Box's rule (000:1902-1903); the
	 * M-Box's [INF]: the seed has no M-Box, and mainline clears its
	 * MM_CFG before it writes MATCH and MASK too (uncore_nhmex.c,
	 * nhmex_mbox_msr_enable_event()).
	 */
	if (b->type != NHMEX_BBOX && n != NHMEX_MM_CFG &&
	    (b->mm[NHMEX_MM_CFG] & NHMEX_MM_CFG_EN)) {
		p->stats.gp_mm++;
		return -EIO;
	}
	switch (b->type) {
	case NHMEX_BBOX:
		valid = NHMEX_B_MM_VALID;
		rsv = ~valid;
		break;
	case NHMEX_SBOX:
		/* MM_CFG's other bits and MATCH's layout are unknown. */
		if (n == NHMEX_MM_MASK)
			valid = ~NHMEX_S_MASK_IG;
		break;
	default:	/* M [EXT] */
		valid = m_valid[n];
		rsv = ~valid;
		break;
	}
	nhmex_check_rsvd(p, val, rsv);
	b->mm[n] = val & valid;
	return 0;
}

static void nhmex_write_xbr(struct nhmex_pkg *p, const struct nhmex_loc *l,
			    u64 val)
{
	u64 valid = NHMEX_R_XBR_CFG_VALID;

	if (l->n != NHMEX_MM_CFG) {
		nhmex_check_rsvd(p, val, NHMEX_R_XBR_MM_RSV);
		valid = ~NHMEX_R_XBR_MM_RSV;
	}
	l->port->xbr[l->set][l->n] = val & valid;
}

/*
 * STATUS and SUMMARY writes are ignored: the guide clears overflow only
 * through OVF_CTL (000:147-152) and does not explain its access column
 * [INF]. OVF_CTL reads 0.
 */
static int nhmex_write(struct nhmex_pkg *p, const struct nhmex_loc *l,
		       u64 val)
{
	struct nhmex_box *b = l->box;

	switch (l->reg) {
	case NHMEX_REG_GCTL:
		if (b->type == NHMEX_UBOX)
			nhmex_write_u_ctl(p, val);
		else
			b->ctl = val & nhmex_box_bits(b);
		break;
	case NHMEX_REG_OVF:
		if (b->type == NHMEX_UBOX)
			p->u_status &= ~(val & NHMEX_U_GSTS_LEAVES);
		else
			b->status &= ~(val & nhmex_box_bits(b));
		break;
	case NHMEX_REG_CTL:
		nhmex_write_ctl(p, b, l->n, val);
		break;
	case NHMEX_REG_CTR:
		if (nhmex_ctr_counting(p, b, l->n))
			p->stats.live_writes++;
		b->ctr[l->n].val = val & NHMEX_CTR_MASK;
		break;
	case NHMEX_REG_MSUB:	/* layouts not recovered [EXT]: all kept */
		b->sub[l->n] = val;
		break;
	case NHMEX_REG_MM:
		return nhmex_write_mm(p, b, l->n, val);
	case NHMEX_REG_IPERF:
		l->port->iperf[l->set] = val & NHMEX_R_IPERF_VALID;
		break;
	case NHMEX_REG_QLX:
		nhmex_check_rsvd(p, val, NHMEX_R_QLX_RSV);
		l->port->qlx = val & NHMEX_R_QLX_VALID;
		break;
	case NHMEX_REG_XBR:
		nhmex_write_xbr(p, l, val);
		break;
	case NHMEX_REG_FIXED_CTR:
		if (nhmex_fixed_counting(p))
			p->stats.live_writes++;
		p->wfixed.val = val & NHMEX_CTR_MASK;
		break;
	case NHMEX_REG_FIXED_CTL:
		p->wfixed.ctl = val & NHMEX_W_FIXED_CTL_EN;
		break;
	default:	/* GSTATUS, SUMMARY */
		break;
	}
	return 0;
}

static u64 nhmex_read(const struct nhmex_pkg *p, const struct nhmex_loc *l)
{
	const struct nhmex_box *b = l->box;

	switch (l->reg) {
	case NHMEX_REG_GCTL:
		return b->type == NHMEX_UBOX ? p->u_ctl : b->ctl;
	case NHMEX_REG_GSTATUS:
		return b->type == NHMEX_UBOX ? nhmex_u_status(p) : b->status;
	case NHMEX_REG_SUMMARY:
		return nhmex_s_summary(p, b->idx);
	case NHMEX_REG_CTL:
		return b->ctr[l->n].ctl;
	case NHMEX_REG_CTR:
		return nhmex_ctr_read(p, &b->ctr[l->n]);
	case NHMEX_REG_MSUB:
		return b->sub[l->n];
	case NHMEX_REG_MM:
		return b->mm[l->n];
	case NHMEX_REG_IPERF:
		return l->port->iperf[l->set];
	case NHMEX_REG_QLX:
		return l->port->qlx;
	case NHMEX_REG_XBR:
		return l->port->xbr[l->set][l->n];
	case NHMEX_REG_FIXED_CTR:
		return nhmex_ctr_read(p, &p->wfixed);
	case NHMEX_REG_FIXED_CTL:
		return p->wfixed.ctl;
	default:	/* OVF_CTL */
		return 0;
	}
}

/**
 * nhmex_reg_access() - an RDMSR or WRMSR of the package's uncore
 * @p: the package
 * @now_ns: sim time of the access; the fixed counter counts up to it by
 *	the old value, after it by a write's new one
 * @msr: the MSR
 * @val: read into, or the value written
 * @write: a write
 *
 * Return: 0, or -EIO where the part would #GP: an MSR it does not have
 * (*@val = 0 for a read), or an S-Box MATCH/MASK write while MM_CFG[63]
 * is 1.
 */
int nhmex_reg_access(struct nhmex_pkg *p, u64 now_ns, u32 msr, u64 *val,
		     bool write)
{
	struct nhmex_loc loc;

	if (write)
		p->stats.writes++;
	else
		p->stats.reads++;
	if (!nhmex_decode(p, msr, &loc)) {
		p->stats.faults++;
		if (!write)
			*val = 0;
		return -EIO;
	}
	nhmex_advance(p, now_ns);
	if (write)
		return nhmex_write(p, &loc, *val);
	*val = nhmex_read(p, &loc);
	return 0;
}

/* ---- Injected occurrences ---------------------------------------------- */

/*
 * C/S/W per-cycle pipeline (000:461-467): with threshold t != 0 a cycle
 * counts 1 if inc >= t (inc < t with invert); with t = 0 it adds inc
 * and invert has no effect [INF]. Edge detect follows and counts the
 * rising edges of the cycle's condition (with t = 0: inc != 0 [INF]); the
 * cycles of a line are alike, so a line has at most one, and the last
 * cycle's condition carries to the counter's next line.
 */
static u64 nhmex_thresh_pipeline(struct nhmex_ctr *c, u64 inc, u64 count)
{
	u64 thresh = nhmex_field(c->ctl, NHMEX_CTL_THRESH);
	bool edge = c->ctl & NHMEX_CTL_EDGE;
	bool cond, rise;

	if (!count)
		return 0;
	if (!thresh && !edge)
		return nhmex_mul(inc, count);
	if (thresh)
		cond = c->ctl & NHMEX_CTL_INVERT ? inc < thresh : inc >= thresh;
	else
		cond = inc != 0;
	if (!edge)
		return cond ? count : 0;
	rise = cond && !c->prev_cond;
	c->prev_cond = cond;
	return rise;
}

static bool nhmex_umask_match(u64 ctl, const struct nhmex_event *ev)
{
	u8 umask = nhmex_field(ctl, NHMEX_CTL_UMASK);

	if (nhmex_field(ctl, NHMEX_CTL_EV_SEL) != ev->event)
		return false;
	return (umask & ev->umask) || (!umask && !ev->umask);
}

/*
 * TO_R_PROG_EV (000:1900-1925): matching on (MM_CFG[63]), PA and hnid
 * equal where MASK is clear, and each non-address field either 0 in
 * MATCH or equal; the layout of bits 63:39 is unknown, so they are one
 * field [INF].
 */
static bool nhmex_s_pkt_match(const struct nhmex_box *b,
			      const struct nhmex_event *ev)
{
	u64 match = b->mm[NHMEX_MM_MATCH], hi = match & ~NHMEX_S_ADDR_HNID;

	if (!ev->has_pkt || !(b->mm[NHMEX_MM_CFG] & NHMEX_MM_CFG_EN))
		return false;
	if ((ev->pkt ^ match) & ~b->mm[NHMEX_MM_MASK] & NHMEX_S_ADDR_HNID)
		return false;
	return !hi || hi == (ev->pkt & ~NHMEX_S_ADDR_HNID);
}

/*
 * The B MASK register's sense is not in the seed: a set bit means
 * "compare" [INF].
 */
static bool nhmex_b_match(const struct nhmex_box *b, unsigned int i,
			  u64 ctl, const struct nhmex_event *ev)
{
	u64 sel = nhmex_field(ctl, NHMEX_BR_EV_SEL);

	if (i != ev->ctr || sel != ev->event)
		return false;
	if (!(nhmex_b_match_events[i] & BIT(sel)))
		return true;
	return ev->has_pkt &&
	       !((ev->pkt ^ b->mm[NHMEX_MM_MATCH]) & b->mm[NHMEX_MM_MASK]);
}

/*
 * M [EXT]: flag_mode picks set_flag_sel over inc_sel; the sub-controls
 * named by the line must hold its values; fvc is the inc_sel's own 3-bit
 * ZDP field. The address match: ADDR_MASK's set bits are don't-care bits
 * of the low 27 address bits [INF].
 */
static bool nhmex_m_match(const struct nhmex_box *b, u64 ctl,
			  const struct nhmex_event *ev)
{
	bool flag = ctl & NHMEX_M_FLAG_MODE;
	u64 sel = flag ? nhmex_field(ctl, NHMEX_M_SET_FLAG_SEL) :
			 nhmex_field(ctl, NHMEX_M_INC_SEL);
	unsigned int j, shift;

	if (flag != ev->flag || sel != ev->sel)
		return false;
	for (j = 0; j < NHMEX_M_NR_SUB; j++)
		if ((ev->subs & BIT(j)) && b->sub[j] != ev->sub[j])
			return false;
	if (ev->has_fvc) {
		if (flag || sel < NHMEX_M_FVC_SEL ||
		    sel >= NHMEX_M_FVC_SEL + NHMEX_M_NR_FVC)
			return false;
		shift = NHMEX_M_FVC_SHIFT +
			NHMEX_M_FVC_WIDTH * (sel - NHMEX_M_FVC_SEL);
		if (((b->sub[NHMEX_M_ZDP] >> shift) &
		     GENMASK(NHMEX_M_FVC_WIDTH - 1, 0)) != ev->fvc)
			return false;
	}
	if (ev->has_addr) {
		if (!(b->mm[NHMEX_MM_CFG] & NHMEX_MM_CFG_EN))
			return false;
		if ((ev->addr ^ b->mm[NHMEX_MM_MATCH]) &
		    ~b->mm[NHMEX_MM_MASK] & NHMEX_M_ADDR_MATCH)
			return false;
	}
	return true;
}

/*
 * R (000:3243-3302): ev_sel = 6 * (port mod 4) + k picks the port of the
 * half and its sub-register. XBR: dis = 0, mm_trig_en = 1 (000:3427-3430),
 * and MASK's set bits compared [INF].
 */
static bool nhmex_r_match(const struct nhmex_pkg *p, const struct nhmex_box *b,
			  u64 ctl, const struct nhmex_event *ev)
{
	unsigned int sel = nhmex_field(ctl, NHMEX_BR_EV_SEL);
	unsigned int k = sel % NHMEX_R_SELS_PER_PORT;
	const struct nhmex_rport *rp;
	const u64 *xbr;

	if (b->idx * NHMEX_RPORTS_PER_HALF + sel / NHMEX_R_SELS_PER_PORT !=
	    ev->port)
		return false;
	rp = &p->rport[ev->port];
	switch (ev->rkind) {
	case NHMEX_R_IPERF:
		return k < 2 && (rp->iperf[k] & ev->rval);
	case NHMEX_R_QLX:
		if (k != 2 && k != 3)
			return false;
		return ((rp->qlx >> (8 * (k - 2))) & NHMEX_R_QLX_FIELD) ==
		       ev->rval;
	case NHMEX_R_XBR:
		if (k != 4 && k != 5)
			return false;
		xbr = rp->xbr[k - 4];
		return !(xbr[NHMEX_MM_CFG] & NHMEX_R_XBR_DIS) &&
		       (xbr[NHMEX_MM_CFG] & NHMEX_R_XBR_TRIG_EN) &&
		       !((ev->rval ^ xbr[NHMEX_MM_MATCH]) & xbr[NHMEX_MM_MASK]);
	}
	return false;
}

static bool nhmex_match(const struct nhmex_pkg *p, const struct nhmex_box *b,
			unsigned int i, const struct nhmex_event *ev)
{
	u64 ctl = b->ctr[i].ctl;

	switch (b->type) {
	case NHMEX_UBOX:
		return nhmex_field(ctl, NHMEX_CTL_EV_SEL) == ev->event;
	case NHMEX_CBOX:
	case NHMEX_WBOX:
		return nhmex_umask_match(ctl, ev);
	case NHMEX_SBOX:
		/* Only event 0 uses the match/mask (000:1720-1722). */
		return nhmex_umask_match(ctl, ev) &&
		       (ev->event || nhmex_s_pkt_match(b, ev));
	case NHMEX_BBOX:
		return nhmex_b_match(b, i, ctl, ev);
	case NHMEX_MBOX:
		return nhmex_m_match(b, ctl, ev);
	case NHMEX_RBOX:
		return nhmex_r_match(p, b, ctl, ev);
	default:
		return false;
	}
}

static void nhmex_count(struct nhmex_pkg *p, struct nhmex_box *b,
			unsigned int i, const struct nhmex_event *ev)
{
	struct nhmex_ctr *c = &b->ctr[i];
	u64 add;

	switch (b->type) {
	case NHMEX_UBOX:
		/* Edge: one 0->1 transition per line (000:216-217) [INF]. */
		if (c->ctl & NHMEX_CTL_EDGE)
			add = ev->count && ev->inc;
		else
			add = nhmex_mul(ev->count, ev->inc);
		break;
	case NHMEX_SBOX:
		/*
		 * The queue moves the tally; each cycle sends the whole tally
		 * to the counter (000:1938-1944).
		 */
		if (ev->occ_line) {
			c->occ = (c->occ + ev->enq - ev->deq) & NHMEX_S_OCC_MASK;
			add = nhmex_thresh_pipeline(c, c->occ, ev->count);
			break;
		}
		fallthrough;
	case NHMEX_CBOX:
	case NHMEX_WBOX:
		add = nhmex_thresh_pipeline(c, ev->inc, ev->count);
		break;
	default:
		add = nhmex_mul(ev->count, ev->inc);
		break;
	}
	if (add)
		nhmex_add(p, b, i, add);
}

/**
 * nhmex_inject() - @ev->count cycles of an event, now
 * @p: the package
 * @now_ns: sim time
 * @ev: the occurrence; for the R-Box @ev->port picks the half
 *
 * Every counting counter of the box that matches counts the whole line:
 * which ones do is decided before any counts, so a freeze on overflow
 * takes effect after the line, even with no skew (freeze_delay_ns = 0).
 *
 * Return: the number of counters that matched, or -EINVAL for no such box.
 */
int nhmex_inject(struct nhmex_pkg *p, u64 now_ns,
		 const struct nhmex_event *ev)
{
	unsigned int idx = ev->idx, i;
	struct nhmex_box *b;
	u32 hits = 0;

	if (ev->type == NHMEX_RBOX) {
		if (ev->port >= NHMEX_NR_RPORTS)
			return -EINVAL;
		idx = ev->port / NHMEX_RPORTS_PER_HALF;
	}
	b = nhmex_box(p, ev->type, idx);
	if (!b)
		return -EINVAL;
	nhmex_advance(p, now_ns);
	p->stats.inject_lines++;
	for (i = 0; i < b->nr_ctrs; i++)
		if (nhmex_ctr_counting(p, b, i) && nhmex_match(p, b, i, ev))
			hits |= BIT(i);
	for (i = 0; i < b->nr_ctrs; i++)
		if (hits & BIT(i))
			nhmex_count(p, b, i, ev);
	p->stats.inject_hits += hweight32(hits);
	if (!hits)
		p->stats.dropped += ev->count;
	return hweight32(hits);
}

/**
 * nhmex_set_counter() - load a counter's 48-bit value, total unchanged
 * @p: the package
 * @now_ns: sim time
 * @type: box kind
 * @idx: box instance (R-Box: the half)
 * @ctr: counter index, or NHMEX_CTR_FIXED for the W-Box fixed counter
 * @value: the value; bits above 47 are dropped
 *
 * Return: 0, or -EINVAL for no such counter.
 */
int nhmex_set_counter(struct nhmex_pkg *p, u64 now_ns,
		      enum nhmex_box_type type, unsigned int idx,
		      unsigned int ctr, u64 value)
{
	struct nhmex_box *b = nhmex_box(p, type, idx);
	struct nhmex_ctr *c;

	if (!b)
		return -EINVAL;
	if (type == NHMEX_WBOX && ctr == NHMEX_CTR_FIXED)
		c = &p->wfixed;
	else if (ctr < b->nr_ctrs)
		c = &b->ctr[ctr];
	else
		return -EINVAL;
	nhmex_advance(p, now_ns);
	c->val = value & NHMEX_CTR_MASK;
	return 0;
}

/**
 * nhmex_reset_stats() - a package's statistics back to 0
 * @p: package state
 */
void nhmex_reset_stats(struct nhmex_pkg *p)
{
	memset(&p->stats, 0, sizeof(p->stats));
}
