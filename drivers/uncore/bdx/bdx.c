// SPDX-License-Identifier: GPL-2.0
/*
 * Intel Xeon E5/E7 v4 (Broadwell-EP/EX, "BDX") uncore: the MSR boxes.
 *
 * Source: Intel Xeon Processor E5 and E7 v4 Product Families Uncore
 * Performance Monitoring Reference Manual, 334291-001 ("the manual"); the
 * section numbers below are its own.
 *
 * Format names and bit positions follow mainline's BDX uncore driver, which
 * perf's broadwellx JSON events, likwid and libpfm4 rely on. Where mainline
 * departs from the manual this says so at the spot.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/topology.h>

#include "uncore.h"
#include "../intel/pmon.h"
#include "bdx.h"
#include "bdx_tables.h"

/* MSR addresses: Table 1-2, Tables 2-5, 2-13, 2-44 and 2-156. */
#define BDX_U_MSR_PMON_GLOBAL_CTL	0x700
#define BDX_U_MSR_PMON_GLOBAL_STATUS	0x701
#define BDX_U_MSR_PMON_UCLK_FIXED_CTL	0x703
#define BDX_U_MSR_PMON_UCLK_FIXED_CTR	0x704
#define BDX_U_MSR_PMON_CTL0		0x705
#define BDX_U_MSR_PMON_BOX_STATUS	0x708
#define BDX_U_MSR_PMON_CTR0		0x709
#define BDX_C0_MSR_PMON_BOX_CTL		0xe00
#define BDX_C0_MSR_PMON_CTL0		0xe01
#define BDX_C0_MSR_PMON_BOX_FILTER0	0xe05
#define BDX_C0_MSR_PMON_BOX_FILTER1	0xe06
#define BDX_C0_MSR_PMON_CTR0		0xe08
#define BDX_CBO_MSR_STRIDE		0x10
#define BDX_PCU_MSR_PMON_BOX_CTL	0x710
#define BDX_PCU_MSR_PMON_CTL0		0x711
#define BDX_PCU_MSR_PMON_BOX_FILTER	0x715
#define BDX_PCU_MSR_PMON_BOX_STATUS	0x716
#define BDX_PCU_MSR_PMON_CTR0		0x717
#define BDX_S0_MSR_PMON_BOX_CTL		0x720
#define BDX_S0_MSR_PMON_CTL0		0x721
#define BDX_S0_MSR_PMON_CTR0		0x726
#define BDX_SBO_MSR_STRIDE		0xa

/*
 * Box control (Tables 2-14, 2-45, 2-157): bits 17:16
 * "SW must write to 1 else behavior is undefined"; rst_ctrl (0) and
 * rst_ctrs (1) clear the box's controls and counters.
 */
#define BDX_BOX_CTL_RESERVED_ONES	(BIT_ULL(17) | BIT_ULL(16))
#define BDX_BOX_CTL_INIT		(BDX_BOX_CTL_RESERVED_ONES | \
					 BIT_ULL(1) | BIT_ULL(0))
/* frz (bit 8, write-only): every counter of the box stops as it is. */
#define BDX_BOX_CTL_FREEZE		(BDX_BOX_CTL_RESERVED_ONES | BIT_ULL(8))

/* Discovery (1.6, 1.6.1): devices on each package's uncore bus. */
#define BDX_UBOX_NODEID_DID		0x6f1e
#define BDX_UBOX_LOCAL_NODEID		0x40
#define BDX_UBOX_NODEID_MAP		0x54
#define BDX_PCU3_DID			0x6fc0
#define BDX_PCU3_DEVFN			PCI_DEVFN(30, 3)
#define BDX_CAPID4			0x94
#define BDX_CAPID5			0x98

/* CBo FILTER0/1 (2.3.2.3, Tables 2-18, 2-19) as one value, FILTER1 high. */
#define BDX_CBO_F_TID		GENMASK_ULL(5, 0)
#define BDX_CBO_F_STATE		GENMASK_ULL(23, 17)
#define BDX_CBO_F_NID		GENMASK_ULL(47, 32)
#define BDX_CBO_F_OPC		GENMASK_ULL(60, 52)
#define BDX_CBO_F_NC		BIT_ULL(62)
#define BDX_CBO_F_ISOC		BIT_ULL(63)
#define BDX_CBO_F_ALL		(BDX_CBO_F_TID | BDX_CBO_F_STATE | BDX_CBO_F_NID | \
				 BDX_CBO_F_OPC | BDX_CBO_F_NC | BDX_CBO_F_ISOC)

/* PCU control (Table 2-159): occupancy fields and the 5-bit threshold. */
#define BDX_PCU_OCC_SEL		GENMASK_ULL(15, 14)
#define BDX_PCU_OCC_INVERT	BIT_ULL(30)
#define BDX_PCU_OCC_EDGE	BIT_ULL(31)
#define BDX_PCU_EV_OCC		0x80	/* ev_sel bit 7: occupancy sub-counter */

/* "up to 24 instances of the CBo" (2.3), one CAPID5 bit each (1.6). */
#define BDX_NUM_CBOS		24

/* PCLK is a fixed 800 MHz (2.8.6, PCU CLOCKTICKS). */
#define BDX_PCLK_HZ		800000000ULL

#define BDX_COMMON_CONFIG	(BDX_CTL_EV_SEL | BDX_CTL_UMASK | \
				 BDX_CTL_EDGE | BDX_CTL_INVERT)

/*
 * Counter controls (1.4; each box's CTLn table): en 22, ov_en 20, thresh
 * 31:24, and invert and edge, which act on the threshold comparison's
 * output, so that they need a threshold (1.4). The fixed counters' controls
 * (Table 2-9 U_MSR_PMON_FIXED_CTL, Table 2-116 MC_CHy_PCI_PMON_FIXED_CTL)
 * have en and ov_en at the same bits. CBo and SBo have no ov_en (bit 20 reserved); UBox and PCU
 * have a 5-bit threshold, 28:24 (PCU 31:30 are occupancy controls).
 */
/*
 * Every field of a counter control is RW, only rst (17) write-only (the
 * tables of 001:1619-14161; bit 16 is reserved): what reads back as
 * written, for uncore_check_foreign().
 */
#define BDX_CTL_READBACK	(GENMASK_ULL(31, 18) | GENMASK_ULL(15, 0))

const struct uncore_ctl_layout bdx_ctl = {
	.en		= BDX_CTL_EN,
	.fixed_en	= BDX_CTL_EN,
	.ov_en		= BDX_CTL_OV_EN,
	.thresh		= BDX_CTL_THRESH8,
	.need_thresh	= BDX_CTL_INVERT | BDX_CTL_EDGE,
	.readback	= BDX_CTL_READBACK,
};

const struct uncore_ctl_layout bdx_ctl_noint = {
	.en		= BDX_CTL_EN,
	.thresh		= BDX_CTL_THRESH8,
	.need_thresh	= BDX_CTL_INVERT | BDX_CTL_EDGE,
	.readback	= BDX_CTL_READBACK,
};

const struct uncore_ctl_layout bdx_ctl_thresh5 = {
	.en		= BDX_CTL_EN,
	.fixed_en	= BDX_CTL_EN,
	.ov_en		= BDX_CTL_OV_EN,
	.thresh		= BDX_CTL_THRESH5,
	.need_thresh	= BDX_CTL_INVERT | BDX_CTL_EDGE,
	.readback	= BDX_CTL_READBACK,
};

static u32 bdx_cbo_mask[BDX_MAX_PKGS];
static int bdx_sbo_count[BDX_MAX_PKGS];
static bool bdx_port2[BDX_MAX_PKGS];
static bool bdx_discovered[BDX_MAX_PKGS];

/* Each package's uncore bus, found through its UBox node-ID device. */
static struct {
	int domain;
	int bus;
} bdx_pkg_bus[BDX_MAX_PKGS];
static bool bdx_bus_mapped[BDX_MAX_PKGS];

/* ---- UBox (2.2) --------------------------------------------------------- */

static const struct uncore_format_desc bdx_ubox_formats[] = {
	{ "event",	"config:0-7" },
	{ "umask",	"config:8-15" },
	{ "edge",	"config:18" },
	{ "inv",	"config:23" },
	{ "thresh",	"config:24-28" },
	{ }
};

/* The UBox's general counters report in ov_u, its fixed one in ov_u_fixed. */
static u64 bdx_ubox_pmi_mask(int idx)
{
	return BDX_GSTS_OV_U | BDX_GSTS_OV_U_FIXED;
}

/* 2.2.5: UBox events are defined for counters 0-1, i.e. both. */
static const struct uncore_type bdx_ubox = {
	.name		= "ubox",
	.num_boxes	= 1,
	.num_counters	= 2,
	.ctr_bits	= 48,
	.fixed_ctr_bits	= 48,
	.max_inc	= 1,
	.clock_hz	= BDX_UCLK_MAX_HZ,
	.ctl		= &bdx_ctl_thresh5,
	.config_mask	= BDX_COMMON_CONFIG | BDX_CTL_THRESH5,
	.event_ctl	= BDX_U_MSR_PMON_CTL0,
	.perf_ctr	= BDX_U_MSR_PMON_CTR0,
	.fixed_ctl	= BDX_U_MSR_PMON_UCLK_FIXED_CTL,
	.fixed_ctr	= BDX_U_MSR_PMON_UCLK_FIXED_CTR,
	.box_status	= BDX_U_MSR_PMON_BOX_STATUS,
	.pmi_mask	= bdx_ubox_pmi_mask,
	.ops		= &uncore_msr_ops,
	.constraints	= bdx_ubox_constraints,
	.formats	= bdx_ubox_formats,
	.events		= bdx_ubox_events,
};

/* ---- CBo (2.3) ---------------------------------------------------------- */

/*
 * Mainline's BDX cbox format has no "inv" although its raw event mask
 * accepts bit 23; the manual (Table 2-16) defines invert, so it is offered.
 * Mainline's filter_link (config1:6-8) and filter_c6 (config1:61) are
 * reserved bits in the manual (FILTER0[16:6], FILTER1[29]) and are not.
 */
static const struct uncore_format_desc bdx_cbox_formats[] = {
	{ "event",		"config:0-7" },
	{ "umask",		"config:8-15" },
	{ "edge",		"config:18" },
	{ "tid_en",		"config:19" },
	{ "inv",		"config:23" },
	{ "thresh",		"config:24-31" },
	{ "filter_tid",		"config1:0-5" },
	{ "filter_state",	"config1:17-23" },
	{ "filter_nid",		"config1:32-47" },
	{ "filter_opc",		"config1:52-60" },
	{ "filter_nc",		"config1:62" },
	{ "filter_isoc",	"config1:63" },
	{ }
};

/*
 * The parts of FILTER1:FILTER0 an event uses (2.3.2.3 and the events'
 * "Filter Dependency" columns): LLC_LOOKUP (0x34) the state; the NID
 * subevents (umask bit 6) of LLC_LOOKUP, TOR_*, LLC_VICTIMS and the
 * RxR_*_RETRY* events, and RxR_ISMQ_RETRY.WB_CREDITS, the node ID; the
 * OPCODE subevents (umask bit 0) of TOR_INSERTS/TOR_OCCUPANCY the opcode
 * match with its nc/isoc qualifiers; any event with tid_en the thread ID.
 */
static u64 bdx_cbox_filter_bits(u64 config)
{
	u8 ev = config & BDX_CTL_EV_SEL;
	u8 umask = (config & BDX_CTL_UMASK) >> 8;
	u64 bits = 0;

	if (config & BDX_CTL_TID_EN)
		bits |= BDX_CBO_F_TID;
	if (ev == 0x34)
		bits |= BDX_CBO_F_STATE;
	switch (ev) {
	case 0x28: case 0x29: case 0x2a: case 0x32:
	case 0x34: case 0x35: case 0x36: case 0x37:
		if (umask & 0x40)
			bits |= BDX_CBO_F_NID;
		break;
	case 0x33:
		if (umask & 0xc0)
			bits |= BDX_CBO_F_NID;
		break;
	}
	if ((ev == 0x35 || ev == 0x36) && (umask & 0x01))
		bits |= BDX_CBO_F_OPC | BDX_CBO_F_NC | BDX_CBO_F_ISOC;
	return bits;
}

/* Once per CBo pmu: bit n set when uncore_cbox_<n> has given the notice. */
static DECLARE_BITMAP(bdx_cbox_opc_noticed, BDX_NUM_CBOS);

/*
 * An OPCODE subevent without filter_opc programs FILTER1.opc = 0 and so
 * matches opcode 0, which no IDI request carries (Table 2-20 lists
 * 0x180-0x1e6 only): on the part it counts nothing. Say so once per pmu,
 * with what was programmed; event_init runs this on every open, so it only
 * tests a bit. A pmu-less event (the KUnit suites) has no name to give.
 */
static void bdx_cbox_opc_notice(struct perf_event *event)
{
	u64 config = event->attr.config;
	int idx;

	if (!event->pmu)
		return;
	idx = container_of(event->pmu, struct uncore_pmu, pmu)->idx;
	if (idx < 0 || idx >= BDX_NUM_CBOS ||
	    test_and_set_bit(idx, bdx_cbox_opc_noticed))
		return;
	pr_notice("%s: event 0x%02llx umask 0x%02llx is an OPCODE subevent without filter_opc: FILTER1.opc is programmed 0, which no request carries (manual Table 2-20), so it counts nothing on the part; give filter_opc=0x180-0x1ff (e.g. 0x182 DRd)\n",
		  event->pmu->name, config & BDX_CTL_EV_SEL,
		  (config & BDX_CTL_UMASK) >> 8);
}

/*
 * A CBo "allows only one such event to be programmed at a given time"
 * (2.3.1) and "only one of these filtering criteria may be applied at a
 * time" (2.3.2.3): the two registers are one slot of one field. Events
 * share it only when they need the very same FILTER1:FILTER0 value.
 */
static int bdx_cbox_hw_config(const struct uncore_type *type,
			      struct perf_event *event, struct uncore_event *ue)
{
	struct uncore_aux_alt *alt;
	u64 config = event->attr.config, config1 = event->attr.config1;
	u64 opc = FIELD_GET(BDX_CBO_F_OPC, config1);
	u64 used;

	/*
	 * The thread ID filter applies to a counter only with its tid_en
	 * (2.3.2.3). perf's own broadwellx events (LLC_MISSES.PCIE_*,
	 * LLC_REFERENCES.PCIE_*) give filter_tid=0x3e alone, meaning "PCIe
	 * requests": a thread ID asks for the thread filter, so tid_en is set
	 * for it rather than counting every requester under the event's name.
	 */
	if ((config1 & BDX_CBO_F_TID) && !(config & BDX_CTL_TID_EN)) {
		ue->aux.ctl = BDX_CTL_TID_EN;
		config |= BDX_CTL_TID_EN;
	}
	used = bdx_cbox_filter_bits(config);

	/* A filter value the event would ignore is a different event: refuse. */
	if (config1 & ~used)
		return -EINVAL;
	/*
	 * Table 2-19, FILTER1.opc: "7b IDI Opcode w/top 2b 0x3", so every
	 * opcode of Table 2-20 is in 0x180-0x1ff; any other non-zero value is
	 * refused. perf cannot tell filter_opc=0 from no filter_opc, so 0 is
	 * "not given": the event opens (mainline's users write OPCODE
	 * subevents that way) but is said out loud, see bdx_cbox_opc_notice().
	 */
	if (opc && (opc & 0x180) != 0x180)
		return -EINVAL;
	if (!opc && (used & BDX_CBO_F_OPC))
		bdx_cbox_opc_notice(event);
	if (used) {
		alt = uncore_aux_request(&ue->aux, 0, BIT(0));
		alt->val[0] = lower_32_bits(config1);
		alt->val[1] = upper_32_bits(config1);
	}
	return 0;
}

/*
 * FILTER0, then FILTER1, each only if its value changed: the two are
 * independent registers, read only while an event that uses them counts,
 * and that event's enabling write comes after both. The core writes zeros
 * after box init (2.3.2.3).
 */
static void bdx_cbox_write_aux(struct uncore_box *box, int slot,
			       const u64 *val, u32 regs)
{
	if (regs & BIT(0))
		uncore_msr_write(box, BDX_C0_MSR_PMON_BOX_FILTER0 +
				 box->msr_base, val[0]);
	if (regs & BIT(1))
		uncore_msr_write(box, BDX_C0_MSR_PMON_BOX_FILTER1 +
				 box->msr_base, val[1]);
}

static const struct uncore_aux_slot bdx_cbox_aux[] = {
	{ .nregs = 2, .nfields = 1,
	  .field = { { lower_32_bits(BDX_CBO_F_ALL),
		       upper_32_bits(BDX_CBO_F_ALL) } } },
};

static bool bdx_cbox_present(const struct uncore_type *type, int idx, int pkg)
{
	return pkg < BDX_MAX_PKGS && (bdx_cbo_mask[pkg] & BIT(idx));
}

static const struct uncore_type bdx_cbox = {
	.name		= "cbox",
	.num_boxes	= BDX_NUM_CBOS,
	.num_counters	= 4,
	.ctr_bits	= 48,
	.max_inc	= 1,
	.clock_hz	= BDX_UCLK_MAX_HZ,
	.ctl		= &bdx_ctl_noint,
	.config_mask	= BDX_COMMON_CONFIG | BDX_CTL_TID_EN |
			  BDX_CTL_THRESH8,
	.config1_mask	= BDX_CBO_F_ALL,
	.box_ctl	= BDX_C0_MSR_PMON_BOX_CTL,
	.box_ctl_init	= BDX_BOX_CTL_INIT,
	.box_ctl_freeze	= BDX_BOX_CTL_FREEZE,
	.box_ctl_run	= BDX_BOX_CTL_RESERVED_ONES,
	.event_ctl	= BDX_C0_MSR_PMON_CTL0,
	.perf_ctr	= BDX_C0_MSR_PMON_CTR0,
	.box_stride	= BDX_CBO_MSR_STRIDE,
	.num_aux	= ARRAY_SIZE(bdx_cbox_aux),
	.aux		= bdx_cbox_aux,
	.write_aux	= bdx_cbox_write_aux,
	.ops		= &uncore_msr_ops,
	.constraints	= bdx_cbox_constraints,
	.formats	= bdx_cbox_formats,
	.events		= bdx_cbox_events,
	.hw_config	= bdx_cbox_hw_config,
	.present	= bdx_cbox_present,
};

/* ---- PCU (2.8) ---------------------------------------------------------- */

/*
 * Mainline spells occ_edge "config:14-51", which overlaps occ_sel and the
 * upper config bits; the manual (Table 2-159) puts occ_edge_det at bit 31.
 */
static const struct uncore_format_desc bdx_pcu_formats[] = {
	{ "event",		"config:0-7" },
	{ "occ_sel",		"config:14-15" },
	{ "edge",		"config:18" },
	{ "inv",		"config:23" },
	{ "thresh",		"config:24-28" },
	{ "occ_invert",		"config:30" },
	{ "occ_edge",		"config:31" },
	{ "filter_band0",	"config1:0-7" },
	{ "filter_band1",	"config1:8-15" },
	{ "filter_band2",	"config1:16-23" },
	{ "filter_band3",	"config1:24-31" },
	{ }
};

static int bdx_pcu_hw_config(const struct uncore_type *type,
			     struct perf_event *event, struct uncore_event *ue)
{
	struct uncore_aux_alt *alt;
	u64 config = event->attr.config, config1 = event->attr.config1;
	u8 ev = config & BDX_CTL_EV_SEL;
	bool occ = ev & BDX_PCU_EV_OCC;
	int band;

	/* occ_* fields only mean something to an occupancy event (2.8.2.2). */
	if (!occ && (config & (BDX_PCU_OCC_SEL | BDX_PCU_OCC_INVERT |
			       BDX_PCU_OCC_EDGE)))
		return -EINVAL;
	/* occ_sel 0 selects no core state: the event could only count 0. */
	if (occ && !(config & BDX_PCU_OCC_SEL))
		return -EINVAL;
	if ((config & (BDX_PCU_OCC_INVERT | BDX_PCU_OCC_EDGE)) &&
	    !(config & BDX_CTL_THRESH5))
		return -EINVAL;

	/* FREQ_BAND0..3_CYCLES (0x0b-0x0e) compare against filter byte n. */
	if (ev >= 0x0b && ev <= 0x0e) {
		band = ev - 0x0b;
		if (config1 & ~type->aux[0].field[band][0])
			return -EINVAL;
		alt = uncore_aux_request(&ue->aux, 0, BIT(band));
		alt->val[0] = config1;
	} else if (config1) {
		return -EINVAL;
	}
	return 0;
}

static void bdx_pcu_write_aux(struct uncore_box *box, int slot,
			      const u64 *val, u32 regs)
{
	uncore_msr_write(box, BDX_PCU_MSR_PMON_BOX_FILTER, val[0]);
}

/* One filter register, a band threshold per byte, each its own field. */
static const struct uncore_aux_slot bdx_pcu_aux[] = {
	{ .nregs = 1, .nfields = 4,
	  .field = { { GENMASK_ULL(7, 0) }, { GENMASK_ULL(15, 8) },
		     { GENMASK_ULL(23, 16) }, { GENMASK_ULL(31, 24) } } },
};

static u64 bdx_pcu_pmi_mask(int idx)
{
	return BDX_GSTS_OV_P;
}

static const struct uncore_type bdx_pcu = {
	.name		= "pcu",
	.num_boxes	= 1,
	.num_counters	= 4,
	.ctr_bits	= 48,
	.max_inc	= 1,
	.clock_hz	= BDX_PCLK_HZ,
	.ctl		= &bdx_ctl_thresh5,
	.config_mask	= BDX_CTL_EV_SEL | BDX_PCU_OCC_SEL | BDX_CTL_EDGE |
			  BDX_CTL_INVERT | BDX_CTL_THRESH5 |
			  BDX_PCU_OCC_INVERT | BDX_PCU_OCC_EDGE,
	.config1_mask	= GENMASK_ULL(31, 0),
	.box_ctl	= BDX_PCU_MSR_PMON_BOX_CTL,
	.box_ctl_init	= BDX_BOX_CTL_INIT,
	.box_ctl_freeze	= BDX_BOX_CTL_FREEZE,
	.box_ctl_run	= BDX_BOX_CTL_RESERVED_ONES,
	.event_ctl	= BDX_PCU_MSR_PMON_CTL0,
	.perf_ctr	= BDX_PCU_MSR_PMON_CTR0,
	.box_status	= BDX_PCU_MSR_PMON_BOX_STATUS,
	.pmi_mask	= bdx_pcu_pmi_mask,
	.num_aux	= ARRAY_SIZE(bdx_pcu_aux),
	.aux		= bdx_pcu_aux,
	.write_aux	= bdx_pcu_write_aux,
	.ops		= &uncore_msr_ops,
	.constraints	= bdx_pcu_constraints,
	.formats	= bdx_pcu_formats,
	.events		= bdx_pcu_events,
	.hw_config	= bdx_pcu_hw_config,
};

/* ---- SBo (2.4) ---------------------------------------------------------- */

static const struct uncore_format_desc bdx_sbox_formats[] = {
	{ "event",	"config:0-7" },
	{ "umask",	"config:8-15" },
	{ "edge",	"config:18" },
	{ "tid_en",	"config:19" },
	{ "inv",	"config:23" },
	{ "thresh",	"config:24-31" },
	{ }
};

static int bdx_sbox_hw_config(const struct uncore_type *type,
			      struct perf_event *event, struct uncore_event *ue)
{
	/*
	 * The SBo control has tid_en (Table 2-47) but the manual documents no
	 * SBo filter register to hold a thread ID: what it would count is
	 * unknown, so the bit stays in the format (mainline has it) and is
	 * refused.
	 */
	if (event->attr.config & BDX_CTL_TID_EN)
		return -EINVAL;
	return 0;
}

static bool bdx_sbox_present(const struct uncore_type *type, int idx, int pkg)
{
	return pkg < BDX_MAX_PKGS && idx < bdx_sbo_count[pkg];
}

static const struct uncore_type bdx_sbox = {
	.name		= "sbox",
	.num_boxes	= 4,
	.num_counters	= 4,
	.ctr_bits	= 48,
	.max_inc	= 1,
	.clock_hz	= BDX_UCLK_MAX_HZ,
	.ctl		= &bdx_ctl_noint,
	.config_mask	= BDX_COMMON_CONFIG | BDX_CTL_TID_EN |
			  BDX_CTL_THRESH8,
	.box_ctl	= BDX_S0_MSR_PMON_BOX_CTL,
	.box_ctl_init	= BDX_BOX_CTL_INIT,
	.box_ctl_freeze	= BDX_BOX_CTL_FREEZE,
	.box_ctl_run	= BDX_BOX_CTL_RESERVED_ONES,
	/* 2.4.1: "write the SBo PMON control registers twice" */
	.write_twice	= true,
	.event_ctl	= BDX_S0_MSR_PMON_CTL0,
	.perf_ctr	= BDX_S0_MSR_PMON_CTR0,
	.box_stride	= BDX_SBO_MSR_STRIDE,
	.ops		= &uncore_msr_ops,
	.constraints	= bdx_sbox_constraints,
	.formats	= bdx_sbox_formats,
	.events		= bdx_sbox_events,
	.hw_config	= bdx_sbox_hw_config,
	.present	= bdx_sbox_present,
};

/* ---- Discovery ---------------------------------------------------------- */

/**
 * bdx_nodeid_to_pkg() - package of a UBox from its node-ID registers
 * @local_nodeid_reg: the UBox's config dword 0x40 (node ID in bits 2:0)
 * @nodeid_map_reg: its config dword 0x54 (3 bits per package)
 * @max_pkgs: packages the system can have; fields beyond are unused
 *
 * BDX manual section 1.6.1: package i is the one whose 3-bit field
 * (bits 3i+2:3i) of the mapping register equals the local node ID. The
 * manual's sample code compares the field unshifted, which only works for
 * package 0; this compares the shifted field. A map in which two used
 * fields hold the same node ID cannot be trusted and maps nothing.
 *
 * Return: the physical package id, -ENOENT if no used field matches, or
 * -EINVAL if the map is ambiguous.
 */
static int bdx_nodeid_to_pkg(u32 local_nodeid_reg, u32 nodeid_map_reg,
			     int max_pkgs)
{
	u32 nodeid = local_nodeid_reg & 0x7;
	int i, pkg = -ENOENT;

	for (i = 0; i < min(max_pkgs, 8); i++) {
		if (((nodeid_map_reg >> (3 * i)) & 0x7) != nodeid)
			continue;
		if (pkg >= 0)
			return -EINVAL;
		pkg = i;
	}
	return pkg;
}

/**
 * bdx_capid5_cbos() - CBo boxes present, from CAPID5
 * @capid5: Device 30 Function 3 offset 0x98
 *
 * BDX manual section 1.6, note before Table 1-2: bit n of CAPID5[23:0]
 * set means LLC slice n, and so CBo n's PMON block, exists. The set may
 * have holes.
 *
 * Return: bitmap of present CBos.
 */
static u32 bdx_capid5_cbos(u32 capid5)
{
	return capid5 & GENMASK(23, 0);
}

/**
 * bdx_capid4_sboxes() - number of SBo boxes, from CAPID4
 * @capid4: Device 30 Function 3 offset 0x94
 *
 * BDX manual section 1.6, note before Table 1-2: CAPID4[7:6] = 00: no
 * SBo; 01: 4 SBos (2 QPI links); 10: 4 SBos (3 QPI links); 11 undefined.
 *
 * Return: 0 or 4, or -EINVAL for the undefined encoding.
 */
static int bdx_capid4_sboxes(u32 capid4)
{
	switch ((capid4 >> 6) & 0x3) {
	case 0:
		return 0;
	case 1:
	case 2:
		return 4;
	default:
		return -EINVAL;
	}
}

static void bdx_read_capids(struct pci_bus *bus, int pkg)
{
	struct pci_dev *pcu3 = pci_get_slot(bus, BDX_PCU3_DEVFN);
	u32 capid4, capid5;
	int sbos;

	if (!pcu3 || pcu3->vendor != PCI_VENDOR_ID_INTEL ||
	    pcu3->device != BDX_PCU3_DID) {
		pr_warn("package %d: no CAPID device at %04x:%02x:1e.3; its CBo and SBo boxes are not registered\n",
			pkg, pci_domain_nr(bus), bus->number);
		pci_dev_put(pcu3);
		return;
	}
	pci_read_config_dword(pcu3, BDX_CAPID4, &capid4);
	pci_read_config_dword(pcu3, BDX_CAPID5, &capid5);
	pci_dev_put(pcu3);

	sbos = bdx_capid4_sboxes(capid4);
	if (sbos < 0) {
		pr_warn("package %d: CAPID4 0x%08x has the undefined SBo encoding 11; no SBo registered\n",
			pkg, capid4);
		sbos = 0;
	}
	bdx_cbo_mask[pkg] = bdx_capid5_cbos(capid5);
	bdx_sbo_count[pkg] = sbos;
	bdx_port2[pkg] = ((capid4 >> 6) & 0x3) == 2;
	bdx_discovered[pkg] = true;
}

/**
 * bdx_bus_to_pkg() - the package whose uncore bus @bus is
 * @bus: a PCI bus carrying uncore PMON functions
 *
 * Return: the logical package, or -ENODEV for a bus discovery did not map
 * (already reported when discovery saw its UBox device).
 */
int bdx_bus_to_pkg(struct pci_bus *bus)
{
	int pkg;

	for (pkg = 0; pkg < BDX_MAX_PKGS; pkg++)
		if (bdx_bus_mapped[pkg] &&
		    bdx_pkg_bus[pkg].domain == pci_domain_nr(bus) &&
		    bdx_pkg_bus[pkg].bus == bus->number)
			return pkg;
	return -ENODEV;
}

/**
 * bdx_has_port2() - does CAPID4 give package @pkg a third QPI port
 * @pkg: logical package
 *
 * Return: true for CAPID4[7:6] = 10b (1.6, Table 1-4).
 */
bool bdx_has_port2(int pkg)
{
	return pkg >= 0 && pkg < BDX_MAX_PKGS && bdx_port2[pkg];
}

/*
 * Map every package's uncore bus through the UBox node-ID registers (1.6.1)
 * and read its CAPID4/CAPID5 (1.6). A bus that maps to no package, or to one
 * already seen, is reported and skipped: attributing a box to the wrong
 * package would silently mix two sockets' counts.
 */
/*
 * Node-ID map fields in use: one per socket, up to the highest physical
 * package a present CPU has. Not topology_max_packages(): with slots for
 * hot-pluggable CPUs in the firmware tables it counts more packages than
 * there are, and an unused field (often 0) would match node ID 0.
 */
static int bdx_map_fields(void)
{
	int cpu, n = 0;

	/* The ID is a u16 on 6.1 and a u32 on 6.12; small either way. */
	for_each_present_cpu(cpu)
		n = max(n, (int)topology_physical_package_id(cpu) + 1);
	return min(n, BDX_MAX_PKGS);
}

static int bdx_discover(void)
{
	struct pci_dev *ubox = NULL;
	int fields = bdx_map_fields();
	int found = 0;

	while ((ubox = pci_get_device(PCI_VENDOR_ID_INTEL, BDX_UBOX_NODEID_DID,
				      ubox))) {
		u32 lnid, map;
		int phys, pkg;

		pci_read_config_dword(ubox, BDX_UBOX_LOCAL_NODEID, &lnid);
		pci_read_config_dword(ubox, BDX_UBOX_NODEID_MAP, &map);
		phys = bdx_nodeid_to_pkg(lnid, map, fields);
		pkg = phys < 0 ? phys : topology_phys_to_logical_pkg(phys);
		if (pkg < 0 || pkg >= uncore_max_pkgs || pkg >= BDX_MAX_PKGS ||
		    bdx_bus_mapped[pkg]) {
			pr_warn("uncore bus %04x:%02x (node ID %u, map 0x%06x) maps to no package; its boxes are not registered\n",
				pci_domain_nr(ubox->bus), ubox->bus->number,
				lnid & 0x7, map);
			continue;
		}
		bdx_pkg_bus[pkg].domain = pci_domain_nr(ubox->bus);
		bdx_pkg_bus[pkg].bus = ubox->bus->number;
		bdx_bus_mapped[pkg] = true;
		bdx_read_capids(ubox->bus, pkg);
		found += bdx_discovered[pkg];
	}
	if (!found) {
		pr_err("no BDX uncore discovery device (UBox %04x, PCU.3 %04x) found: cannot tell which CBo/SBo boxes exist\n",
		       BDX_UBOX_NODEID_DID, BDX_PCU3_DID);
		return -ENODEV;
	}
	return 0;
}

static void bdx_cleanup(void)
{
	memset(bdx_cbo_mask, 0, sizeof(bdx_cbo_mask));
	memset(bdx_sbo_count, 0, sizeof(bdx_sbo_count));
	memset(bdx_port2, 0, sizeof(bdx_port2));
	memset(bdx_discovered, 0, sizeof(bdx_discovered));
	memset(bdx_bus_mapped, 0, sizeof(bdx_bus_mapped));
}

/* PCI types are listed here too: the core keeps one list of pmus. */
static const struct uncore_type * const bdx_types[] = {
	&bdx_ubox,
	&bdx_cbox,
	&bdx_pcu,
	&bdx_sbox,
	&bdx_ha,
	&bdx_imc,
	&bdx_irp,
	&bdx_qpi,
	&bdx_r2pcie,
	&bdx_r3qpi,
	NULL,
};

/*
 * U_MSR_PMON_GLOBAL_CTL (2.1.1, Table 2-2): pmi_core_sel (17:0) is a mask
 * of the package's cores that get the PMI; wk_on_pmi (30) wakes a core
 * that sleeps, else a sleeping core misses it; unfrz_all (29) ends the
 * freeze an overflow caused, frz_all (31) freezes every counter, as
 * software does before it reads them (2.1.3). The manual numbers the cores 0-17 without
 * saying how they map to APIC IDs: the core ID Linux reports (from the
 * APIC ID) is taken as the bit, and a CPU whose core ID does not fit
 * cannot take the PMI.
 */
#define BDX_GCTL_PMI_CORE_SEL_BITS	18
#define BDX_GCTL_UNFRZ_ALL		BIT_ULL(29)
#define BDX_GCTL_WK_ON_PMI		BIT_ULL(30)
#define BDX_GCTL_FRZ_ALL		BIT_ULL(31)

static u64 bdx_pmi_route(int cpu)
{
	int core = topology_core_id(cpu);

	if (core < 0 || core >= BDX_GCTL_PMI_CORE_SEL_BITS)
		return 0;
	return BIT_ULL(core) | BDX_GCTL_WK_ON_PMI;
}

/* Every bit of U_MSR_PMON_GLOBAL_STATUS a box reports in (Table 2-3). */
#define BDX_GSTS_ALL	(BDX_GSTS_OV_U_FIXED | BDX_GSTS_OV_U | BDX_GSTS_OV_P | \
			 GENMASK_ULL(29, 21) | BDX_GSTS_OV_IRP | BDX_GSTS_OV_RQ)

static int bdx_pmi_read_status(struct uncore_box *ubox, u64 *status)
{
	int err = uncore_msr_read(ubox, BDX_U_MSR_PMON_GLOBAL_STATUS, status);

	*status &= BDX_GSTS_ALL;
	return err;
}

/* GLOBAL_STATUS is write-1-to-clear (2.1.4 step e). */
static int bdx_pmi_ack(struct uncore_box *ubox, u64 status)
{
	return uncore_msr_write(ubox, BDX_U_MSR_PMON_GLOBAL_STATUS, status);
}

/* frz_all, the PMI's route kept (2.1.3: freeze before reading). */
static int bdx_pmi_freeze(struct uncore_box *ubox, u64 route)
{
	return uncore_msr_write(ubox, BDX_U_MSR_PMON_GLOBAL_CTL,
				route | BDX_GCTL_FRZ_ALL);
}

/* unfrz_all, with the PMI's route in the same write (2.1.4 step f). */
static int bdx_pmi_unfreeze(struct uncore_box *ubox, u64 route)
{
	return uncore_msr_write(ubox, BDX_U_MSR_PMON_GLOBAL_CTL,
				route | BDX_GCTL_UNFRZ_ALL);
}

static const struct uncore_pmi bdx_pmi = {
	.type		= &bdx_ubox,
	.route		= bdx_pmi_route,
	.read_status	= bdx_pmi_read_status,
	.ack		= bdx_pmi_ack,
	.freeze		= bdx_pmi_freeze,
	.unfreeze	= bdx_pmi_unfreeze,
};

/*
 * The in-tree intel_uncore driver registers the same PMU names and claims
 * the same PCI devices; two drivers programming one set of counters would
 * corrupt each other's counts. Its PCI driver for this part is named
 * "bdx_uncore".
 */
static int bdx_probe(void)
{
	if (driver_find("bdx_uncore", &pci_bus_type)) {
		pr_err("intel_uncore owns the uncore PMUs: " UNCORE_INTEL_UNCORE_FIX "\n");
		return -EBUSY;
	}
	return 0;
}

const struct uncore_platform bdx_platform = {
	.id		= "bdx",
	.name		= "Xeon E5/E7 v4 (Broadwell-EP/EX)",
	.probe		= bdx_probe,
	.types		= bdx_types,
	.discover	= bdx_discover,
	.cleanup	= bdx_cleanup,
	.pci_driver	= &bdx_pci_driver,
	.pmi		= &bdx_pmi,
};
