// SPDX-License-Identifier: GPL-2.0
/*
 * The counting machinery every box of the Broadwell model shares, MSR and
 * PCI alike: the kinds of box, a counter's enables, its threshold
 * pipeline, carry and overflow message, the clock events, and the writes
 * of the registers every box has (BOX_CTL, CTL0-3) with their reserved
 * bits. bdx_pkg.c drives it over sim time; bdx_msr.c and bdx_pci.c decode
 * registers onto it.
 *
 * Plain arithmetic on the package state: no locking, hardware, PCI or
 * debugfs. Callers hold the package lock, in any context (NMI included);
 * the KUnit suite #includes this file.
 */
#include <linux/bitfield.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/time64.h>

#include "counter.h"
#include "sim.h"
#include "bdx.h"

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

/**
 * sim_box_name() - the name of a kind of box
 * @type: the kind
 *
 * Return: its name in debugfs and in the fault rules ("cbox", "imc", ...),
 * "?" if @type is no kind.
 */
const char *sim_box_name(enum sim_box_type type)
{
	return type < SIM_NR_BOX_TYPES ? sim_box_kinds[type].name : "?";
}

/**
 * sim_box_count() - instances of a kind the model has room for
 * @type: the kind
 *
 * Return: SIM_NR_CBO for the CBo, and so on; 0 if @type is no kind.
 */
int sim_box_count(enum sim_box_type type)
{
	return type < SIM_NR_BOX_TYPES ? sim_box_kinds[type].count : 0;
}

/**
 * sim_box_is_pci() - is a kind of box a PCI function
 * @type: the kind
 *
 * Return: true for HA, iMC, IRP, QPI, R2PCIe and R3QPI.
 */
bool sim_box_is_pci(enum sim_box_type type)
{
	return type >= SIM_HA && type < SIM_NR_BOX_TYPES;
}

/**
 * sim_ticks() - ticks of a clock from sim time 0 to sim time @t
 * @t: sim time, taken as SIM_TIME_MAX_NS beyond it
 * @hz: the clock's rate, at most SIM_MAX_CLK_HZ
 *
 * Return: floor(@t * @hz / 1e9).
 */
u64 sim_ticks(u64 t, u64 hz)
{
	return mul_u64_u64_div_u64(min(t, SIM_TIME_MAX_NS), hz, NSEC_PER_SEC);
}

/* SBo, R2PCIe and R3QPI: controls must be written twice (2.4.1, 2.10.2, 2.11.1) */
static bool sim_write_twice(const struct sim_box *box)
{
	return box->type == SIM_SBO || box->type == SIM_R2PCIE ||
	       box->type == SIM_R3QPI;
}

/**
 * sim_ctr_enabled() - is a counter enabled below the global level
 * @box: its box
 * @c: the counter
 *
 * The enable hierarchy of 2.1.2 below the global level: local enable and
 * box not frozen (the UBox has no box level). A control whose event select
 * has not taken hold (write-twice erratum) counts nothing, and a QPI
 * counter whose rst bit is left set is held at 0 (2.9.2.1, "does not
 * self-clear").
 *
 * Return: true if @c counts unless the package is frozen.
 */
bool sim_ctr_enabled(const struct sim_box *box, const struct sim_ctr *c)
{
	if (!(c->ctl & SIM_CTL_EN))
		return false;
	if (box->type != SIM_UBOX && box->frozen)
		return false;
	if (!c->latched || (c->ctl & SIM_CTL_RST))
		return false;
	return true;
}

/**
 * sim_ctr_counting() - does a counter count
 * @pkg: package state
 * @box: its box
 * @c: the counter
 *
 * sim_ctr_enabled(), no global freeze (frz_all, or a freeze on overflow)
 * and no "stop" fault on the box (fault.c).
 *
 * Return: true if @c counts.
 */
bool sim_ctr_counting(const struct sim_pkg *pkg, const struct sim_box *box,
		      const struct sim_ctr *c)
{
	return !pkg->global_frozen && sim_ctr_enabled(box, c) && !box->stopped;
}

/**
 * sim_note_ctr_write() - count a write of a counter that counts
 * @pkg: package state, advanced to the write's time
 * @box: the counter's box; NULL for the UBox's fixed counter
 * @c: the counter written
 *
 * The manual has software freeze before it reads and reloads counters
 * (2.1.3, 2.1.4); a write that lands while the counter counts is counted
 * in @pkg's live_writes, so that a test can show a reload was at rest.
 */
void sim_note_ctr_write(struct sim_pkg *pkg, const struct sim_box *box,
			const struct sim_ctr *c)
{
	bool counting;

	if (!box)
		counting = (c->ctl & SIM_FIXED_CTL_EN) && !pkg->global_frozen;
	else if (c == &box->fixed)
		counting = (c->ctl & SIM_FIXED_CTL_EN) && !box->frozen &&
			   !pkg->global_frozen;
	else
		counting = sim_ctr_counting(pkg, box, c);
	if (counting)
		pkg->stats.live_writes++;
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

/**
 * sim_ctr_add() - add to a counter and to its unwrapped total
 * @c: the counter
 * @add: what to add
 *
 * Return: true on a carry out of bit 47.
 */
bool sim_ctr_add(struct sim_ctr *c, u64 add)
{
	c->total += add;
	return sim_counter_add(&c->val, SIM_CTR_MASK, add);
}

/**
 * sim_ctr_clear() - a counter and its unwrapped total back to 0
 * @c: the counter
 */
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

/**
 * sim_pci_gsts_bit() - GLOBAL_STATUS bit of a PCI box's group (Table 2-3)
 * @box: the PCI box
 *
 * Return: the bit's number.
 */
unsigned int sim_pci_gsts_bit(const struct sim_box *box)
{
	switch (box->type) {
	case SIM_HA:
		return SIM_GSTS_OV_H0 + box->idx;
	case SIM_IMC:
		return SIM_GSTS_OV_M0 + box->idx / 4;
	case SIM_QPI:
		return SIM_GSTS_OV_Q0 + (box->idx == 2);
	case SIM_R3QPI:
		return SIM_GSTS_OV_RQ0 + (box->idx == 2);
	case SIM_R2PCIE:
		return SIM_GSTS_OV_RP;
	default:
		return SIM_GSTS_OV_IRP;
	}
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

/**
 * sim_count() - @n cycles of per-cycle increment @r into counter @i of @box
 * @pkg: package state
 * @box: the box
 * @i: the counter
 * @r: the increment of each cycle, before threshold, invert and edge
 * @n: cycles
 *
 * A carry out of bit 47 goes to sim_ctr_overflow(), with ov_en if the
 * box's group has a GLOBAL_STATUS bit.
 */
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
 * sim_check_rsvd() - count a write of bits nobody may set
 * @pkg: package state
 * @val: the value written
 * @valid: the bits software may set
 */
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

/**
 * sim_write_box_ctl() - a write of a box's BOX_CTL
 * @pkg: package state
 * @box: the box
 * @val: the value written
 *
 * Freezes or unfreezes the box, resets its counters (rst_ctrs) and their
 * controls (rst_ctrl), the iMC fixed counter's included; counts reserved
 * bits set and bits 17:16 not both 1 where they must be.
 */
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

/**
 * sim_write_ctl() - a write of a counter's control register
 * @pkg: package state
 * @box: the box
 * @n: the counter
 * @val: the value written
 *
 * rst clears the counter; the write-twice erratum and QPI's rst, which
 * stays set, are applied as below.
 */
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
