// SPDX-License-Identifier: GPL-2.0
/*
 * Config-space registers of the BDX uncore PCI PMON boxes: HA, iMC
 * channels, IRP, QPI ports (with their packet match/mask function), R2PCIe
 * and R3QPI links. Like bdx_msr.c a pure model: bdx_pcihost.c decodes bus,
 * device and function and calls in here under the package lock, in any
 * context (NMI included); the KUnit suite #includes this file.
 *
 * 48-bit counters are two dwords, the low one at the listed offset and
 * bits 47:32 at offset + 4 (2.2.2 of the project's digest; the manual
 * writes "A4+A0"). Each dword access brings the counters up to the sim
 * time of that access, so a carry can land between a driver's two reads
 * just as on the part.
 */
#include <linux/bitfield.h>
#include <linux/errno.h>

#include "sim.h"
#include "bdx.h"

/* The common PMON function layout (Tables 2-68, 2-111, 2-164, 2-215). */
#define SIM_PCI_CTR0		0xa0
#define SIM_PCI_FIXED_CTR	0xd0	/* iMC */
#define SIM_PCI_CTL0		0xd8
#define SIM_PCI_FIXED_CTL	0xf0	/* iMC */
#define SIM_PCI_BOX_CTL		0xf4
#define SIM_PCI_BOX_STATUS	0xf8
#define SIM_HA_ADDRMATCH0	0x40
#define SIM_HA_ADDRMATCH1	0x44
#define SIM_HA_OPCODEMATCH	0x48

/* Table 2-76..2-78: ADDRMATCH0 31:6, ADDRMATCH1 13:0, OPCODEMATCH 5:0 */
#define SIM_HA_ADDR0_VALID	GENMASK(31, 6)
#define SIM_HA_ADDR1_VALID	GENMASK(13, 0)
#define SIM_HA_OPC_VALID	GENMASK(5, 0)
#define SIM_HA_UMASK_ADDR	BIT(0)
/* OPC, and the AD/BL/AK opcode subevents (Table 2-84). */
#define SIM_HA_UMASK_OPC	(BIT(1) | BIT(2) | BIT(3) | BIT(4))

/* QPI match/mask function (Table 2-169), extended config space. */
#define SIM_QPI_MM_TX_BASE	0x200
#define SIM_QPI_MM_RX_BASE	0x228
/* MATCH0/MASK0: RNID_4, DNID, MC, OPC, VNW; MATCH1/MASK1: RDS, RNID_3_0 */
#define SIM_QPI_MM0_VALID	(BIT(31) | GENMASK(17, 3))
#define SIM_QPI_MM1_VALID	(GENMASK(19, 16) | GENMASK(3, 0))

/* iMC fixed counter control (Table 2-114): en 22, ov_en 20, rst 19. */
#define SIM_IMC_FIXED_RST	BIT(19)
#define SIM_IMC_FIXED_VALID	(SIM_FIXED_CTL_EN | SIM_FIXED_CTL_OV_EN | \
				 SIM_IMC_FIXED_RST)

/*
 * IRP counters sit at A0, B0, B8 and C0 (Table 2-145, and "C0-B8 & B0-A0"
 * in Table 1-3). Mainline's HSX/BDX code reads A0, A8, B0, B8 instead; the
 * model follows the manual, which is what the driver is checked against.
 */
static const u16 sim_irp_ctr[SIM_NR_CTRS] = { 0xa0, 0xb0, 0xb8, 0xc0 };

enum sim_preg {
	SIM_P_NONE,
	SIM_P_CTR_LO,
	SIM_P_CTR_HI,
	SIM_P_CTL,
	SIM_P_FIXED_LO,
	SIM_P_FIXED_HI,
	SIM_P_FIXED_CTL,
	SIM_P_BOX_CTL,
	SIM_P_STATUS,
	SIM_P_FILTER,
};

static u16 sim_ctr_off(const struct sim_box *box, unsigned int i)
{
	return box->type == SIM_IRP ? sim_irp_ctr[i] : SIM_PCI_CTR0 + 8 * i;
}

/* Which register of @box's function @fn is at @off; *@n is its index. */
static enum sim_preg sim_pci_decode(const struct sim_box *box, int fn,
				    unsigned int off, unsigned int *n)
{
	unsigned int i, nr = sim_box_nr_ctrs(box);

	if (fn == SIM_PCI_FN_QPI_MM) {
		if (box->type != SIM_QPI)
			return SIM_P_NONE;
		switch (off) {
		case SIM_QPI_MM_RX_BASE:
		case SIM_QPI_MM_RX_BASE + 4:
			*n = SIM_QPI_RX_MATCH0 + (off - SIM_QPI_MM_RX_BASE) / 4;
			return SIM_P_FILTER;
		case SIM_QPI_MM_RX_BASE + 0x10:
		case SIM_QPI_MM_RX_BASE + 0x14:
			*n = SIM_QPI_RX_MASK0 +
			     (off - SIM_QPI_MM_RX_BASE - 0x10) / 4;
			return SIM_P_FILTER;
		case SIM_QPI_MM_TX_BASE:
		case SIM_QPI_MM_TX_BASE + 4:
			*n = SIM_QPI_TX_MATCH0 + (off - SIM_QPI_MM_TX_BASE) / 4;
			return SIM_P_FILTER;
		case SIM_QPI_MM_TX_BASE + 0x10:
		case SIM_QPI_MM_TX_BASE + 0x14:
			*n = SIM_QPI_TX_MASK0 +
			     (off - SIM_QPI_MM_TX_BASE - 0x10) / 4;
			return SIM_P_FILTER;
		}
		return SIM_P_NONE;
	}

	for (i = 0; i < nr; i++) {
		*n = i;
		if (off == sim_ctr_off(box, i))
			return SIM_P_CTR_LO;
		if (off == sim_ctr_off(box, i) + 4)
			return SIM_P_CTR_HI;
		if (off == SIM_PCI_CTL0 + 4 * i)
			return SIM_P_CTL;
	}
	if (off == SIM_PCI_BOX_CTL)
		return SIM_P_BOX_CTL;
	if (off == SIM_PCI_BOX_STATUS)
		return SIM_P_STATUS;
	if (box->type == SIM_IMC) {
		if (off == SIM_PCI_FIXED_CTR)
			return SIM_P_FIXED_LO;
		if (off == SIM_PCI_FIXED_CTR + 4)
			return SIM_P_FIXED_HI;
		if (off == SIM_PCI_FIXED_CTL)
			return SIM_P_FIXED_CTL;
	}
	if (box->type == SIM_HA &&
	    off >= SIM_HA_ADDRMATCH0 && off <= SIM_HA_OPCODEMATCH) {
		*n = (off - SIM_HA_ADDRMATCH0) / 4;
		return SIM_P_FILTER;
	}
	return SIM_P_NONE;
}

static u32 sim_filter_valid(const struct sim_box *box, unsigned int n)
{
	if (box->type == SIM_HA) {
		static const u32 ha[] = {
			SIM_HA_ADDR0_VALID, SIM_HA_ADDR1_VALID, SIM_HA_OPC_VALID,
		};

		return ha[n];
	}
	/* QPI: even registers are MATCH0/MASK0, odd ones MATCH1/MASK1. */
	return n & 1 ? SIM_QPI_MM1_VALID : SIM_QPI_MM0_VALID;
}

/* Overflow bits of BOX_STATUS: one per counter; iMC bit 4 = fixed. */
static u32 sim_status_valid(const struct sim_box *box)
{
	u32 valid = GENMASK(sim_box_nr_ctrs(box) - 1, 0);

	return box->type == SIM_IMC ? valid | BIT(4) : valid;
}

/**
 * sim_pci_reg_is_ctr() - is @off a dword of one of @box's counters
 * @box: the box
 * @fn: SIM_PCI_FN_PMON or SIM_PCI_FN_QPI_MM
 * @off: dword-aligned offset
 *
 * Return: true for either half of a general or fixed counter.
 */
bool sim_pci_reg_is_ctr(const struct sim_box *box, int fn, unsigned int off)
{
	unsigned int n;

	switch (sim_pci_decode(box, fn, off, &n)) {
	case SIM_P_CTR_LO:
	case SIM_P_CTR_HI:
	case SIM_P_FIXED_LO:
	case SIM_P_FIXED_HI:
		return true;
	default:
		return false;
	}
}

/*
 * A carry into the upper dword between two reads of one counter's dwords
 * that follow each other (at most one other access between): the window in
 * which a driver reading "lower, upper" gets a torn value. Counted so a
 * test can show the case it checks really happened.
 */
static void sim_note_split_read(struct sim_pkg *pkg, struct sim_ctr *c)
{
	u32 hi = upper_32_bits(c->val);

	if (c->read_seq && pkg->stats.pci_reads - c->read_seq <= 2 &&
	    hi != c->read_hi)
		pkg->stats.split_carries++;
	c->read_hi = hi;
	c->read_seq = pkg->stats.pci_reads;
}

/**
 * sim_pci_reg_read() - config dword read of a PCI box's register
 * @pkg: package state
 * @now_ns: sim time of the access
 * @box: the box whose function is read
 * @fn: SIM_PCI_FN_PMON or SIM_PCI_FN_QPI_MM
 * @off: dword-aligned offset
 * @val: value read
 *
 * Return: 0, or -ENOENT if @off is not a PMON register (bdx_pcihost.c then
 * answers from the function's plain config header).
 */
int sim_pci_reg_read(struct sim_pkg *pkg, u64 now_ns, struct sim_box *box,
		     int fn, unsigned int off, u32 *val)
{
	enum sim_preg reg;
	unsigned int n = 0;

	reg = sim_pci_decode(box, fn, off, &n);
	if (reg == SIM_P_NONE)
		return -ENOENT;
	pkg->stats.pci_reads++;
	sim_pkg_advance(pkg, now_ns);

	switch (reg) {
	case SIM_P_CTR_LO:
		sim_note_split_read(pkg, &box->ctr[n]);
		*val = lower_32_bits(box->ctr[n].val);
		break;
	case SIM_P_CTR_HI:
		sim_note_split_read(pkg, &box->ctr[n]);
		*val = upper_32_bits(box->ctr[n].val);
		break;
	case SIM_P_CTL:
		*val = box->ctr[n].ctl;
		break;
	case SIM_P_FIXED_LO:
		sim_note_split_read(pkg, &box->fixed);
		*val = lower_32_bits(box->fixed.val);
		break;
	case SIM_P_FIXED_HI:
		sim_note_split_read(pkg, &box->fixed);
		*val = upper_32_bits(box->fixed.val);
		break;
	case SIM_P_FIXED_CTL:
		*val = box->fixed.ctl;
		break;
	case SIM_P_STATUS:
		*val = box->status;
		break;
	case SIM_P_FILTER:
		*val = box->filter[n];
		break;
	default:
		/* BOX_CTL: its functional bits are write-only. */
		*val = 0;
		break;
	}
	return 0;
}

/* A dword write into half of a 48-bit counter leaves the other half. */
static void sim_ctr_write_half(struct sim_ctr *c, bool hi, u32 val)
{
	u64 v = c->val;

	if (hi)
		v = (v & GENMASK_ULL(31, 0)) | ((u64)val << 32);
	else
		v = (v & ~GENMASK_ULL(31, 0)) | val;
	c->val = v & SIM_CTR_MASK;
}

static void sim_write_fixed_ctl(struct sim_pkg *pkg, struct sim_box *box,
				u32 val)
{
	sim_check_rsvd(pkg, val, SIM_IMC_FIXED_VALID);
	if (val & SIM_IMC_FIXED_RST)
		sim_ctr_clear(&box->fixed);
	box->fixed.ctl = val & (SIM_FIXED_CTL_EN | SIM_FIXED_CTL_OV_EN);
}

/**
 * sim_pci_reg_write() - config dword write of a PCI box's register
 * @pkg: package state
 * @now_ns: sim time of the access
 * @box: the box whose function is written
 * @fn: SIM_PCI_FN_PMON or SIM_PCI_FN_QPI_MM
 * @off: dword-aligned offset
 * @val: value written
 *
 * Return: 0, or -ENOENT if @off is not a PMON register.
 */
int sim_pci_reg_write(struct sim_pkg *pkg, u64 now_ns, struct sim_box *box,
		      int fn, unsigned int off, u32 val)
{
	enum sim_preg reg;
	unsigned int n = 0;
	u32 valid;

	reg = sim_pci_decode(box, fn, off, &n);
	if (reg == SIM_P_NONE)
		return -ENOENT;
	pkg->stats.pci_writes++;
	pkg->carry_check = true;
	/* Account the old programming up to now before changing it. */
	sim_pkg_advance(pkg, now_ns);

	switch (reg) {
	case SIM_P_CTR_LO:
	case SIM_P_CTR_HI:
		sim_note_ctr_write(pkg, box, &box->ctr[n]);
		sim_ctr_write_half(&box->ctr[n], reg == SIM_P_CTR_HI, val);
		break;
	case SIM_P_CTL:
		sim_write_ctl(pkg, box, n, val);
		break;
	case SIM_P_FIXED_LO:
	case SIM_P_FIXED_HI:
		sim_note_ctr_write(pkg, box, &box->fixed);
		sim_ctr_write_half(&box->fixed, reg == SIM_P_FIXED_HI, val);
		break;
	case SIM_P_FIXED_CTL:
		sim_write_fixed_ctl(pkg, box, val);
		break;
	case SIM_P_BOX_CTL:
		sim_write_box_ctl(pkg, box, val);
		break;
	case SIM_P_STATUS:
		valid = sim_status_valid(box);
		sim_check_rsvd(pkg, val, valid);
		box->status &= ~val;
		break;
	case SIM_P_FILTER:
		valid = sim_filter_valid(box, n);
		sim_check_rsvd(pkg, val, valid);
		box->filter[n] = val & valid;
		break;
	default:
		break;
	}
	return 0;
}

/*
 * One QPI match slot (2.9.2.3): the packet triggers it when it equals
 * MATCH in every bit MASK selects. A slot with an all-zero mask is taken
 * as not programmed and never triggers; the manual does not say what an
 * empty mask does, and this way an unused direction adds nothing.
 */
static bool sim_qpi_slot(const struct sim_box *box, unsigned int base,
			 const struct sim_event *ev)
{
	u32 m0 = box->filter[base + SIM_QPI_RX_MASK0 - SIM_QPI_RX_MATCH0];
	u32 m1 = box->filter[base + SIM_QPI_RX_MASK1 - SIM_QPI_RX_MATCH0];

	if (!m0 && !m1)
		return false;
	return !((ev->pkt0 ^ box->filter[base]) & m0) &&
	       !((ev->pkt1 ^ box->filter[base + 1]) & m1);
}

/**
 * sim_pci_match() - does a counter of a PCI box count an occurrence
 * @box: the PCI box
 * @c: the counter
 * @ev: the occurrence, whose ev_sel equals the counter's
 *
 * Does counter @c of PCI box @box count @ev (whose ev_sel equals the
 * counter's)? QPI event selects include ev_sel_ext; CTO_COUNT counts
 * packets that trigger the match slot of their direction. HA
 * ADDR_OPC_MATCH compares the address and/or the opcode, as the subevent
 * asks; the address compare "ignores the lower 12 bits" (2.5.2.3) although
 * ADDRMATCH0 holds bits 31:6, so bits 11:6 of the register are unused here.
 *
 * Return: true if it does.
 */
bool sim_pci_match(const struct sim_box *box, const struct sim_ctr *c,
		   const struct sim_event *ev)
{
	u8 ev_sel = FIELD_GET(SIM_CTL_EV_SEL, c->ctl);
	u8 umask = FIELD_GET(SIM_CTL_UMASK, c->ctl);
	bool ext = c->ctl & SIM_CTL_EV_SEL_EXT;
	u64 match;

	if (box->type == SIM_QPI) {
		if (ext != ev->ext)
			return false;
		if (ext && ev_sel == SIM_EV_QPI_CTO_COUNT)
			return sim_qpi_slot(box, ev->tx ? SIM_QPI_TX_MATCH0 :
					    SIM_QPI_RX_MATCH0, ev);
	}
	if (!(umask & ev->umask) && (umask || ev->umask))
		return false;
	if (box->type != SIM_HA || ev_sel != SIM_EV_HA_ADDR_OPC)
		return true;

	if (umask & SIM_HA_UMASK_ADDR) {
		match = box->filter[0] | (u64)box->filter[1] << 32;
		if ((ev->addr ^ match) & GENMASK_ULL(45, 12))
			return false;
	}
	if ((umask & SIM_HA_UMASK_OPC) && ev->hopc != box->filter[2])
		return false;
	return true;
}
