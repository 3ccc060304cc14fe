// SPDX-License-Identifier: GPL-2.0
/*
 * Register model of the BDX uncore MSR PMON boxes (UBox, CBo, SBo, PCU) and
 * the counting machinery every box shares; bdx_pci_regs.c adds the PCI
 * boxes' config-space registers.
 *
 * A pure state machine: every entry point takes the package state and the
 * current sim time, and counters are advanced lazily from the time elapsed
 * since the previous access. No hardware, PCI, debugfs or locking here, so
 * the KUnit suite can #include this file.
 */
#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "counter.h"
#include "sim.h"

/* Bits software may set; writing any other bit counts as a violation. */
#define SIM_UBOX_CTL_VALID	(SIM_CTL_EV_SEL | SIM_CTL_UMASK |	\
				 SIM_CTL_RST | SIM_CTL_EDGE |		\
				 SIM_CTL_OV_EN | SIM_CTL_EN |		\
				 SIM_CTL_INVERT | SIM_CTL_THRESH5)
#define SIM_CBO_CTL_VALID	(SIM_CTL_EV_SEL | SIM_CTL_UMASK |	\
				 SIM_CTL_RST | SIM_CTL_EDGE |		\
				 SIM_CTL_TID_EN | SIM_CTL_EN |		\
				 SIM_CTL_INVERT | SIM_CTL_THRESH8)
/* HA, iMC, IRP, R2PCIe, R3QPI (Tables 2-73, 2-115, 2-150, 2-218, 2-234) */
#define SIM_PCI_CTL_VALID	(SIM_CTL_EV_SEL | SIM_CTL_UMASK |	\
				 SIM_CTL_RST | SIM_CTL_EDGE |		\
				 SIM_CTL_OV_EN | SIM_CTL_EN |		\
				 SIM_CTL_INVERT | SIM_CTL_THRESH8)
#define SIM_QPI_CTL_VALID	(SIM_PCI_CTL_VALID | SIM_CTL_EV_SEL_EXT)
#define SIM_PCU_CTL_VALID	(SIM_CTL_EV_SEL | SIM_PCU_CTL_OCC_SEL |	\
				 SIM_CTL_RST | SIM_CTL_EDGE |		\
				 SIM_CTL_OV_EN | SIM_CTL_EV_SEL_EXT |	\
				 SIM_CTL_EN | SIM_CTL_INVERT |		\
				 SIM_CTL_THRESH5 | SIM_PCU_CTL_OCC_INVERT | \
				 SIM_PCU_CTL_OCC_EDGE)
#define SIM_BOX_CTL_VALID	(SIM_BOX_CTL_RST_CTRL | SIM_BOX_CTL_RST_CTRS | \
				 SIM_BOX_CTL_FRZ | SIM_BOX_CTL_MUST1)
#define SIM_GCTL_VALID		(SIM_GCTL_PMI_CORE_SEL | SIM_GCTL_UNFRZ_ALL | \
				 SIM_GCTL_WK_ON_PMI | SIM_GCTL_FRZ_ALL)
#define SIM_GCTL_RW		(SIM_GCTL_PMI_CORE_SEL | SIM_GCTL_WK_ON_PMI)
/* ov_u_fixed, ov_u, ov_p, then the PCI box groups (Table 2-3). */
#define SIM_GSTS_VALID		(GENMASK_ULL(2, 0) | GENMASK_ULL(29, 21) | \
				 GENMASK_ULL(35, 34))
#define SIM_FIXED_CTL_VALID	(SIM_FIXED_CTL_EN | SIM_FIXED_CTL_OV_EN)
#define SIM_CBO_F0_VALID	(SIM_CBO_F0_TID | SIM_CBO_F0_STATE)
#define SIM_CBO_F1_VALID	(SIM_CBO_F1_NID | SIM_CBO_F1_OPC |	\
				 SIM_CBO_F1_NC | SIM_CBO_F1_ISOC)
#define SIM_CAPID4_SBO		GENMASK(7, 6)

enum sim_reg {
	SIM_REG_GLOBAL_CTL,
	SIM_REG_GLOBAL_STATUS,
	SIM_REG_GLOBAL_CONFIG,
	SIM_REG_FIXED_CTL,
	SIM_REG_FIXED_CTR,
	SIM_REG_BOX_CTL,
	SIM_REG_CTL,
	SIM_REG_FILTER,
	SIM_REG_STATUS,
	SIM_REG_CTR,
};

struct sim_loc {
	struct sim_box *box;
	enum sim_reg reg;
	unsigned int n;
};

static const struct {
	const char *name;
	int count;
} sim_box_kinds[SIM_NR_BOX_TYPES] = {
	[SIM_UBOX]	= { "ubox",	1 },
	[SIM_CBO]	= { "cbox",	SIM_NR_CBO },
	[SIM_SBO]	= { "sbox",	SIM_NR_SBO },
	[SIM_PCU]	= { "pcu",	1 },
	[SIM_HA]	= { "ha",	SIM_NR_HA },
	[SIM_IMC]	= { "imc",	SIM_NR_IMC },
	[SIM_IRP]	= { "irp",	1 },
	[SIM_QPI]	= { "qpi",	SIM_NR_QPI },
	[SIM_R2PCIE]	= { "r2pcie",	1 },
	[SIM_R3QPI]	= { "r3qpi",	SIM_NR_R3QPI },
};

const char *sim_box_name(enum sim_box_type type)
{
	return type < SIM_NR_BOX_TYPES ? sim_box_kinds[type].name : "?";
}

/* Instances of a kind the model has room for. */
int sim_box_count(enum sim_box_type type)
{
	return type < SIM_NR_BOX_TYPES ? sim_box_kinds[type].count : 0;
}

bool sim_box_is_pci(enum sim_box_type type)
{
	return type >= SIM_HA && type < SIM_NR_BOX_TYPES;
}

unsigned int sim_box_nr_ctrs(const struct sim_box *box)
{
	switch (box->type) {
	case SIM_UBOX:
		return SIM_NR_UBOX_CTRS;
	case SIM_R3QPI:
		return SIM_NR_R3QPI_CTRS;
	default:
		return SIM_NR_CTRS;
	}
}

struct sim_box *sim_pkg_box(struct sim_pkg *pkg, enum sim_box_type type,
			    unsigned int idx)
{
	switch (type) {
	case SIM_UBOX:
		return idx ? NULL : &pkg->ubox;
	case SIM_PCU:
		return idx ? NULL : &pkg->pcu;
	case SIM_CBO:
		return idx < SIM_NR_CBO ? &pkg->cbo[idx] : NULL;
	case SIM_SBO:
		return idx < SIM_NR_SBO ? &pkg->sbo[idx] : NULL;
	case SIM_HA:
		return idx < SIM_NR_HA ? &pkg->ha[idx] : NULL;
	case SIM_IMC:
		return idx < SIM_NR_IMC ? &pkg->imc[idx] : NULL;
	case SIM_IRP:
		return idx ? NULL : &pkg->irp;
	case SIM_QPI:
		return idx < SIM_NR_QPI ? &pkg->qpi[idx] : NULL;
	case SIM_R2PCIE:
		return idx ? NULL : &pkg->r2pcie;
	case SIM_R3QPI:
		return idx < SIM_NR_R3QPI ? &pkg->r3qpi[idx] : NULL;
	default:
		return NULL;
	}
}

static void sim_box_init(struct sim_box *box, enum sim_box_type type,
			 unsigned int idx, bool present)
{
	unsigned int i;

	box->type = type;
	box->idx = idx;
	box->present = present;
	/* The reset value 0 is in effect, so it counts as taken hold. */
	for (i = 0; i < SIM_NR_CTRS; i++)
		box->ctr[i].latched = true;
}

static u64 sim_ticks(u64 t, u64 hz)
{
	return mul_u64_u64_div_u64(min(t, SIM_TIME_MAX_NS), hz, NSEC_PER_SEC);
}

void sim_pkg_init(struct sim_pkg *pkg, unsigned int id,
		  const struct sim_pkg_cfg *cfg, u64 now_ns)
{
	u32 capid4 = cfg->capid4, capid5 = cfg->capid5;
	bool sbo = FIELD_GET(SIM_CAPID4_SBO, capid4) != 0;
	/* CAPID4[7:6] = 10b: the third QPI port and R3QPI link (1.6). */
	bool port2 = FIELD_GET(SIM_CAPID4_SBO, capid4) == 2;
	unsigned int i;

	memset(pkg, 0, sizeof(*pkg));
	pkg->id = id;
	pkg->nodeid = cfg->nodeid;
	pkg->capid4 = capid4;
	pkg->capid5 = capid5;
	pkg->uclk_hz = min(cfg->uclk_hz, SIM_MAX_CLK_HZ);
	pkg->pclk_hz = SIM_PCLK_HZ;
	pkg->dclk_hz = min(cfg->dclk_hz, SIM_MAX_CLK_HZ);
	pkg->qclk_hz = SIM_QCLK_HZ;
	pkg->now_ns = min(now_ns, SIM_TIME_MAX_NS);
	pkg->uclk_ticks = sim_ticks(pkg->now_ns, pkg->uclk_hz);
	pkg->pclk_ticks = sim_ticks(pkg->now_ns, pkg->pclk_hz);
	pkg->dclk_ticks = sim_ticks(pkg->now_ns, pkg->dclk_hz);
	pkg->qclk_ticks = sim_ticks(pkg->now_ns, pkg->qclk_hz);
	/* Only num_c has a non-zero reset value (Table 2-4). */
	pkg->global_config = SIM_GCONFIG_RESET;

	sim_box_init(&pkg->ubox, SIM_UBOX, 0, true);
	sim_box_init(&pkg->pcu, SIM_PCU, 0, true);
	/* CAPID5[23:0] is the CBo bitmap, CAPID4[7:6] != 0 means 4 SBos (1.6) */
	for (i = 0; i < SIM_NR_CBO; i++)
		sim_box_init(&pkg->cbo[i], SIM_CBO, i, capid5 & BIT(i));
	for (i = 0; i < SIM_NR_SBO; i++)
		sim_box_init(&pkg->sbo[i], SIM_SBO, i, sbo);

	for (i = 0; i < SIM_NR_HA; i++)
		sim_box_init(&pkg->ha[i], SIM_HA, i, true);
	for (i = 0; i < SIM_NR_IMC; i++)
		sim_box_init(&pkg->imc[i], SIM_IMC, i, cfg->imc_mask & BIT(i));
	sim_box_init(&pkg->irp, SIM_IRP, 0, true);
	for (i = 0; i < SIM_NR_QPI; i++)
		sim_box_init(&pkg->qpi[i], SIM_QPI, i, i < 2 || port2);
	sim_box_init(&pkg->r2pcie, SIM_R2PCIE, 0, true);
	for (i = 0; i < SIM_NR_R3QPI; i++)
		sim_box_init(&pkg->r3qpi[i], SIM_R3QPI, i, i < 2 || port2);
}

/* SBo, R2PCIe and R3QPI: controls must be written twice (2.4.1, 2.10.2, 2.11.1) */
static bool sim_write_twice(const struct sim_box *box)
{
	return box->type == SIM_SBO || box->type == SIM_R2PCIE ||
	       box->type == SIM_R3QPI;
}

void sim_pkg_reset_stats(struct sim_pkg *pkg)
{
	memset(&pkg->stats, 0, sizeof(pkg->stats));
}

/*
 * The enable hierarchy of 2.1.2 below the global level: local enable and
 * box not frozen (the UBox has no box level). A control whose event select
 * has not taken hold (write-twice erratum) counts nothing, and a QPI
 * counter whose rst bit is left set is held at 0 (2.9.2.1, "does not
 * self-clear").
 */
static bool sim_ctr_enabled(const struct sim_box *box, const struct sim_ctr *c)
{
	if (!(c->ctl & SIM_CTL_EN))
		return false;
	if (box->type != SIM_UBOX && box->frozen)
		return false;
	if (!c->latched || (c->ctl & SIM_CTL_RST))
		return false;
	return true;
}

/* ...and no global freeze (frz_all, or a freeze on overflow). */
bool sim_ctr_counting(const struct sim_pkg *pkg, const struct sim_box *box,
		      const struct sim_ctr *c)
{
	return !pkg->global_frozen && sim_ctr_enabled(box, c) && !box->stopped;
}

/*
 * An overflow message reaches the UBox, which records it in GLOBAL_STATUS
 * (2.1.1). A message whose group bit is already set changes nothing:
 * "a new freeze is only generated after both the box-level and global
 * overflow bits have been cleared". Otherwise the UBox asserts the global
 * freeze (2.1.1.1), which takes effect pkg->freeze_delay_ns later; until
 * then every counter keeps counting, the one that overflowed included
 * (it has wrapped). A package already frozen, or with a freeze already
 * on its way, gets no second one.
 */
static void sim_global_overflow(struct sim_pkg *pkg, unsigned int bit)
{
	if (pkg->global_status & BIT_ULL(bit))
		return;
	pkg->global_status |= BIT_ULL(bit);
	if (pkg->global_frozen || pkg->freeze_pending)
		return;
	pkg->freeze_pending = true;
	pkg->freeze_at = min(pkg->now_ns + pkg->freeze_delay_ns,
			     SIM_TIME_MAX_NS);
}

/**
 * sim_ctr_overflow() - a counter carried out of bit 47
 * @pkg: package state
 * @box: the counter's box, NULL for the UBox fixed counter (no box status)
 * @st_bit: the counter's bit in @box's BOX_STATUS
 * @ov_en: the counter's control has ov_en set
 * @gsts_bit: GLOBAL_STATUS bit of the box's group
 *
 * The box status bit is set; an overflow message goes to the UBox only if
 * ov_en is set and that bit was clear before (its overflow has not been
 * acknowledged, so the box sends nothing new). The UBox fixed counter has
 * no box status bit: its message is filtered by ov_u_fixed alone.
 */
void sim_ctr_overflow(struct sim_pkg *pkg, struct sim_box *box, u32 st_bit,
		      bool ov_en, unsigned int gsts_bit)
{
	bool was_set = false;

	pkg->stats.overflows++;
	if (box) {
		was_set = box->status & st_bit;
		box->status |= st_bit;
	}
	if (ov_en && !was_set)
		sim_global_overflow(pkg, gsts_bit);
}

/*
 * The pending freeze takes effect: everything stops, and the PMI to the
 * cores of pmi_core_sel (2.1.1.2) is owed, with pmi_core_sel and
 * wk_on_pmi as they are now. pmi_core_sel = 0 means no PMI. A PMI still
 * owed from an earlier freeze is merged with this one.
 */
static void sim_pkg_freeze_now(struct sim_pkg *pkg)
{
	u32 core_sel = pkg->global_ctl & SIM_GCTL_PMI_CORE_SEL;

	pkg->freeze_pending = false;
	pkg->global_frozen = true;
	pkg->stats.freezes++;
	if (!core_sel)
		return;
	if (!pkg->pmi_pending)
		pkg->pmi_core_sel = 0;
	pkg->pmi_pending = true;
	pkg->pmi_core_sel |= core_sel;
	pkg->pmi_wake = pkg->global_ctl & SIM_GCTL_WK_ON_PMI;
}

/* Add @add; returns true on a carry out of bit 47. */
bool sim_ctr_add(struct sim_ctr *c, u64 add)
{
	c->total += add;
	return sim_counter_add(&c->val, SIM_CTR_MASK, add);
}

void sim_ctr_clear(struct sim_ctr *c)
{
	c->val = 0;
	c->total = 0;
}

/*
 * Threshold, invert and edge detect (1.4): with thresh = 0 the raw
 * increment is added and invert/edge have no effect (they work only after
 * a non-zero threshold). Otherwise each cycle yields the condition
 * r >= thresh (or r < thresh inverted); edge detect counts its rising edges.
 * PCU occupancy events apply occ_invert/occ_edge_det the same way (2.8.2.2).
 */
static u32 sim_ctl_thresh(const struct sim_box *box, u32 ctl)
{
	if (box->type == SIM_UBOX || box->type == SIM_PCU)
		return FIELD_GET(SIM_CTL_THRESH5, ctl);
	return FIELD_GET(SIM_CTL_THRESH8, ctl);
}

static u64 sim_pipeline(const struct sim_box *box, struct sim_ctr *c,
			u64 r, u64 n)
{
	u32 ctl = c->ctl;
	bool invert = ctl & SIM_CTL_INVERT;
	bool edge = ctl & SIM_CTL_EDGE;
	bool cond;
	u32 thresh;
	u64 add;

	thresh = sim_ctl_thresh(box, ctl);
	if (box->type == SIM_PCU && (ctl & SIM_EV_PCU_OCCUPANCY)) {
		invert |= !!(ctl & SIM_PCU_CTL_OCC_INVERT);
		edge |= !!(ctl & SIM_PCU_CTL_OCC_EDGE);
	}

	if (!n)
		return 0;
	if (!thresh)
		return check_mul_overflow(r, n, &add) ? U64_MAX : add;

	cond = invert ? r < thresh : r >= thresh;
	if (!edge)
		return cond ? n : 0;
	add = cond && !c->prev_cond;
	c->prev_cond = cond;
	return add;
}

/*
 * GLOBAL_STATUS bit of @box's group; false for the CBo and SBo, which have
 * no ov_en and no bit (Table 2-3).
 */
static bool sim_box_gsts_bit(const struct sim_box *box, unsigned int *bit)
{
	if (box->type == SIM_UBOX)
		*bit = SIM_GSTS_OV_U;
	else if (box->type == SIM_PCU)
		*bit = SIM_GSTS_OV_P;
	else if (sim_box_is_pci(box->type))
		*bit = sim_pci_gsts_bit(box);
	else
		return false;
	return true;
}

/* @n cycles of per-cycle increment @r into counter @i of @box. */
void sim_count(struct sim_pkg *pkg, struct sim_box *box, unsigned int i,
	       u64 r, u64 n)
{
	struct sim_ctr *c = &box->ctr[i];
	unsigned int bit = 0;
	bool msg;

	if (!sim_ctr_add(c, sim_pipeline(box, c, r, n)))
		return;
	msg = sim_box_gsts_bit(box, &bit) && (c->ctl & SIM_CTL_OV_EN);
	sim_ctr_overflow(pkg, box, BIT(i), msg, bit);
}

/* The clock event @ev_sel (ev_sel_ext clear) on the counters of @box. */
void sim_box_clocks(struct sim_pkg *pkg, struct sim_box *box, u8 ev_sel,
		    u64 ticks)
{
	unsigned int i;

	if (!ticks || !box->present)
		return;
	for (i = 0; i < sim_box_nr_ctrs(box); i++) {
		struct sim_ctr *c = &box->ctr[i];

		if (FIELD_GET(SIM_CTL_EV_SEL, c->ctl) == ev_sel &&
		    !(c->ctl & SIM_CTL_EV_SEL_EXT) &&
		    sim_ctr_counting(pkg, box, c))
			sim_count(pkg, box, i, 1, ticks);
	}
}

/**
 * sim_carry_ns() - when a counter counting a clock carries out of bit 47
 * @c: the counter, counting one per tick
 * @ticks: the clock's ticks since sim time 0 at the package's now_ns
 * @hz: the clock's rate
 *
 * Return: the first sim time at which sim_pkg_step() finds the carry.
 */
u64 sim_carry_ns(const struct sim_ctr *c, u64 ticks, u64 hz)
{
	u64 tick = ticks + (SIM_CTR_MASK - c->val) + 1;
	u64 t = mul_u64_u64_div_u64(tick, NSEC_PER_SEC, hz);

	/* The first t with sim_ticks(t) >= tick. */
	return sim_ticks(t, hz) < tick ? t + 1 : t;
}

/**
 * sim_box_next_carry() - earliest overflow message of a box's clock counters
 * @pkg: package state
 * @box: the box
 * @ev_sel: its clock event (ev_sel_ext clear)
 * @ticks: that clock's ticks since sim time 0 at @pkg->now_ns
 * @hz: that clock's rate
 * @at: lowered to the sim time of the first carry that sends a message
 *
 * Only counters whose carry time is exact are looked at: counting the
 * clock one per tick (no threshold), ov_en set, their box status bit and
 * their group's global status bit clear (else the carry sends nothing).
 */
void sim_box_next_carry(const struct sim_pkg *pkg, const struct sim_box *box,
			u8 ev_sel, u64 ticks, u64 hz, u64 *at)
{
	unsigned int i, bit;

	if (!box->present || !sim_box_gsts_bit(box, &bit) ||
	    (pkg->global_status & BIT_ULL(bit)))
		return;
	for (i = 0; i < sim_box_nr_ctrs(box); i++) {
		const struct sim_ctr *c = &box->ctr[i];

		if (FIELD_GET(SIM_CTL_EV_SEL, c->ctl) != ev_sel ||
		    (c->ctl & SIM_CTL_EV_SEL_EXT) || !(c->ctl & SIM_CTL_OV_EN) ||
		    sim_ctl_thresh(box, c->ctl) || (box->status & BIT(i)) ||
		    !sim_ctr_counting(pkg, box, c))
			continue;
		*at = min(*at, sim_carry_ns(c, ticks, hz));
	}
}

/**
 * sim_pkg_next_carry() - when a clock-driven counter next asks for a freeze
 * @pkg: package state, advanced to its now_ns
 *
 * Counters that count a clock overflow with no access to tell the model
 * time has passed; the caller arms a timer for the time returned, so that
 * the freeze and PMI come when they would on the part. Nothing counts in
 * a frozen package, and one with a freeze pending asks for no other.
 *
 * Return: sim time of the next such carry, U64_MAX if none is due.
 */
u64 sim_pkg_next_carry(const struct sim_pkg *pkg)
{
	const struct sim_ctr *f = &pkg->fixed;
	u64 at = U64_MAX;

	if (pkg->global_frozen || pkg->freeze_pending)
		return U64_MAX;
	if ((f->ctl & SIM_FIXED_CTL_EN) && (f->ctl & SIM_FIXED_CTL_OV_EN) &&
	    !(pkg->global_status & BIT_ULL(SIM_GSTS_OV_U_FIXED)))
		at = sim_carry_ns(f, pkg->uclk_ticks, pkg->uclk_hz);
	/* CBo and SBo send no message: only the PCU among the MSR boxes. */
	sim_box_next_carry(pkg, &pkg->pcu, SIM_EV_CLOCKTICKS, pkg->pclk_ticks,
			   pkg->pclk_hz, &at);
	sim_pci_boxes_next_carry(pkg, &at);
	return at;
}

/*
 * Bring the clock-driven counters up to @now_ns in one step. Ticks are
 * differences of floor(t * hz / 1e9) of absolute sim times, so nothing
 * drifts however the accesses are spaced. Times older than the last one
 * (callers read the clock before taking the package lock) are ignored.
 *
 * pkg->now_ns is @now_ns before anything counts, so an overflow found in
 * the step is dated at its end: its freeze comes freeze_delay_ns after
 * @now_ns, although the carry may have happened earlier in the step. The
 * counters thus run on for up to one step longer than on the part; the
 * wrapped value they show is still exact for the time they counted.
 */
static void sim_pkg_step(struct sim_pkg *pkg, u64 now_ns)
{
	u64 uclk, pclk, dclk, qclk, du, dp, dd, dq;
	unsigned int i;

	if (now_ns <= pkg->now_ns)
		return;

	uclk = sim_ticks(now_ns, pkg->uclk_hz);
	pclk = sim_ticks(now_ns, pkg->pclk_hz);
	dclk = sim_ticks(now_ns, pkg->dclk_hz);
	qclk = sim_ticks(now_ns, pkg->qclk_hz);
	du = uclk - pkg->uclk_ticks;
	dp = pclk - pkg->pclk_ticks;
	dd = dclk - pkg->dclk_ticks;
	dq = qclk - pkg->qclk_ticks;
	pkg->now_ns = now_ns;
	pkg->uclk_ticks = uclk;
	pkg->pclk_ticks = pclk;
	pkg->dclk_ticks = dclk;
	pkg->qclk_ticks = qclk;

	/* The fixed counter counts UCLK "when global enable is set" (2.2.2) */
	if (du && (pkg->fixed.ctl & SIM_FIXED_CTL_EN) && !pkg->global_frozen &&
	    sim_ctr_add(&pkg->fixed, du))
		sim_ctr_overflow(pkg, NULL, 0,
				 pkg->fixed.ctl & SIM_FIXED_CTL_OV_EN,
				 SIM_GSTS_OV_U_FIXED);
	/* CBo/SBo CLOCKTICKS count UCLK, PCU CLOCKTICKS the 800 MHz PCLK. */
	for (i = 0; i < SIM_NR_CBO; i++)
		sim_box_clocks(pkg, &pkg->cbo[i], SIM_EV_CLOCKTICKS, du);
	for (i = 0; i < SIM_NR_SBO; i++)
		sim_box_clocks(pkg, &pkg->sbo[i], SIM_EV_CLOCKTICKS, du);
	sim_box_clocks(pkg, &pkg->pcu, SIM_EV_CLOCKTICKS, dp);
	sim_pci_boxes_advance(pkg, du, dd, dq);
}

/*
 * Bring the package up to @now_ns. An advance that crosses the time a
 * pending freeze takes effect is split there: clocks count up to
 * freeze_at, the package freezes, and the rest of the time passes with
 * nothing counting (the clocks themselves still move). A freeze due at or
 * before the package's current time (freeze_delay_ns = 0) is applied by
 * the first call after the message, whatever its time.
 */
void sim_pkg_advance(struct sim_pkg *pkg, u64 now_ns)
{
	now_ns = min(now_ns, SIM_TIME_MAX_NS);
	if (pkg->freeze_pending &&
	    pkg->freeze_at <= max(now_ns, pkg->now_ns)) {
		sim_pkg_step(pkg, pkg->freeze_at);
		sim_pkg_freeze_now(pkg);
	}
	sim_pkg_step(pkg, now_ns);
}

/**
 * sim_pkg_take_pmi() - take the PMI a freeze on overflow left owed
 * @pkg: package state
 * @now_ns: current sim time
 * @core_sel: pmi_core_sel of the freeze: bit n = core n of the package
 * @wake: wk_on_pmi of the freeze: wake sleeping cores to take the PMI
 *
 * Brings @pkg up to @now_ns. A freeze still pending then (sim time has not
 * reached freeze_at, e.g. because a test froze the sim clock) takes effect
 * now. Plain arithmetic: callable under the package lock from any
 * context, NMI included.
 *
 * Return: true if a PMI was owed (it no longer is); false if none was,
 * including after a freeze with pmi_core_sel = 0.
 */
bool sim_pkg_take_pmi(struct sim_pkg *pkg, u64 now_ns, u32 *core_sel,
		      bool *wake)
{
	sim_pkg_advance(pkg, now_ns);
	if (pkg->freeze_pending)
		sim_pkg_freeze_now(pkg);
	if (!pkg->pmi_pending)
		return false;
	pkg->pmi_pending = false;
	*core_sel = pkg->pmi_core_sel;
	*wake = pkg->pmi_wake;
	return true;
}

static int sim_decode_ubox(struct sim_pkg *pkg, u32 msr, struct sim_loc *loc)
{
	loc->box = &pkg->ubox;
	switch (msr) {
	case SIM_MSR_U_GLOBAL_CTL:
		loc->reg = SIM_REG_GLOBAL_CTL;
		break;
	case SIM_MSR_U_GLOBAL_STATUS:
		loc->reg = SIM_REG_GLOBAL_STATUS;
		break;
	case SIM_MSR_U_GLOBAL_CONFIG:
		loc->reg = SIM_REG_GLOBAL_CONFIG;
		break;
	case SIM_MSR_U_FIXED_CTL:
		loc->reg = SIM_REG_FIXED_CTL;
		break;
	case SIM_MSR_U_FIXED_CTR:
		loc->reg = SIM_REG_FIXED_CTR;
		break;
	case SIM_MSR_U_CTL0:
	case SIM_MSR_U_CTL0 + 1:
		loc->reg = SIM_REG_CTL;
		loc->n = msr - SIM_MSR_U_CTL0;
		break;
	case SIM_MSR_U_BOX_STATUS:
		loc->reg = SIM_REG_STATUS;
		break;
	case SIM_MSR_U_CTR0:
	case SIM_MSR_U_CTR0 + 1:
		loc->reg = SIM_REG_CTR;
		loc->n = msr - SIM_MSR_U_CTR0;
		break;
	default:
		/* 0x707 is not documented for BDX (Table 1-2). */
		return -EIO;
	}
	return 0;
}

/*
 * Inside a box: BOX_CTL, CTL0-3, then the filters, BOX_STATUS and CTR0-3 at
 * offsets that differ per box (Tables 2-13, 2-44, 2-156).
 */
struct sim_layout {
	u8 filter;
	u8 nr_filters;
	u8 status;
	u8 ctr;
};

static const struct sim_layout sim_cbo_layout = {
	.filter = 5, .nr_filters = 2, .status = 7, .ctr = 8,
};

static const struct sim_layout sim_sbo_layout = {
	.status = 5, .ctr = 6,
};

static const struct sim_layout sim_pcu_layout = {
	.filter = 5, .nr_filters = 1, .status = 6, .ctr = 7,
};

static int sim_decode_box(struct sim_box *box, const struct sim_layout *l,
			  u32 off, struct sim_loc *loc)
{
	loc->box = box;
	if (!box->present)
		return -EIO;
	if (off == 0) {
		loc->reg = SIM_REG_BOX_CTL;
	} else if (off <= SIM_NR_CTRS) {
		loc->reg = SIM_REG_CTL;
		loc->n = off - 1;
	} else if (off >= l->filter && off < l->filter + l->nr_filters) {
		loc->reg = SIM_REG_FILTER;
		loc->n = off - l->filter;
	} else if (off == l->status) {
		loc->reg = SIM_REG_STATUS;
	} else if (off >= l->ctr && off < l->ctr + SIM_NR_CTRS) {
		loc->reg = SIM_REG_CTR;
		loc->n = off - l->ctr;
	} else {
		return -EIO;
	}
	return 0;
}

/* Returns -EIO where the part would raise #GP. */
static int sim_decode(struct sim_pkg *pkg, u32 msr, struct sim_loc *loc)
{
	loc->n = 0;
	if (msr >= SIM_MSR_U_GLOBAL_CTL && msr <= SIM_MSR_U_LAST)
		return sim_decode_ubox(pkg, msr, loc);
	if (msr >= SIM_MSR_PCU_BASE && msr <= SIM_MSR_PCU_LAST)
		return sim_decode_box(&pkg->pcu, &sim_pcu_layout,
				      msr - SIM_MSR_PCU_BASE, loc);
	if (msr >= SIM_MSR_SBO_BASE &&
	    msr < SIM_MSR_SBO_BASE + SIM_NR_SBO * SIM_MSR_SBO_STRIDE) {
		msr -= SIM_MSR_SBO_BASE;
		return sim_decode_box(&pkg->sbo[msr / SIM_MSR_SBO_STRIDE],
				      &sim_sbo_layout, msr % SIM_MSR_SBO_STRIDE,
				      loc);
	}
	if (msr >= SIM_MSR_CBO_BASE &&
	    msr < SIM_MSR_CBO_BASE + SIM_NR_CBO * SIM_MSR_CBO_STRIDE) {
		msr -= SIM_MSR_CBO_BASE;
		return sim_decode_box(&pkg->cbo[msr / SIM_MSR_CBO_STRIDE],
				      &sim_cbo_layout, msr % SIM_MSR_CBO_STRIDE,
				      loc);
	}
	return -EIO;
}

/* Would an access to @msr be answered (not -EIO)? No side effects. */
bool sim_msr_exists(struct sim_pkg *pkg, u32 msr)
{
	struct sim_loc loc;

	return !sim_decode(pkg, msr, &loc);
}

int sim_msr_read(struct sim_pkg *pkg, u64 now_ns, u32 msr, u64 *val)
{
	struct sim_loc loc;
	struct sim_box *box;

	pkg->stats.msr_reads++;
	*val = 0;
	if (sim_decode(pkg, msr, &loc)) {
		pkg->stats.msr_faults++;
		return -EIO;
	}
	sim_pkg_advance(pkg, now_ns);

	box = loc.box;
	switch (loc.reg) {
	case SIM_REG_GLOBAL_CTL:
		*val = pkg->global_ctl;
		break;
	case SIM_REG_GLOBAL_STATUS:
		*val = pkg->global_status;
		break;
	case SIM_REG_GLOBAL_CONFIG:
		*val = pkg->global_config;
		break;
	case SIM_REG_FIXED_CTL:
		*val = pkg->fixed.ctl;
		break;
	case SIM_REG_FIXED_CTR:
		*val = pkg->fixed.val;
		break;
	case SIM_REG_BOX_CTL:
		/* All its functional bits are write-only (Table 2-14). */
		break;
	case SIM_REG_CTL:
		*val = box->ctr[loc.n].ctl;
		break;
	case SIM_REG_FILTER:
		*val = box->filter[loc.n];
		break;
	case SIM_REG_STATUS:
		*val = box->status;
		break;
	case SIM_REG_CTR:
		*val = box->ctr[loc.n].val;
		break;
	}
	return 0;
}

void sim_check_rsvd(struct sim_pkg *pkg, u64 val, u64 valid)
{
	if (val & ~valid)
		pkg->stats.rsvd_writes++;
}

/*
 * BOX_CTL bits 17:16: "SW must write to 1 else behavior is undefined" on
 * CBo, SBo, HA, iMC, IRP, PCU and QPI (Tables 2-14, 2-45, 2-71, 2-113,
 * 2-148, 2-157, 2-166); on R2PCIe and R3QPI they are reserved.
 */
static bool sim_box_ctl_must1(const struct sim_box *box)
{
	return box->type != SIM_R2PCIE && box->type != SIM_R3QPI;
}

void sim_write_box_ctl(struct sim_pkg *pkg, struct sim_box *box, u64 val)
{
	unsigned int i;

	if (sim_box_ctl_must1(box)) {
		sim_check_rsvd(pkg, val, SIM_BOX_CTL_VALID);
		if ((val & SIM_BOX_CTL_MUST1) != SIM_BOX_CTL_MUST1)
			pkg->stats.boxctl_no_must1++;
	} else {
		sim_check_rsvd(pkg, val, SIM_BOX_CTL_VALID & ~SIM_BOX_CTL_MUST1);
	}

	box->frozen = val & SIM_BOX_CTL_FRZ;
	for (i = 0; i < SIM_NR_CTRS; i++) {
		struct sim_ctr *c = &box->ctr[i];

		if (val & SIM_BOX_CTL_RST_CTRS)
			sim_ctr_clear(c);
		if (val & SIM_BOX_CTL_RST_CTRL) {
			c->ctl = 0;
			c->latched = true;
			c->prev_cond = false;
		}
	}
	/* The iMC fixed counter and its control go with the rest (2.5.2). */
	if (val & SIM_BOX_CTL_RST_CTRS)
		sim_ctr_clear(&box->fixed);
	if (val & SIM_BOX_CTL_RST_CTRL)
		box->fixed.ctl = 0;
}

static u32 sim_ctl_valid(const struct sim_box *box)
{
	switch (box->type) {
	case SIM_UBOX:
		return SIM_UBOX_CTL_VALID;
	case SIM_PCU:
		return SIM_PCU_CTL_VALID;
	case SIM_CBO:
	case SIM_SBO:
		return SIM_CBO_CTL_VALID;
	case SIM_QPI:
		return SIM_QPI_CTL_VALID;
	default:
		return SIM_PCI_CTL_VALID;
	}
}

void sim_write_ctl(struct sim_pkg *pkg, struct sim_box *box, unsigned int n,
		   u64 val)
{
	struct sim_ctr *c = &box->ctr[n];
	u32 valid = sim_ctl_valid(box);
	u32 ctl = val & valid & ~SIM_CTL_RST;

	sim_check_rsvd(pkg, val, valid);
	if (val & SIM_CTL_RST)
		sim_ctr_clear(c);
	/* QPI: rst "does not self-clear" and holds the counter (2.9.2.1). */
	if (box->type == SIM_QPI)
		ctl |= val & SIM_CTL_RST;
	/*
	 * Write-twice erratum: a new value takes hold only when written
	 * twice, the manual's recommended pair being en = 0 then en = 1
	 * (2.4.1 and 2.4.2; 2.10.2; 2.11.1). So a write takes hold iff all
	 * bits but en equal the current value.
	 */
	if (sim_write_twice(box))
		c->latched = !((ctl ^ c->ctl) & ~SIM_CTL_EN);
	c->ctl = ctl;
	c->prev_cond = false;
}

/*
 * frz_all is a software freeze: no PMI. unfrz_all ends any global freeze,
 * software or on overflow; it does not cancel a freeze still on its way
 * from an overflow message.
 */
static void sim_write_global_ctl(struct sim_pkg *pkg, u64 val)
{
	bool frz = val & SIM_GCTL_FRZ_ALL;
	bool unfrz = val & SIM_GCTL_UNFRZ_ALL;

	sim_check_rsvd(pkg, val, SIM_GCTL_VALID);
	/* Freeze and unfreeze at once is meaningless: a violation, ignored. */
	if (frz && unfrz)
		pkg->stats.rsvd_writes++;
	else if (frz)
		pkg->global_frozen = true;
	else if (unfrz)
		pkg->global_frozen = false;
	pkg->global_ctl = val & SIM_GCTL_RW;
}

int sim_msr_write(struct sim_pkg *pkg, u64 now_ns, u32 msr, u64 val)
{
	struct sim_loc loc;
	struct sim_box *box;
	u32 valid;

	pkg->stats.msr_writes++;
	if (sim_decode(pkg, msr, &loc)) {
		pkg->stats.msr_faults++;
		return -EIO;
	}
	pkg->carry_check = true;
	/* Account the old programming up to now before changing it. */
	sim_pkg_advance(pkg, now_ns);

	box = loc.box;
	switch (loc.reg) {
	case SIM_REG_GLOBAL_CTL:
		sim_write_global_ctl(pkg, val);
		break;
	case SIM_REG_GLOBAL_STATUS:
		sim_check_rsvd(pkg, val, SIM_GSTS_VALID);
		pkg->global_status &= ~val;
		break;
	case SIM_REG_GLOBAL_CONFIG:
		sim_check_rsvd(pkg, val, SIM_GCONFIG_NUM_C);
		pkg->global_config = val & SIM_GCONFIG_NUM_C;
		break;
	case SIM_REG_FIXED_CTL:
		sim_check_rsvd(pkg, val, SIM_FIXED_CTL_VALID);
		pkg->fixed.ctl = val & SIM_FIXED_CTL_VALID;
		break;
	case SIM_REG_FIXED_CTR:
		/* Bits 63:48 are ignored, not reserved (Table 2-10). */
		pkg->fixed.val = val & SIM_CTR_MASK;
		break;
	case SIM_REG_BOX_CTL:
		sim_write_box_ctl(pkg, box, val);
		break;
	case SIM_REG_CTL:
		sim_write_ctl(pkg, box, loc.n, val);
		break;
	case SIM_REG_FILTER:
		if (box->type == SIM_PCU)
			valid = U32_MAX;
		else
			valid = loc.n ? SIM_CBO_F1_VALID : SIM_CBO_F0_VALID;
		sim_check_rsvd(pkg, val, valid);
		box->filter[loc.n] = val & valid;
		break;
	case SIM_REG_STATUS:
		valid = GENMASK(sim_box_nr_ctrs(box) - 1, 0);
		sim_check_rsvd(pkg, val, valid);
		box->status &= ~val;
		break;
	case SIM_REG_CTR:
		box->ctr[loc.n].val = val & SIM_CTR_MASK;
		break;
	}
	return 0;
}

/* CBo events whose NID subevents use FILTER1.nid (Filter Dep., 2.3.6). */
static bool sim_cbo_nid_filtered(u8 ev_sel, u8 umask)
{
	switch (ev_sel) {
	case 0x33:	/* RxR_ISMQ_RETRY.WB_CREDITS */
		if (umask & BIT(7))
			return true;
		fallthrough;
	case 0x28:	/* RxR_IPQ_RETRY2.TARGET */
	case 0x29:	/* RxR_IRQ_RETRY2.TARGET */
	case 0x2a:	/* RxR_ISMQ_RETRY2.TARGET */
	case 0x32:	/* RxR_IRQ_RETRY.NID */
	case SIM_EV_CBO_LLC_LOOKUP:
	case SIM_EV_CBO_TOR_INSERTS:
	case SIM_EV_CBO_TOR_OCC:
	case SIM_EV_CBO_LLC_VICTIMS:
		return umask & BIT(6);
	}
	return false;
}

/* The CBo filter registers (2.3.2.3). */
static bool sim_cbo_filters_pass(const struct sim_box *box,
				 const struct sim_ctr *c,
				 const struct sim_event *ev)
{
	u8 ev_sel = FIELD_GET(SIM_CTL_EV_SEL, c->ctl);
	u8 umask = FIELD_GET(SIM_CTL_UMASK, c->ctl);
	u32 f0 = box->filter[0], f1 = box->filter[1];
	bool tor = ev_sel == SIM_EV_CBO_TOR_INSERTS ||
		   ev_sel == SIM_EV_CBO_TOR_OCC;

	if ((c->ctl & SIM_CTL_TID_EN) &&
	    ev->tid != FIELD_GET(SIM_CBO_F0_TID, f0))
		return false;
	/* "LLC_LOOKUP may be filtered by the cacheline state" (2.3.2.3). */
	if (ev_sel == SIM_EV_CBO_LLC_LOOKUP &&
	    !(ev->state & FIELD_GET(SIM_CBO_F0_STATE, f0)))
		return false;
	if (sim_cbo_nid_filtered(ev_sel, umask) &&
	    !(ev->nid & FIELD_GET(SIM_CBO_F1_NID, f1)))
		return false;
	/*
	 * Opcode-matching TOR subevents have umask bit 0 set; nc and isoc
	 * qualify that match (Table 2-19 lists them beside opc) and nothing
	 * else.
	 */
	if (!tor || !(umask & BIT(0)))
		return true;
	if (ev->opc != FIELD_GET(SIM_CBO_F1_OPC, f1))
		return false;
	if ((f1 & SIM_CBO_F1_NC) && !ev->nc)
		return false;
	if ((f1 & SIM_CBO_F1_ISOC) && !ev->isoc)
		return false;
	return true;
}

/*
 * Does counter @c count @ev, and with what per-cycle increment @r?
 * Event selects must be equal; unit masks must share a bit or both be 0.
 */
static bool sim_match(const struct sim_box *box, const struct sim_ctr *c,
		      const struct sim_event *ev, u64 *r)
{
	u8 ev_sel = FIELD_GET(SIM_CTL_EV_SEL, c->ctl);
	u8 umask = FIELD_GET(SIM_CTL_UMASK, c->ctl);
	u32 occ_sel;

	if (ev_sel != ev->ev_sel)
		return false;
	*r = ev->inc;
	if (sim_box_is_pci(box->type))
		return sim_pci_match(box, c, ev);

	if (box->type == SIM_PCU) {
		/* occ_sel 1/2/3 = cores in C0/C3/C6 (2.8.2.2) */
		if (ev_sel & SIM_EV_PCU_OCCUPANCY) {
			occ_sel = FIELD_GET(SIM_PCU_CTL_OCC_SEL, c->ctl);
			*r = ev->cores;
			return occ_sel && occ_sel == ev->umask >> 6;
		}
		/* FREQ_BANDn_CYCLES: frequency >= filter byte n (2.8.6) */
		if (ev_sel >= SIM_EV_PCU_BAND0 && ev_sel <= SIM_EV_PCU_BAND3) {
			u8 band = box->filter[0] >>
				  (8 * (ev_sel - SIM_EV_PCU_BAND0));

			*r = ev->freq >= band;
		}
		/* The PCU has no unit mask. */
		return true;
	}

	if (!(umask & ev->umask) && (umask || ev->umask))
		return false;
	if (box->type == SIM_CBO)
		return sim_cbo_filters_pass(box, c, ev);
	return true;
}

/* Returns the number of counters that counted @ev, or -EINVAL. */
int sim_inject(struct sim_pkg *pkg, u64 now_ns, const struct sim_event *ev)
{
	struct sim_box *box = sim_pkg_box(pkg, ev->type, ev->idx);
	unsigned int i;
	int hits = 0;
	u64 r;

	if (!box || !box->present)
		return -EINVAL;
	sim_pkg_advance(pkg, now_ns);
	pkg->carry_check = true;

	pkg->stats.inject_lines++;
	for (i = 0; i < sim_box_nr_ctrs(box); i++) {
		struct sim_ctr *c = &box->ctr[i];

		if (!sim_ctr_enabled(box, c) || !sim_match(box, c, ev, &r) ||
		    box->stopped)
			continue;
		/* Counted as lost only if the global freeze alone stopped it. */
		if (pkg->global_frozen) {
			pkg->stats.frozen_drops++;
			continue;
		}
		sim_count(pkg, box, i, r, ev->count);
		hits++;
	}
	pkg->stats.inject_hits += hits;
	return hits;
}

int sim_set_counter(struct sim_pkg *pkg, u64 now_ns, enum sim_box_type type,
		    unsigned int idx, unsigned int ctr, u64 value)
{
	struct sim_box *box = sim_pkg_box(pkg, type, idx);
	struct sim_ctr *c;

	if (!box || !box->present)
		return -EINVAL;
	pkg->carry_check = true;
	if (type == SIM_UBOX && ctr == SIM_CTR_FIXED)
		c = &pkg->fixed;
	else if (type == SIM_IMC && ctr == SIM_CTR_FIXED)
		c = &box->fixed;
	else if (ctr < sim_box_nr_ctrs(box))
		c = &box->ctr[ctr];
	else
		return -EINVAL;

	sim_pkg_advance(pkg, now_ns);
	c->val = value & SIM_CTR_MASK;
	return 0;
}
