// SPDX-License-Identifier: GPL-2.0
/*
 * Intel Xeon E5/E7 v4 (Broadwell-EP/EX, "BDX") uncore: the PCI boxes, HA,
 * iMC channels, IRP, QPI ports, R2PCIe and R3QPI links, and the PCI driver
 * that finds them.
 *
 * Source: the Uncore Performance Monitoring Reference Manual, 334291-001
 * ("the manual"); section and table numbers below are its own. Format
 * names follow mainline's BDX driver where it has the field.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/pci.h>

#include "uncore.h"
#include "../intel/pmon.h"
#include "bdx.h"
#include "bdx_tables.h"

/* Common PCI PMON layout (Tables 2-68, 2-111, 2-164, 2-215, 2-231). */
#define BDX_PCI_CTR0		0xa0
#define BDX_PCI_FIXED_CTR	0xd0	/* iMC */
#define BDX_PCI_CTL0		0xd8
#define BDX_PCI_FIXED_CTL	0xf0	/* iMC */
#define BDX_PCI_BOX_CTL		0xf4
#define BDX_PCI_BOX_STATUS	0xf8

/*
 * BOX_CTL bits 17:16 "SW must write to 1" on HA, iMC, IRP and QPI (Tables
 * 2-71, 2-113, 2-148, 2-166); reserved on R2PCIe and R3QPI.
 */
#define BDX_BOX_CTL_RST		(BIT(1) | BIT(0))	/* rst_ctrs, rst_ctrl */
#define BDX_BOX_CTL_1716	(BIT(17) | BIT(16))
#define BDX_BOX_CTL_INIT_1716	(BDX_BOX_CTL_1716 | BDX_BOX_CTL_RST)
/*
 * BOX_CTL.frz (bit 8, write-only) freezes every counter of the box and
 * leaves them as they are (Tables 2-62, 2-113, 2-146, 2-167, 2-213, 2-232).
 */
#define BDX_BOX_CTL_FRZ		BIT(8)

/* Global status bit of each PCI box (Table 2-3; see bdx.h). */
static u64 bdx_ha_pmi_mask(int idx)
{
	return BDX_GSTS_OV_H0 << idx;
}

/* iMC 0 has channels 0-3, iMC 1 channels 4-7 (uncore_imc_<n>). */
static u64 bdx_imc_pmi_mask(int idx)
{
	return BDX_GSTS_OV_M0 << (idx / 4);
}

static u64 bdx_irp_pmi_mask(int idx)
{
	return BDX_GSTS_OV_IRP;
}

/* QPI agent 0 has ports 0 and 1, agent 1 port 2 (2.9). */
static u64 bdx_qpi_pmi_mask(int idx)
{
	return idx < 2 ? BDX_GSTS_OV_Q0 : BDX_GSTS_OV_Q1;
}

static u64 bdx_r2pcie_pmi_mask(int idx)
{
	return BDX_GSTS_OV_RP;
}

static u64 bdx_r3qpi_pmi_mask(int idx)
{
	return (idx < 2 ? BDX_GSTS_OV_RQ0 : BDX_GSTS_OV_RQ1) | BDX_GSTS_OV_RQ;
}

/* HA match registers (2.5.2.3, Tables 2-76..2-78). */
#define BDX_HA_ADDRMATCH0	0x40
#define BDX_HA_ADDRMATCH1	0x44
#define BDX_HA_OPCODEMATCH	0x48
#define BDX_HA_EV_ADDR_OPC	0x20
#define BDX_HA_UMASK_ADDR	0x01
#define BDX_HA_UMASK_OPC	0x1e	/* OPC, and the AD/BL/AK opcode groups */
/*
 * filter_addr is a physical address. The compare "ignores the lower 12
 * bits" (2.5.2.3) while ADDRMATCH0 holds bits 31:6: only 4 KiB-aligned
 * values mean the same under both readings, so only they are accepted.
 */
#define BDX_HA_F_ADDR		GENMASK_ULL(45, 12)
#define BDX_HA_F_OPC		GENMASK_ULL(53, 48)
/* ADDRMATCH0/1 and OPCODEMATCH are used independently: two slots. */
#define BDX_HA_SLOT_ADDR	0
#define BDX_HA_SLOT_OPC		1

/* QPI packet match/mask, function 6 (2.9.2.3, Tables 2-169..2-174). */
#define BDX_QPI_RX_MATCH0	0x228
#define BDX_QPI_RX_MATCH1	0x22c
#define BDX_QPI_RX_MASK0	0x238
#define BDX_QPI_RX_MASK1	0x23c
#define BDX_QPI_TX_MATCH0	0x200
#define BDX_QPI_TX_MATCH1	0x204
#define BDX_QPI_TX_MASK0	0x210
#define BDX_QPI_TX_MASK1	0x214
#define BDX_QPI_MM0_VALID	(BIT_ULL(31) | GENMASK_ULL(17, 3))
#define BDX_QPI_MM1_VALID	(GENMASK_ULL(19, 16) | GENMASK_ULL(3, 0))
/* config1 = MATCH1:MATCH0, config2 = MASK1:MASK0, as mainline has them. */
#define BDX_QPI_CFG_VALID	(BDX_QPI_MM0_VALID | BDX_QPI_MM1_VALID << 32)
#define BDX_QPI_EV_SEL_EXT	BIT_ULL(21)
#define BDX_QPI_CTO_COUNT	(0x38 | BDX_QPI_EV_SEL_EXT)

/*
 * Clocks bounding the poll period: HA, IRP, R2PCIe and R3QPI count UCLK;
 * the iMC DCLK is half the DDR rate, DDR4-3200 at most; the QPI clock is a
 * quarter of the transfer rate, 9.6 GT/s at most (Table 2-176).
 */
#define BDX_DCLK_MAX_HZ		1600000000ULL
#define BDX_QCLK_MAX_HZ		2400000000ULL

#define BDX_PCI_CONFIG		(BDX_CTL_EV_SEL | BDX_CTL_UMASK | \
				 BDX_CTL_EDGE | BDX_CTL_INVERT | \
				 BDX_CTL_THRESH8)

static const struct uncore_format_desc bdx_pci_formats[] = {
	{ "event",	"config:0-7" },
	{ "umask",	"config:8-15" },
	{ "edge",	"config:18" },
	{ "inv",	"config:23" },
	{ "thresh",	"config:24-31" },
	{ }
};

/* ---- HA (2.5) ----------------------------------------------------------- */

/*
 * Mainline offers no HA match fields for BDX. filter_addr takes a 4 KiB
 * aligned physical address, filter_opc the OPCODEMATCH value: message
 * class in bits 5:4 (HOM0, HOM1, NDR, SNP) and the QPI opcode in 3:0.
 */
static const struct uncore_format_desc bdx_ha_formats[] = {
	{ "event",		"config:0-7" },
	{ "umask",		"config:8-15" },
	{ "edge",		"config:18" },
	{ "inv",		"config:23" },
	{ "thresh",		"config:24-31" },
	{ "filter_addr",	"config1:0-45" },
	{ "filter_opc",		"config1:48-53" },
	{ }
};

/*
 * Only ADDR_OPC_MATCH uses the match registers: its ADDR subevent the
 * address, its OPC, AD, BL and AK subevents the opcode (Table 2-84). The
 * two are separate registers, arbitrated as two slots.
 */
static int bdx_ha_hw_config(const struct uncore_type *type,
			    struct perf_event *event, struct uncore_event *ue)
{
	u64 config = event->attr.config, config1 = event->attr.config1;
	u8 umask = FIELD_GET(BDX_CTL_UMASK, config);
	struct uncore_aux_alt *alt;
	u64 used = 0;

	if ((config & BDX_CTL_EV_SEL) == BDX_HA_EV_ADDR_OPC) {
		if (umask & BDX_HA_UMASK_ADDR) {
			used |= BDX_HA_F_ADDR;
			alt = uncore_aux_request(&ue->aux, BDX_HA_SLOT_ADDR,
						 BIT(0));
			alt->val[0] = lower_32_bits(config1 & BDX_HA_F_ADDR);
			alt->val[1] = upper_32_bits(config1 & BDX_HA_F_ADDR);
		}
		if (umask & BDX_HA_UMASK_OPC) {
			used |= BDX_HA_F_OPC;
			alt = uncore_aux_request(&ue->aux, BDX_HA_SLOT_OPC,
						 BIT(0));
			alt->val[0] = FIELD_GET(BDX_HA_F_OPC, config1);
		}
	}
	/* A match value the event would ignore is a different event. */
	if (config1 & ~used)
		return -EINVAL;
	return 0;
}

/* Box reset does not cover the match registers: the core zeroes them. */
static void bdx_ha_write_aux(struct uncore_box *box, int slot,
			     const u64 *val, u32 regs)
{
	if (slot == BDX_HA_SLOT_ADDR) {
		if (regs & BIT(0))
			uncore_pci_write(box, box->pdev, BDX_HA_ADDRMATCH0,
					 val[0]);
		if (regs & BIT(1))
			uncore_pci_write(box, box->pdev, BDX_HA_ADDRMATCH1,
					 val[1]);
	} else {
		uncore_pci_write(box, box->pdev, BDX_HA_OPCODEMATCH, val[0]);
	}
}

static const struct uncore_aux_slot bdx_ha_aux[] = {
	[BDX_HA_SLOT_ADDR] = {
		.nregs = 2, .nfields = 1,
		.field = { { lower_32_bits(BDX_HA_F_ADDR),
			     upper_32_bits(BDX_HA_F_ADDR) } },
	},
	[BDX_HA_SLOT_OPC] = {
		.nregs = 1, .nfields = 1,
		.field = { { GENMASK_ULL(5, 0) } },	/* BDX_HA_F_OPC >> 48 */
	},
};

const struct uncore_type bdx_ha = {
	.name		= "ha",
	.pci		= true,
	.num_boxes	= 2,
	.num_counters	= 4,
	.ctr_bits	= 48,
	.max_inc	= 512,
	.clock_hz	= BDX_UCLK_MAX_HZ,
	.ctl		= &bdx_ctl,
	.config_mask	= BDX_PCI_CONFIG,
	.config1_mask	= BDX_HA_F_ADDR | BDX_HA_F_OPC,
	.box_ctl	= BDX_PCI_BOX_CTL,
	.box_ctl_init	= BDX_BOX_CTL_INIT_1716,
	.box_ctl_freeze	= BDX_BOX_CTL_1716 | BDX_BOX_CTL_FRZ,
	.box_ctl_run	= BDX_BOX_CTL_1716,
	.event_ctl	= BDX_PCI_CTL0,
	.perf_ctr	= BDX_PCI_CTR0,
	.num_aux	= ARRAY_SIZE(bdx_ha_aux),
	.aux		= bdx_ha_aux,
	.box_status	= BDX_PCI_BOX_STATUS,
	.pmi_mask	= bdx_ha_pmi_mask,
	.write_aux	= bdx_ha_write_aux,
	.ops		= &uncore_pci_ops,
	.constraints	= bdx_ha_constraints,
	.formats	= bdx_ha_formats,
	.events		= bdx_ha_events,
	.hw_config	= bdx_ha_hw_config,
};

/* ---- iMC channels (2.6) ------------------------------------------------- */

const struct uncore_type bdx_imc = {
	.name		= "imc",
	.pci		= true,
	.num_boxes	= 8,
	.num_counters	= 4,
	.ctr_bits	= 48,
	.fixed_ctr_bits	= 48,
	.max_inc	= 32,
	.clock_hz	= BDX_DCLK_MAX_HZ,
	.ctl		= &bdx_ctl,
	.config_mask	= BDX_PCI_CONFIG,
	.box_ctl	= BDX_PCI_BOX_CTL,
	.box_ctl_init	= BDX_BOX_CTL_INIT_1716,
	.box_ctl_freeze	= BDX_BOX_CTL_1716 | BDX_BOX_CTL_FRZ,
	.box_ctl_run	= BDX_BOX_CTL_1716,
	.event_ctl	= BDX_PCI_CTL0,
	.perf_ctr	= BDX_PCI_CTR0,
	.fixed_ctl	= BDX_PCI_FIXED_CTL,
	.fixed_ctr	= BDX_PCI_FIXED_CTR,
	.box_status	= BDX_PCI_BOX_STATUS,
	.pmi_mask	= bdx_imc_pmi_mask,
	.ops		= &uncore_pci_ops,
	.constraints	= bdx_imc_constraints,
	.formats	= bdx_pci_formats,
	.events		= bdx_imc_events,
};

/* ---- IRP (2.7) ---------------------------------------------------------- */

/*
 * Table 2-145 (and "C0-B8 & B0-A0" in Table 1-3) put the IRP counters at
 * A0, B0, B8 and C0. Mainline's HSX/BDX code reads A0, A8, B0 and B8;
 * which one the silicon follows is not known here: the manual wins.
 */
static const u16 bdx_irp_ctrs[] = { 0xa0, 0xb0, 0xb8, 0xc0 };

const struct uncore_type bdx_irp = {
	.name		= "irp",
	.pci		= true,
	.num_boxes	= 1,
	.num_counters	= 4,
	.ctr_bits	= 48,
	.max_inc	= 128,
	.clock_hz	= BDX_UCLK_MAX_HZ,
	.ctl		= &bdx_ctl,
	.config_mask	= BDX_PCI_CONFIG,
	.box_ctl	= BDX_PCI_BOX_CTL,
	.box_ctl_init	= BDX_BOX_CTL_INIT_1716,
	.box_ctl_freeze	= BDX_BOX_CTL_1716 | BDX_BOX_CTL_FRZ,
	.box_ctl_run	= BDX_BOX_CTL_1716,
	.event_ctl	= BDX_PCI_CTL0,
	.pci_ctrs	= bdx_irp_ctrs,
	.box_status	= BDX_PCI_BOX_STATUS,
	.pmi_mask	= bdx_irp_pmi_mask,
	.ops		= &uncore_pci_ops,
	.constraints	= bdx_irp_constraints,
	.formats	= bdx_pci_formats,
	.events		= bdx_irp_events,
};

/* ---- QPI ports (2.9) ---------------------------------------------------- */

static const struct uncore_format_desc bdx_qpi_formats[] = {
	{ "event",		"config:0-7,21" },
	{ "umask",		"config:8-15" },
	{ "edge",		"config:18" },
	{ "inv",		"config:23" },
	{ "thresh",		"config:24-31" },
	{ "match_rds",		"config1:48-51" },
	{ "match_rnid30",	"config1:32-35" },
	{ "match_rnid4",	"config1:31" },
	{ "match_dnid",		"config1:13-17" },
	{ "match_mc",		"config1:9-12" },
	{ "match_opc",		"config1:5-8" },
	{ "match_vnw",		"config1:3-4" },
	{ "match0",		"config1:0-31" },
	{ "match1",		"config1:32-63" },
	{ "mask_rds",		"config2:48-51" },
	{ "mask_rnid30",	"config2:32-35" },
	{ "mask_rnid4",		"config2:31" },
	{ "mask_dnid",		"config2:13-17" },
	{ "mask_mc",		"config2:9-12" },
	{ "mask_opc",		"config2:5-8" },
	{ "mask_vnw",		"config2:3-4" },
	{ "mask0",		"config2:0-31" },
	{ "mask1",		"config2:32-63" },
	{ }
};

/*
 * Only CTO_COUNT (0x38 with ev_sel_ext, 2.9.2.3) counts match/mask hits;
 * every CTO_COUNT event claims the whole Rx set, even with a zero mask, so
 * two of them share it only when they want the same values.
 */
static int bdx_qpi_hw_config(const struct uncore_type *type,
			     struct perf_event *event, struct uncore_event *ue)
{
	struct perf_event_attr *attr = &event->attr;
	u64 sel = attr->config & (BDX_CTL_EV_SEL | BDX_QPI_EV_SEL_EXT);
	struct uncore_aux_alt *alt;

	if (sel != BDX_QPI_CTO_COUNT)
		return attr->config1 || attr->config2 ? -EINVAL : 0;
	alt = uncore_aux_request(&ue->aux, 0, BIT(0));
	alt->val[0] = lower_32_bits(attr->config1);
	alt->val[1] = upper_32_bits(attr->config1);
	alt->val[2] = lower_32_bits(attr->config2);
	alt->val[3] = upper_32_bits(attr->config2);
	return 0;
}

/*
 * The Rx set carries the user's values, as mainline's format does. The Tx
 * set is cleared at init and left so: the manual does not say what an
 * all-zero mask matches, so the Tx set could add counts to CTO_COUNT that
 * nobody asked for; see Documentation/uncore_pmu.rst.
 */
static void bdx_qpi_write_aux(struct uncore_box *box, int slot,
			      const u64 *val, u32 regs)
{
	static const u16 reg[] = {
		BDX_QPI_RX_MATCH0, BDX_QPI_RX_MATCH1,
		BDX_QPI_RX_MASK0, BDX_QPI_RX_MASK1,
	};
	int r;

	/* Only those that changed: the enabling write comes after them all. */
	for (r = 0; r < ARRAY_SIZE(reg); r++)
		if (regs & BIT(r))
			uncore_pci_write(box, box->aux_pdev, reg[r], val[r]);
}

/* The Rx MATCH0, MATCH1, MASK0, MASK1 set: one slot of one field. */
static const struct uncore_aux_slot bdx_qpi_aux[] = {
	{ .nregs = 4, .nfields = 1,
	  .field = { { BDX_QPI_MM0_VALID, BDX_QPI_MM1_VALID,
		       BDX_QPI_MM0_VALID, BDX_QPI_MM1_VALID } } },
};

static void bdx_qpi_init_box(struct uncore_box *box)
{
	static const u16 tx[] = {
		BDX_QPI_TX_MATCH0, BDX_QPI_TX_MATCH1,
		BDX_QPI_TX_MASK0, BDX_QPI_TX_MASK1,
	};
	int i;

	uncore_pci_init_box(box);
	for (i = 0; i < ARRAY_SIZE(tx); i++)
		uncore_pci_write(box, box->aux_pdev, tx[i], 0);
}

static const struct uncore_ops bdx_qpi_ops = {
	.init_box	= bdx_qpi_init_box,
	.enable_event	= uncore_pci_enable_event,
	.disable_event	= uncore_pci_disable_event,
	.read_counter	= uncore_pci_read_counter,
	.write_counter	= uncore_pci_write_counter,
	.read_ctl	= uncore_pci_read_ctl,
	UNCORE_PCI_BOX_OPS,
};

const struct uncore_type bdx_qpi = {
	.name		= "qpi",
	.pci		= true,
	.num_boxes	= 3,
	.num_counters	= 4,
	.ctr_bits	= 48,
	.max_inc	= 128,
	.clock_hz	= BDX_QCLK_MAX_HZ,
	.ctl		= &bdx_ctl,
	.config_mask	= BDX_PCI_CONFIG | BDX_QPI_EV_SEL_EXT,
	.config1_mask	= BDX_QPI_CFG_VALID,
	.config2_mask	= BDX_QPI_CFG_VALID,
	.box_ctl	= BDX_PCI_BOX_CTL,
	.box_ctl_init	= BDX_BOX_CTL_INIT_1716,
	.box_ctl_freeze	= BDX_BOX_CTL_1716 | BDX_BOX_CTL_FRZ,
	.box_ctl_run	= BDX_BOX_CTL_1716,
	.event_ctl	= BDX_PCI_CTL0,
	.perf_ctr	= BDX_PCI_CTR0,
	.num_aux	= ARRAY_SIZE(bdx_qpi_aux),
	.aux		= bdx_qpi_aux,
	.box_status	= BDX_PCI_BOX_STATUS,
	.pmi_mask	= bdx_qpi_pmi_mask,
	.write_aux	= bdx_qpi_write_aux,
	.ops		= &bdx_qpi_ops,
	.constraints	= bdx_qpi_constraints,
	.formats	= bdx_qpi_formats,
	.events		= bdx_qpi_events,
	.hw_config	= bdx_qpi_hw_config,
};

/* ---- R2PCIe (2.10) and R3QPI links (2.11) ------------------------------- */

const struct uncore_type bdx_r2pcie = {
	.name		= "r2pcie",
	.pci		= true,
	.num_boxes	= 1,
	.num_counters	= 4,
	.ctr_bits	= 48,
	.max_inc	= 24,
	.clock_hz	= BDX_UCLK_MAX_HZ,
	.ctl		= &bdx_ctl,
	.config_mask	= BDX_PCI_CONFIG,
	.box_ctl	= BDX_PCI_BOX_CTL,
	.box_ctl_init	= BDX_BOX_CTL_RST,
	.box_ctl_freeze	= BDX_BOX_CTL_FRZ,
	/* 2.10.2: "write the R2PCIe PMON control registers twice" */
	.write_twice	= true,
	.event_ctl	= BDX_PCI_CTL0,
	.perf_ctr	= BDX_PCI_CTR0,
	.box_status	= BDX_PCI_BOX_STATUS,
	.pmi_mask	= bdx_r2pcie_pmi_mask,
	.ops		= &uncore_pci_ops,
	.constraints	= bdx_r2pcie_constraints,
	.formats	= bdx_pci_formats,
	.events		= bdx_r2pcie_events,
};

/*
 * 48-bit counters per 2.11 and Table 1-1; Table 2-235 prints 44 bits.
 * Mainline uses 48 for BDX too.
 */
const struct uncore_type bdx_r3qpi = {
	.name		= "r3qpi",
	.pci		= true,
	.num_boxes	= 3,
	.num_counters	= 3,
	.ctr_bits	= 48,
	.max_inc	= 32,
	.clock_hz	= BDX_UCLK_MAX_HZ,
	.ctl		= &bdx_ctl,
	.config_mask	= BDX_PCI_CONFIG,
	.box_ctl	= BDX_PCI_BOX_CTL,
	.box_ctl_init	= BDX_BOX_CTL_RST,
	.box_ctl_freeze	= BDX_BOX_CTL_FRZ,
	/* 2.11.1: "write the R3 PMON control registers twice" */
	.write_twice	= true,
	.event_ctl	= BDX_PCI_CTL0,
	.perf_ctr	= BDX_PCI_CTR0,
	.box_status	= BDX_PCI_BOX_STATUS,
	.pmi_mask	= bdx_r3qpi_pmi_mask,
	.ops		= &uncore_pci_ops,
	.constraints	= bdx_r3qpi_constraints,
	.formats	= bdx_pci_formats,
	.events		= bdx_r3qpi_events,
};

static const struct uncore_type * const bdx_pci_types[] = {
	&bdx_ha,
	&bdx_imc,
	&bdx_irp,
	&bdx_qpi,
	&bdx_r2pcie,
	&bdx_r3qpi,
};

/* ---- The PCI driver ----------------------------------------------------- */

enum { BDX_HA, BDX_IMC, BDX_IRP, BDX_QPI, BDX_R2PCIE, BDX_R3QPI };

#define BDX_PCI_BOX(did, t, i) \
	{ PCI_VDEVICE(INTEL, did), .driver_data = (t) << 8 | (i) }

/*
 * Table 1-3. iMC boxes are numbered as the manual numbers the channels:
 * imc_0-3 are iMC0 channels 0-3, imc_4-7 iMC1's. (Mainline numbers them in
 * device ID order, so its imc_0 is the manual's iMC0 channel 2.)
 */
static const struct pci_device_id bdx_pci_ids[] = {
	BDX_PCI_BOX(0x6f30, BDX_HA, 0),		/* D18:F1 */
	BDX_PCI_BOX(0x6f38, BDX_HA, 1),		/* D18:F5 */
	BDX_PCI_BOX(0x6fb4, BDX_IMC, 0),	/* D20:F0 */
	BDX_PCI_BOX(0x6fb5, BDX_IMC, 1),	/* D20:F1 */
	BDX_PCI_BOX(0x6fb0, BDX_IMC, 2),	/* D21:F0 */
	BDX_PCI_BOX(0x6fb1, BDX_IMC, 3),	/* D21:F1 */
	BDX_PCI_BOX(0x6fd4, BDX_IMC, 4),	/* D23:F0 */
	BDX_PCI_BOX(0x6fd5, BDX_IMC, 5),	/* D23:F1 */
	BDX_PCI_BOX(0x6fd0, BDX_IMC, 6),	/* D24:F0 */
	BDX_PCI_BOX(0x6fd1, BDX_IMC, 7),	/* D24:F1 */
	BDX_PCI_BOX(0x6f39, BDX_IRP, 0),	/* D5:F6 */
	BDX_PCI_BOX(0x6f32, BDX_QPI, 0),	/* D8:F2 */
	BDX_PCI_BOX(0x6f33, BDX_QPI, 1),	/* D9:F2 */
	BDX_PCI_BOX(0x6f3a, BDX_QPI, 2),	/* D10:F2 */
	BDX_PCI_BOX(0x6f34, BDX_R2PCIE, 0),	/* D16:F1 */
	BDX_PCI_BOX(0x6f36, BDX_R3QPI, 0),	/* D11:F1 */
	BDX_PCI_BOX(0x6f37, BDX_R3QPI, 1),	/* D11:F2 */
	BDX_PCI_BOX(0x6f3e, BDX_R3QPI, 2),	/* D11:F5 */
	{ }
};

/* Match/mask function of each QPI port: function 6 of its device. */
static const u16 bdx_qpi_mm_ids[] = { 0x6f86, 0x6f96, 0x6f46 };

static struct pci_dev *bdx_qpi_mm_dev(struct pci_dev *pdev, int port)
{
	struct pci_dev *mm = pci_get_slot(pdev->bus,
					  PCI_DEVFN(PCI_SLOT(pdev->devfn), 6));

	if (mm && mm->vendor == PCI_VENDOR_ID_INTEL &&
	    mm->device == bdx_qpi_mm_ids[port])
		return mm;
	pci_dev_put(mm);
	return NULL;
}

static int bdx_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	int t = id->driver_data >> 8, idx = id->driver_data & 0xff;
	const struct uncore_type *type = bdx_pci_types[t];
	struct pci_dev *aux = NULL;
	int pkg, err;

	pkg = bdx_bus_to_pkg(pdev->bus);
	if (pkg < 0)
		return -ENODEV;
	/* QPI port 2 and R3QPI link 2: only if CAPID4 says so (1.6). */
	if ((t == BDX_QPI || t == BDX_R3QPI) && idx == 2 &&
	    !bdx_has_port2(pkg)) {
		pci_warn(pdev, "CAPID4 of package %d says there is no QPI port 2: not registered\n",
			 pkg);
		return -ENODEV;
	}
	if (t == BDX_QPI) {
		aux = bdx_qpi_mm_dev(pdev, idx);
		if (!aux) {
			pci_warn(pdev, "QPI port %d has no match/mask function (%04x at function 6): not registered\n",
				 idx, bdx_qpi_mm_ids[idx]);
			return -ENODEV;
		}
	}
	err = uncore_pci_box_add(type, idx, pkg, pdev, aux);
	pci_dev_put(aux);
	if (err == -EBUSY)
		pci_warn(pdev, "package %d has uncore_%s box %d already\n",
			 pkg, type->name, idx);
	return err;
}

static void bdx_pci_remove(struct pci_dev *pdev)
{
	uncore_pci_box_remove(pdev);
}

struct pci_driver bdx_pci_driver = {
	.name		= KBUILD_MODNAME,
	.id_table	= bdx_pci_ids,
	.probe		= bdx_pci_probe,
	.remove		= bdx_pci_remove,
};
