// SPDX-License-Identifier: GPL-2.0
/*
 * The Broadwell model's MSR boxes (Table 1-2): the UBox, with the global
 * control, status and config registers and the fixed UCLK counter, the
 * CBos, the SBos and the PCU. An MSR decodes to one register of one box,
 * or faults (-EIO where the part raises #GP); an access first brings the
 * package up to its sim time.
 *
 * Plain arithmetic on the package state, reached from the MSR seam
 * (bdx.c) and debugfs "msr" (bdx_debugfs.c) under the package lock, in any
 * context (NMI included); the KUnit suite #includes this file.
 */
#include <linux/bits.h>
#include <linux/errno.h>

#include "sim.h"
#include "bdx.h"

/* Bits software may set; writing any other bit counts as a violation. */
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

/**
 * sim_msr_exists() - is an MSR one of the model's
 * @pkg: package state; only what it is made of is looked at
 * @msr: the MSR
 *
 * Would an access to @msr be answered (not -EIO)? No side effects.
 *
 * Return: true if it would.
 */
bool sim_msr_exists(struct sim_pkg *pkg, u32 msr)
{
	struct sim_loc loc;

	return !sim_decode(pkg, msr, &loc);
}

/**
 * sim_msr_read() - an MSR read
 * @pkg: package state
 * @now_ns: sim time of the access
 * @msr: the MSR
 * @val: the value read; 0 on a fault
 *
 * Return: 0, or -EIO where the part raises #GP.
 */
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
	else if (frz || unfrz)
		sim_pkg_set_frozen(pkg, frz);
	pkg->global_ctl = val & SIM_GCTL_RW;
}

/**
 * sim_msr_write() - an MSR write
 * @pkg: package state
 * @now_ns: sim time of the access
 * @msr: the MSR
 * @val: the value written
 *
 * Return: 0, or -EIO where the part raises #GP.
 */
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
		sim_note_ctr_write(pkg, NULL, &pkg->fixed);
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
		sim_note_ctr_write(pkg, box, &box->ctr[loc.n]);
		box->ctr[loc.n].val = val & SIM_CTR_MASK;
		break;
	}
	return 0;
}
