// SPDX-License-Identifier: GPL-2.0
/*
 * What tests do to the Broadwell model beside register accesses: inject
 * occurrences of an event into a box, which every counter whose event
 * select, unit mask and filters (the CBo's, and the PCI boxes' match
 * registers, bdx_pci.c) match then counts, and preload a counter.
 *
 * Plain arithmetic on the package state, reached from debugfs "inject"
 * and "counter" (bdx_debugfs.c) under the package lock, in process
 * context; the KUnit suite #includes this file.
 */
#include <linux/bitfield.h>
#include <linux/errno.h>

#include "sim.h"
#include "bdx.h"

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

/**
 * sim_inject() - an injected occurrence on the counters of its box
 * @pkg: package state
 * @now_ns: sim time: the package is brought up to it first
 * @ev: the occurrence
 *
 * Return: the number of counters that counted @ev, or -EINVAL if its box
 * is absent.
 */
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

/**
 * sim_set_counter() - preload a counter
 * @pkg: package state
 * @now_ns: sim time: the package is brought up to it first
 * @type: the box's kind
 * @idx: its instance
 * @ctr: the counter; SIM_CTR_FIXED for the UBox's or an iMC's fixed one
 * @value: its new value, bits 47:0 taken
 *
 * Return: 0, or -EINVAL if there is no such counter.
 */
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
