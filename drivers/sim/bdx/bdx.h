/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_sim: the Broadwell-EP/EX ("BDX") model: its MSR boxes, plus
 * the PCI functions the driver needs for discovery; what the model's files
 * share. The register model, plain arithmetic without locking: bdx_box.c,
 * bdx_pkg.c, bdx_msr.c, bdx_pci.c, bdx_event.c; its kernel side: bdx.c,
 * bdx_pcihost.c, bdx_debugfs.c.
 *
 * Manual: Intel Xeon E5 and E7 v4 Uncore Performance Monitoring Reference
 * Manual (334291-001US); section numbers below refer to it.
 */
#ifndef _UNCORE_SIM_BDX_H
#define _UNCORE_SIM_BDX_H

#include <linux/bits.h>
#include <linux/types.h>

#include "sim.h"

#define SIM_NR_CBO		24
#define SIM_NR_SBO		4
#define SIM_NR_CTRS		4
#define SIM_NR_UBOX_CTRS	2
#define SIM_NR_HA		2
#define SIM_NR_IMC		8	/* 2 iMCs x 4 channels */
#define SIM_NR_QPI		3
#define SIM_NR_R3QPI		3
#define SIM_NR_R3QPI_CTRS	3
/* Filter-like registers of one box: QPI has Rx and Tx match/mask pairs. */
#define SIM_NR_FILTERS		8
/* Pseudo counter index naming the UBox fixed UCLK counter. */
#define SIM_CTR_FIXED		0xff

#define SIM_CTR_WIDTH		48
#define SIM_CTR_MASK		GENMASK_ULL(SIM_CTR_WIDTH - 1, 0)

/* PCLK is a fixed 800 MHz clock (2.8.6, PCU CLOCKTICKS). */
#define SIM_PCLK_HZ		800000000ULL
/*
 * QPI CLOCKTICKS count the QPI clock, a quarter of the transfer rate
 * (2.9.6); QPI_RATE_STATUS resets to 011b = 6.4 GT/s (Table 2-176).
 */
#define SIM_QCLK_HZ		1600000000ULL

/* MSR map, Table 1-2. */
#define SIM_MSR_U_GLOBAL_CTL	0x700
#define SIM_MSR_U_GLOBAL_STATUS	0x701
#define SIM_MSR_U_GLOBAL_CONFIG	0x702
#define SIM_MSR_U_FIXED_CTL	0x703
#define SIM_MSR_U_FIXED_CTR	0x704
#define SIM_MSR_U_CTL0		0x705
#define SIM_MSR_U_BOX_STATUS	0x708
#define SIM_MSR_U_CTR0		0x709
#define SIM_MSR_U_LAST		0x70a
#define SIM_MSR_PCU_BASE	0x710
#define SIM_MSR_PCU_LAST	0x71a
#define SIM_MSR_SBO_BASE	0x720
#define SIM_MSR_SBO_STRIDE	0xa
#define SIM_MSR_CBO_BASE	0xe00
#define SIM_MSR_CBO_STRIDE	0x10

/* Counter control fields (2.1 and per-box CTL tables). */
#define SIM_CTL_EV_SEL		GENMASK(7, 0)
#define SIM_CTL_UMASK		GENMASK(15, 8)
#define SIM_CTL_RST		BIT(17)
#define SIM_CTL_EDGE		BIT(18)
#define SIM_CTL_TID_EN		BIT(19)
#define SIM_CTL_OV_EN		BIT(20)
#define SIM_CTL_EV_SEL_EXT	BIT(21)
#define SIM_CTL_EN		BIT(22)
#define SIM_CTL_INVERT		BIT(23)
#define SIM_CTL_THRESH5		GENMASK(28, 24)
#define SIM_CTL_THRESH8		GENMASK(31, 24)
#define SIM_PCU_CTL_OCC_SEL	GENMASK(15, 14)
#define SIM_PCU_CTL_OCC_INVERT	BIT(30)
#define SIM_PCU_CTL_OCC_EDGE	BIT(31)

#define SIM_BOX_CTL_RST_CTRL	BIT(0)
#define SIM_BOX_CTL_RST_CTRS	BIT(1)
#define SIM_BOX_CTL_FRZ		BIT(8)
#define SIM_BOX_CTL_MUST1	GENMASK(17, 16)

#define SIM_GCTL_PMI_CORE_SEL	GENMASK(17, 0)
#define SIM_GCTL_UNFRZ_ALL	BIT(29)
#define SIM_GCTL_WK_ON_PMI	BIT(30)
#define SIM_GCTL_FRZ_ALL	BIT(31)

/* GLOBAL_STATUS group bits (Table 2-3). */
#define SIM_GSTS_OV_U_FIXED	0
#define SIM_GSTS_OV_U		1
#define SIM_GSTS_OV_P		2
#define SIM_GSTS_OV_H0		21
#define SIM_GSTS_OV_M0		23
#define SIM_GSTS_OV_Q0		25
#define SIM_GSTS_OV_RQ0		27
#define SIM_GSTS_OV_RP		29
#define SIM_GSTS_OV_IRP		34

#define SIM_GCONFIG_NUM_C	GENMASK(4, 0)
#define SIM_GCONFIG_RESET	18

#define SIM_FIXED_CTL_OV_EN	BIT(20)
#define SIM_FIXED_CTL_EN	BIT(22)

#define SIM_CBO_F0_TID		GENMASK(5, 0)
#define SIM_CBO_F0_STATE	GENMASK(23, 17)
#define SIM_CBO_F1_NID		GENMASK(15, 0)
#define SIM_CBO_F1_OPC		GENMASK(28, 20)
#define SIM_CBO_F1_NC		BIT(30)
#define SIM_CBO_F1_ISOC		BIT(31)

/* Events the model gives meaning to. */
#define SIM_EV_CLOCKTICKS	0x00
#define SIM_EV_CBO_LLC_LOOKUP	0x34
#define SIM_EV_CBO_TOR_INSERTS	0x35
#define SIM_EV_CBO_TOR_OCC	0x36
#define SIM_EV_CBO_LLC_VICTIMS	0x37
#define SIM_EV_PCU_BAND0	0x0b
#define SIM_EV_PCU_BAND3	0x0e
#define SIM_EV_PCU_OCCUPANCY	BIT(7)
#define SIM_EV_R_CLOCKTICKS	0x01	/* R2PCIe, R3QPI (2.10.5, 2.11.5) */
#define SIM_EV_QPI_CLOCKTICKS	0x14
#define SIM_EV_QPI_CTO_COUNT	0x38	/* with ev_sel_ext */
#define SIM_EV_HA_ADDR_OPC	0x20

/**
 * enum sim_box_type - kinds of MSR box modelled
 * @SIM_UBOX: the UBox (global control, fixed UCLK counter, 2 counters)
 * @SIM_CBO: a CBo (LLC slice agent), 4 counters, two filter registers
 * @SIM_SBO: an SBo (ring bridge), 4 counters, write-twice erratum
 * @SIM_PCU: the PCU, 4 counters, band filter, occupancy sub-counters
 * @SIM_HA: a Home Agent (PCI), 4 counters, address/opcode match
 * @SIM_IMC: an iMC channel (PCI), 4 counters and the fixed DCLK counter
 * @SIM_IRP: the IRP (PCI), 4 counters at irregular offsets
 * @SIM_QPI: a QPI port (PCI), 4 counters, packet match/mask on function 6
 * @SIM_R2PCIE: the R2PCIe (PCI), 4 counters, write-twice erratum
 * @SIM_R3QPI: an R3QPI link (PCI), 3 counters, write-twice erratum
 * @SIM_NR_BOX_TYPES: number of kinds
 */
enum sim_box_type {
	SIM_UBOX,
	SIM_CBO,
	SIM_SBO,
	SIM_PCU,
	SIM_HA,
	SIM_IMC,
	SIM_IRP,
	SIM_QPI,
	SIM_R2PCIE,
	SIM_R3QPI,
	SIM_NR_BOX_TYPES,
};

/**
 * struct sim_ctr - one counter/control pair
 * @val: 48-bit counter value as software reads it
 * @total: increments counted since the last counter reset, not wrapped
 * @ctl: control register as stored (write-only bits clear)
 * @latched: the event select has taken hold (SBo, R2PCIe, R3QPI erratum)
 * @prev_cond: threshold condition of the previous cycle, for edge detect
 * @read_hi: PCI: the upper dword at the last read of either dword
 * @read_seq: PCI: the package's pci_reads count at that read
 */
struct sim_ctr {
	u64 val;
	u64 total;
	u32 ctl;
	bool latched;
	bool prev_cond;
	u32 read_hi;
	u64 read_seq;
};

/**
 * struct sim_box - state of one MSR box
 * @type: kind of box
 * @idx: instance number within its kind
 * @present: the box exists (CAPID4/CAPID5); absent boxes fault on access
 * @frozen: BOX_CTL.frz was last written as 1
 * @stopped: a "stop" fault holds its counters (fault.c)
 * @status: BOX_STATUS (ov bits, RW1C)
 * @filter: CBo FILTER0/FILTER1; PCU BOX_FILTER is @filter[0]; HA
 *	ADDRMATCH0/1 and OPCODEMATCH; QPI enum sim_qpi_filter
 * @ctr: counters; the UBox and R3QPI use fewer
 * @fixed: iMC fixed DCLK counter and its control
 */
struct sim_box {
	enum sim_box_type type;
	u8 idx;
	bool present;
	bool frozen;
	bool stopped;
	u32 status;
	u32 filter[SIM_NR_FILTERS];
	struct sim_ctr ctr[SIM_NR_CTRS];
	struct sim_ctr fixed;
};

/* QPI match/mask registers (function 6, Table 2-169) in sim_box.filter. */
enum sim_qpi_filter {
	SIM_QPI_RX_MATCH0,
	SIM_QPI_RX_MATCH1,
	SIM_QPI_RX_MASK0,
	SIM_QPI_RX_MASK1,
	SIM_QPI_TX_MATCH0,
	SIM_QPI_TX_MATCH1,
	SIM_QPI_TX_MASK0,
	SIM_QPI_TX_MASK1,
};

/**
 * struct sim_stats - per package access and protocol statistics
 * @msr_reads: MSR reads, including faulting ones
 * @msr_writes: MSR writes, including faulting ones
 * @msr_faults: accesses answered with -EIO (the part would #GP)
 * @pci_reads: PMON config dword reads
 * @pci_writes: PMON config dword writes
 * @rsvd_writes: writes that set reserved bits of a control register
 * @boxctl_no_must1: BOX_CTL writes with bits 17:16 not both 1
 * @inject_lines: occurrences injected through debugfs
 * @inject_hits: counters that counted an injected occurrence
 * @overflows: carries out of bit 47 of any counter
 * @split_carries: carries into a PCI counter's upper dword that fell between
 *	two adjacent reads of its dwords
 * @freezes: global freezes caused by an overflow message (not frz_all)
 * @frozen_drops: counter hits of injected occurrences lost only because the
 *	package was globally frozen
 * @frozen_ns: sim time the package spent globally frozen, in freezes that
 *	have ended (on overflow or by frz_all, up to unfrz_all)
 * @frozen_max_ns: the longest of those freezes
 * @live_writes: writes of a counter (a PCI counter's dword, an MSR box's
 *	counter, either fixed counter) while it counts: what it counts between
 *	the driver's read and the write is lost, and a PCI counter's carry
 *	between its two dword writes tears it (2.1.3: freeze before reading)
 */
struct sim_stats {
	u64 msr_reads;
	u64 msr_writes;
	u64 msr_faults;
	u64 pci_reads;
	u64 pci_writes;
	u64 rsvd_writes;
	u64 boxctl_no_must1;
	u64 inject_lines;
	u64 inject_hits;
	u64 overflows;
	u64 split_carries;
	u64 freezes;
	u64 frozen_drops;
	u64 frozen_ns;
	u64 frozen_max_ns;
	u64 live_writes;
};

/**
 * struct sim_pkg - the uncore MSR state of one physical package
 * @id: physical package number
 * @nodeid: node ID of this package (UBox config 0x40)
 * @capid4: CAPID4 (PCU.3 config 0x94); bits 7:6 give the SBo count
 * @capid5: CAPID5 (PCU.3 config 0x98); bits 23:0 are the present CBos
 * @uclk_hz: uncore clock
 * @pclk_hz: PCU clock
 * @dclk_hz: DRAM clock (iMC)
 * @qclk_hz: QPI clock
 * @now_ns: sim time up to which the counters have been advanced
 * @uclk_ticks: UCLK ticks since sim time 0 at @now_ns
 * @pclk_ticks: PCLK ticks since sim time 0 at @now_ns
 * @dclk_ticks: DCLK ticks since sim time 0 at @now_ns
 * @qclk_ticks: QPI clock ticks since sim time 0 at @now_ns
 * @global_frozen: frz_all latched, or a freeze on overflow took effect, and
 *	no unfrz_all since
 * @frozen_since: sim time @global_frozen was last set
 * @freeze_delay_ns: time from an overflow message to the global freeze
 * @freeze_pending: an overflow message asked for a global freeze that has
 *	not taken effect yet
 * @freeze_at: sim time at which the pending freeze takes effect
 * @pmi_pending: a freeze on overflow took effect and its PMI has not been
 *	taken by sim_pkg_take_pmi() yet
 * @pmi_core_sel: GLOBAL_CTL.pmi_core_sel when that freeze took effect
 * @pmi_wake: GLOBAL_CTL.wk_on_pmi when that freeze took effect
 * @carry_check: a write may have changed when a clock-driven counter next
 *	overflows; sim_pkg_next_carry() should be asked again
 * @global_ctl: readable part of U_MSR_PMON_GLOBAL_CTL
 * @global_status: U_MSR_PMON_GLOBAL_STATUS
 * @global_config: U_MSR_PMON_GLOBAL_CONFIG
 * @fixed: UBox fixed UCLK counter; its control is @fixed.ctl
 * @ubox: the UBox general counters and BOX_STATUS
 * @pcu: the PCU
 * @cbo: CBo 0..23
 * @sbo: SBo 0..3
 * @ha: HA 0..1
 * @imc: iMC channels: iMC0 channels 0-3, then iMC1 channels 0-3
 * @irp: the IRP
 * @qpi: QPI ports 0..2
 * @r2pcie: the R2PCIe
 * @r3qpi: R3QPI links 0..2
 * @stats: statistics shown in debugfs
 *
 * The model functions do no locking; callers serialise per package.
 */
struct sim_pkg {
	unsigned int id;
	u8 nodeid;
	u32 capid4;
	u32 capid5;
	u64 uclk_hz;
	u64 pclk_hz;
	u64 dclk_hz;
	u64 qclk_hz;
	u64 now_ns;
	u64 uclk_ticks;
	u64 pclk_ticks;
	u64 dclk_ticks;
	u64 qclk_ticks;
	bool global_frozen;
	u64 frozen_since;
	u64 freeze_delay_ns;
	bool freeze_pending;
	u64 freeze_at;
	bool pmi_pending;
	u32 pmi_core_sel;
	bool pmi_wake;
	bool carry_check;
	u32 global_ctl;
	u64 global_status;
	u32 global_config;
	struct sim_ctr fixed;
	struct sim_box ubox;
	struct sim_box pcu;
	struct sim_box cbo[SIM_NR_CBO];
	struct sim_box sbo[SIM_NR_SBO];
	struct sim_box ha[SIM_NR_HA];
	struct sim_box imc[SIM_NR_IMC];
	struct sim_box irp;
	struct sim_box qpi[SIM_NR_QPI];
	struct sim_box r2pcie;
	struct sim_box r3qpi[SIM_NR_R3QPI];
	struct sim_stats stats;
};

/**
 * struct sim_event - an injected occurrence: @count cycles of one event
 * @type: box kind
 * @idx: box instance
 * @ev_sel: event select to match
 * @ext: QPI: the event needs ev_sel_ext (CTL bit 21)
 * @umask: unit mask to match (PCU occupancy: occ_sel in bits 7:6)
 * @count: number of cycles
 * @inc: per-cycle increment
 * @tid: thread ID for the CBo tid filter; -1 if none
 * @state: LLC state mask, FILTER0.state bit order (bit 0 = I)
 * @opc: opcode for FILTER1.opc; -1 if none
 * @nid: node mask for FILTER1.nid
 * @nc: non-coherent request
 * @isoc: isochronous request
 * @freq: PCU: uncore frequency in 100 MHz units during the cycles
 * @cores: PCU occupancy: number of cores in the selected C-state
 * @addr: HA: physical address of the request
 * @hopc: HA: message class and opcode, OPCODEMATCH layout; -1 if none
 * @tx: QPI: the packet is transmitted (else received)
 * @pkt0: QPI: the packet's fields in MATCH0 layout
 * @pkt1: QPI: the packet's fields in MATCH1 layout
 */
struct sim_event {
	enum sim_box_type type;
	unsigned int idx;
	u8 ev_sel;
	bool ext;
	u8 umask;
	u64 count;
	u64 inc;
	int tid;
	u8 state;
	int opc;
	u16 nid;
	bool nc;
	bool isoc;
	u8 freq;
	u64 cores;
	u64 addr;
	int hopc;
	bool tx;
	u32 pkt0;
	u32 pkt1;
};

/* bdx_box.c: the counting machinery every box shares. */
const char *sim_box_name(enum sim_box_type type);
int sim_box_count(enum sim_box_type type);
bool sim_box_is_pci(enum sim_box_type type);
u64 sim_ticks(u64 t, u64 hz);
bool sim_ctr_enabled(const struct sim_box *box, const struct sim_ctr *c);
bool sim_ctr_counting(const struct sim_pkg *pkg, const struct sim_box *box,
		      const struct sim_ctr *c);
void sim_note_ctr_write(struct sim_pkg *pkg, const struct sim_box *box,
			const struct sim_ctr *c);
void sim_ctr_overflow(struct sim_pkg *pkg, struct sim_box *box, u32 st_bit,
		      bool ov_en, unsigned int gsts_bit);
bool sim_ctr_add(struct sim_ctr *c, u64 add);
void sim_ctr_clear(struct sim_ctr *c);
unsigned int sim_pci_gsts_bit(const struct sim_box *box);
void sim_count(struct sim_pkg *pkg, struct sim_box *box, unsigned int i,
	       u64 r, u64 n);
u64 sim_carry_ns(const struct sim_ctr *c, u64 ticks, u64 hz);
void sim_box_next_carry(const struct sim_pkg *pkg, const struct sim_box *box,
			u8 ev_sel, u64 ticks, u64 hz, u64 *at);
void sim_check_rsvd(struct sim_pkg *pkg, u64 val, u64 valid);
void sim_write_box_ctl(struct sim_pkg *pkg, struct sim_box *box, u64 val);
void sim_write_ctl(struct sim_pkg *pkg, struct sim_box *box, unsigned int n,
		   u64 val);

/* bdx_pkg.c: a package over sim time (no locking, no hardware). */
/**
 * struct sim_pkg_cfg - what a package is made of
 * @nodeid: node ID (UBox config 0x40)
 * @capid4: CAPID4; bits 7:6 give the SBos and QPI ports
 * @capid5: CAPID5; bits 23:0 are the present CBos
 * @imc_mask: bit n: iMC channel n (iMC0 channels 0-3, iMC1 channels 0-3)
 * @uclk_hz: uncore clock
 * @dclk_hz: DRAM clock
 */
struct sim_pkg_cfg {
	u8 nodeid;
	u32 capid4;
	u32 capid5;
	u8 imc_mask;
	u64 uclk_hz;
	u64 dclk_hz;
};

/* Package n's registers; the lock of sim_sockets[n] serialises them. */
extern struct sim_pkg sim_bdx_pkgs[SIM_MAX_PKGS];

/**
 * sim_bdx_pkg() - the Broadwell registers of a package
 * @s: the package's socket, whose lock (sim_lock()) serialises them
 *
 * Return: sim_bdx_pkgs[@s->id].
 */
static inline struct sim_pkg *sim_bdx_pkg(const struct sim_socket *s)
{
	return &sim_bdx_pkgs[s->id];
}

struct sim_box *sim_pkg_box(struct sim_pkg *pkg, enum sim_box_type type,
			    unsigned int idx);
void sim_pkg_init(struct sim_pkg *pkg, unsigned int id,
		  const struct sim_pkg_cfg *cfg, u64 now_ns);
void sim_pkg_reset_stats(struct sim_pkg *pkg);
void sim_pkg_set_frozen(struct sim_pkg *pkg, bool frozen);
u64 sim_pkg_next_carry(const struct sim_pkg *pkg);
void sim_pkg_advance(struct sim_pkg *pkg, u64 now_ns);
bool sim_pkg_take_pmi(struct sim_pkg *pkg, u64 now_ns, u32 *core_sel,
		      bool *wake);

/* bdx_msr.c: the MSR boxes' registers. */
bool sim_msr_exists(struct sim_pkg *pkg, u32 msr);
int sim_msr_read(struct sim_pkg *pkg, u64 now_ns, u32 msr, u64 *val);
int sim_msr_write(struct sim_pkg *pkg, u64 now_ns, u32 msr, u64 val);

/* bdx_pci.c: the PCI boxes' config-space registers. */
#define SIM_PCI_FN_PMON		0	/* the box's PMON function */
#define SIM_PCI_FN_QPI_MM	1	/* QPI packet match/mask function */
int sim_pci_reg_read(struct sim_pkg *pkg, u64 now_ns, struct sim_box *box,
		     int fn, unsigned int off, u32 *val);
int sim_pci_reg_write(struct sim_pkg *pkg, u64 now_ns, struct sim_box *box,
		      int fn, unsigned int off, u32 val);
bool sim_pci_reg_is_ctr(const struct sim_box *box, int fn, unsigned int off);
bool sim_pci_match(const struct sim_box *box, const struct sim_ctr *c,
		   const struct sim_event *ev);

/* bdx_event.c: occurrences and counter preloads from debugfs. */
int sim_inject(struct sim_pkg *pkg, u64 now_ns, const struct sim_event *ev);
int sim_set_counter(struct sim_pkg *pkg, u64 now_ns, enum sim_box_type type,
		    unsigned int idx, unsigned int ctr, u64 value);

/* bdx_pcihost.c: the PCI host bridge. */
int sim_pci_init(void);
void sim_pci_exit(void);

/* bdx_debugfs.c: the model's debugfs files. */
void sim_bdx_debugfs_init(struct dentry *dir);
void sim_bdx_snapshot(unsigned int pkg, void *snap);
void sim_bdx_reset_stats(struct sim_socket *s);

/**
 * sim_box_nr_ctrs() - general counters of a box
 * @box: the box
 *
 * Return: 2 for the UBox, 3 for an R3QPI link, 4 for the others.
 */
static inline unsigned int sim_box_nr_ctrs(const struct sim_box *box)
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

#endif /* _UNCORE_SIM_BDX_H */
