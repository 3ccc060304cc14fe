// SPDX-License-Identifier: GPL-2.0
/*
 * A Broadwell package over sim time: which boxes it has (CAPID4, CAPID5,
 * the iMC channels), its clocks, by which the counters are advanced
 * lazily from the time elapsed since the previous access, the freeze an
 * overflow message brings and the PMI it leaves owed, and when a
 * clock-driven counter next carries. Also the packages' state itself,
 * sim_bdx_pkgs[].
 *
 * Plain arithmetic on the package state: no locking, hardware, PCI or
 * debugfs. Callers hold the package's lock (sim_lock() of sim_sockets[n]
 * for sim_bdx_pkgs[n]), in any context (NMI included); the KUnit suite
 * #includes this file.
 */
#include <linux/bitfield.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "sim.h"
#include "bdx.h"

#define SIM_CAPID4_SBO		GENMASK(7, 6)

/* Package n's registers; the lock of sim_sockets[n] serialises them. */
struct sim_pkg sim_bdx_pkgs[SIM_MAX_PKGS];

/**
 * sim_pkg_box() - a box of a package
 * @pkg: package state
 * @type: the box's kind
 * @idx: its instance
 *
 * Return: the box, present or not; NULL if the model has no room for it.
 */
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

/**
 * sim_pkg_init() - a package as it comes out of reset
 * @pkg: package state, all of it set here
 * @id: the package's number
 * @cfg: what it is made of
 * @now_ns: sim time now: the clocks' ticks count from sim time 0
 */
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

/**
 * sim_pkg_reset_stats() - the package's statistics back to 0
 * @pkg: package state
 */
void sim_pkg_reset_stats(struct sim_pkg *pkg)
{
	memset(&pkg->stats, 0, sizeof(pkg->stats));
}

/**
 * sim_pkg_set_frozen() - set or end the package's global freeze
 * @pkg: package state, brought up to the time of the change
 * @frozen: frozen from now on or not
 *
 * Times each freeze in sim time, from its start to its unfrz_all: the
 * time every counter of the package missed (make bench prints it).
 */
void sim_pkg_set_frozen(struct sim_pkg *pkg, bool frozen)
{
	u64 d;

	if (frozen == pkg->global_frozen)
		return;
	pkg->global_frozen = frozen;
	if (frozen) {
		pkg->frozen_since = pkg->now_ns;
		return;
	}
	d = pkg->now_ns - pkg->frozen_since;
	pkg->stats.frozen_ns += d;
	pkg->stats.frozen_max_ns = max(pkg->stats.frozen_max_ns, d);
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
	sim_pkg_set_frozen(pkg, true);
	pkg->stats.freezes++;
	if (!core_sel)
		return;
	if (!pkg->pmi_pending)
		pkg->pmi_core_sel = 0;
	pkg->pmi_pending = true;
	pkg->pmi_core_sel |= core_sel;
	pkg->pmi_wake = pkg->global_ctl & SIM_GCTL_WK_ON_PMI;
}

/**
 * sim_box_clocks() - count a clock on the counters of a box
 * @pkg: package state
 * @box: the box; nothing counts if it is absent
 * @ev_sel: the clock's event (ev_sel_ext clear)
 * @ticks: the clock's ticks to count
 */
static void sim_box_clocks(struct sim_pkg *pkg, struct sim_box *box,
			   u8 ev_sel, u64 ticks)
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

/*
 * Clock-driven events: HA and IRP CLOCKTICKS (0x00) and R2PCIe/R3QPI
 * CLOCKTICKS (0x01) count UCLK, iMC DCLOCKTICKS (0x00) and the iMC fixed
 * counter DCLK, QPI CLOCKTICKS (0x14) the QPI clock.
 */
static void sim_pci_boxes_advance(struct sim_pkg *pkg, u64 du, u64 dd,
				  u64 dq)
{
	unsigned int i;

	for (i = 0; i < SIM_NR_HA; i++)
		sim_box_clocks(pkg, &pkg->ha[i], SIM_EV_CLOCKTICKS, du);
	sim_box_clocks(pkg, &pkg->irp, SIM_EV_CLOCKTICKS, du);
	sim_box_clocks(pkg, &pkg->r2pcie, SIM_EV_R_CLOCKTICKS, du);
	for (i = 0; i < SIM_NR_R3QPI; i++)
		sim_box_clocks(pkg, &pkg->r3qpi[i], SIM_EV_R_CLOCKTICKS, du);
	for (i = 0; i < SIM_NR_QPI; i++)
		sim_box_clocks(pkg, &pkg->qpi[i], SIM_EV_QPI_CLOCKTICKS, dq);
	for (i = 0; i < SIM_NR_IMC; i++) {
		struct sim_box *box = &pkg->imc[i];
		struct sim_ctr *f = &box->fixed;

		sim_box_clocks(pkg, box, SIM_EV_CLOCKTICKS, dd);
		if (!box->present || !dd || !(f->ctl & SIM_FIXED_CTL_EN) ||
		    box->frozen || pkg->global_frozen || !sim_ctr_add(f, dd))
			continue;
		sim_ctr_overflow(pkg, box, BIT(4), f->ctl & SIM_FIXED_CTL_OV_EN,
				 sim_pci_gsts_bit(box));
	}
}

/* sim_pkg_next_carry() for the PCI boxes: the clocks of the function above. */
static void sim_pci_boxes_next_carry(const struct sim_pkg *pkg, u64 *at)
{
	u64 ut = pkg->uclk_ticks, dt = pkg->dclk_ticks;
	unsigned int i;

	for (i = 0; i < SIM_NR_HA; i++)
		sim_box_next_carry(pkg, &pkg->ha[i], SIM_EV_CLOCKTICKS, ut,
				   pkg->uclk_hz, at);
	sim_box_next_carry(pkg, &pkg->irp, SIM_EV_CLOCKTICKS, ut, pkg->uclk_hz,
			   at);
	sim_box_next_carry(pkg, &pkg->r2pcie, SIM_EV_R_CLOCKTICKS, ut,
			   pkg->uclk_hz, at);
	for (i = 0; i < SIM_NR_R3QPI; i++)
		sim_box_next_carry(pkg, &pkg->r3qpi[i], SIM_EV_R_CLOCKTICKS, ut,
				   pkg->uclk_hz, at);
	for (i = 0; i < SIM_NR_QPI; i++)
		sim_box_next_carry(pkg, &pkg->qpi[i], SIM_EV_QPI_CLOCKTICKS,
				   pkg->qclk_ticks, pkg->qclk_hz, at);
	for (i = 0; i < SIM_NR_IMC; i++) {
		const struct sim_box *box = &pkg->imc[i];
		const struct sim_ctr *f = &box->fixed;

		sim_box_next_carry(pkg, box, SIM_EV_CLOCKTICKS, dt,
				   pkg->dclk_hz, at);
		if (!box->present || box->frozen || (box->status & BIT(4)) ||
		    (pkg->global_status & BIT_ULL(sim_pci_gsts_bit(box))) ||
		    (f->ctl & (SIM_FIXED_CTL_EN | SIM_FIXED_CTL_OV_EN)) !=
		    (SIM_FIXED_CTL_EN | SIM_FIXED_CTL_OV_EN))
			continue;
		*at = min(*at, sim_carry_ns(f, dt, pkg->dclk_hz));
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

/**
 * sim_pkg_advance() - bring the package up to a sim time
 * @pkg: package state
 * @now_ns: sim time; an earlier one than the package's changes nothing
 *
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
