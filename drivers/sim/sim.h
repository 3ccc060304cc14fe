/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_sim: register-level models of uncore performance counters. Most
 * of this header is the Broadwell-EP/EX ("BDX") model: its MSR boxes, plus
 * the PCI functions the driver needs for discovery; struct sim_model is
 * what every part's model provides.
 *
 * Manual: Intel Xeon E5 and E7 v4 Uncore Performance Monitoring Reference
 * Manual (334291-001US); section numbers below refer to it.
 */
#ifndef _UNCORE_SIM_H
#define _UNCORE_SIM_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct dentry;
struct seq_file;

#define SIM_MAX_PKGS		8
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
/* Upper bound on sim time: keeps time * hz / 1e9 within 64 bits. */
#define SIM_TIME_MAX_NS		BIT_ULL(60)
#define SIM_MAX_CLK_HZ		10000000000ULL

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

/**
 * struct sim_socket - a package's lock and the machinery delivering its
 *	PMIs (pmi.c), for every model with PMIs; the Broadwell model's
 *	registers too
 * @lock: taken with IRQs off, through sim_lock(), by every accessor of the
 *	package's model state
 * @id: the package's number, its index in sim_sockets[]
 * @pkg: the Broadwell register model (unused by the other models, which
 *	keep their registers elsewhere and lock them with @lock)
 * @pmi_work: queued (NMI-safe) at sim_unlock() when the model's
 *	&sim_model.pmi_wanted says so; arms @pmi_timer
 * @pmi_timer: expires at the sim time &sim_model.pmi_due gave; takes the
 *	model's owed PMI (&sim_model.pmi_take) and delivers it
 * @carry_at: Broadwell: sim_pkg_next_carry() as last asked, U64_MAX for
 *	none
 * @pmis_sent: PMIs claimed by the simulator's NMI handler on a CPU of this
 *	package
 * @pmis_dropped: PMIs not sent: not to wake an idle target core, or no
 *	online CPU for a core of pmi_core_sel
 * @foreign_nmis: NMIs raised by an "nmi" fault on a CPU of this package
 * @nmi_busy: accesses refused with -EBUSY because an NMI interrupted this
 *	CPU inside a simulator critical section
 */
struct sim_socket {
	raw_spinlock_t lock;
	unsigned int id;
	struct sim_pkg pkg;
	struct irq_work pmi_work;
	struct hrtimer pmi_timer;
	u64 carry_at;
	atomic64_t pmis_sent;
	atomic64_t pmis_dropped;
	atomic64_t foreign_nmis;
	atomic64_t nmi_busy;
};

/* bdx_regs.c: the register model (no locking, no hardware). */
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

void sim_pkg_init(struct sim_pkg *pkg, unsigned int id,
		  const struct sim_pkg_cfg *cfg, u64 now_ns);
void sim_pkg_advance(struct sim_pkg *pkg, u64 now_ns);
bool sim_pkg_take_pmi(struct sim_pkg *pkg, u64 now_ns, u32 *core_sel,
		      bool *wake);
u64 sim_pkg_next_carry(const struct sim_pkg *pkg);
bool sim_msr_exists(struct sim_pkg *pkg, u32 msr);
int sim_msr_read(struct sim_pkg *pkg, u64 now_ns, u32 msr, u64 *val);
int sim_msr_write(struct sim_pkg *pkg, u64 now_ns, u32 msr, u64 val);
struct sim_box *sim_pkg_box(struct sim_pkg *pkg, enum sim_box_type type,
			    unsigned int idx);
unsigned int sim_box_nr_ctrs(const struct sim_box *box);
bool sim_ctr_counting(const struct sim_pkg *pkg, const struct sim_box *box,
		      const struct sim_ctr *c);
int sim_inject(struct sim_pkg *pkg, u64 now_ns, const struct sim_event *ev);
int sim_set_counter(struct sim_pkg *pkg, u64 now_ns, enum sim_box_type type,
		    unsigned int idx, unsigned int ctr, u64 value);
void sim_pkg_reset_stats(struct sim_pkg *pkg);
const char *sim_box_name(enum sim_box_type type);
bool sim_box_is_pci(enum sim_box_type type);
int sim_box_count(enum sim_box_type type);

/* Shared by the MSR and PCI register models. */
void sim_check_rsvd(struct sim_pkg *pkg, u64 val, u64 valid);
void sim_count(struct sim_pkg *pkg, struct sim_box *box, unsigned int i,
	       u64 r, u64 n);
bool sim_ctr_add(struct sim_ctr *c, u64 add);
void sim_ctr_clear(struct sim_ctr *c);
void sim_write_box_ctl(struct sim_pkg *pkg, struct sim_box *box, u64 val);
void sim_write_ctl(struct sim_pkg *pkg, struct sim_box *box, unsigned int n,
		   u64 val);
void sim_ctr_overflow(struct sim_pkg *pkg, struct sim_box *box, u32 st_bit,
		      bool ov_en, unsigned int gsts_bit);
void sim_box_clocks(struct sim_pkg *pkg, struct sim_box *box, u8 ev_sel,
		    u64 ticks);
u64 sim_carry_ns(const struct sim_ctr *c, u64 ticks, u64 hz);
void sim_box_next_carry(const struct sim_pkg *pkg, const struct sim_box *box,
			u8 ev_sel, u64 ticks, u64 hz, u64 *at);

/* bdx_pci_regs.c: the PCI boxes' config-space registers. */
#define SIM_PCI_FN_PMON		0	/* the box's PMON function */
#define SIM_PCI_FN_QPI_MM	1	/* QPI packet match/mask function */
int sim_pci_reg_read(struct sim_pkg *pkg, u64 now_ns, struct sim_box *box,
		     int fn, unsigned int off, u32 *val);
int sim_pci_reg_write(struct sim_pkg *pkg, u64 now_ns, struct sim_box *box,
		      int fn, unsigned int off, u32 val);
bool sim_pci_reg_is_ctr(const struct sim_box *box, int fn, unsigned int off);
void sim_pci_boxes_advance(struct sim_pkg *pkg, u64 du, u64 dd, u64 dq);
void sim_pci_boxes_next_carry(const struct sim_pkg *pkg, u64 *at);
bool sim_pci_match(const struct sim_box *box, const struct sim_ctr *c,
		   const struct sim_event *ev);
unsigned int sim_pci_gsts_bit(const struct sim_box *box);

/**
 * struct sim_model - a part the simulator can be
 * @part: its id, the driver's &uncore_platform.id ("bdx")
 * @name: for the load message
 * @max_pkgs: packages it can model
 * @match: is the CPU (boot_cpu_data) this part
 * @init: set up @sim_nr_pkgs packages at sim time @now
 * @exit: undo @init
 * @access: the MSR seam (msr_backend.h): read @msr of the calling CPU's
 *	package into *@val, or write *@val to it
 * @debugfs_init: add its files to the simulator's debugfs directory
 * @clock_moved: sim time was frozen, run or advanced; NULL if it needs
 *	no telling
 * @pmi_cores: width of its pmi_core_sel: PMIs go to cores 0 to
 *	@pmi_cores - 1 (by topology_core_id()) of the package
 * @locked: called by sim_lock() as soon as it holds a package's lock,
 *	e.g. to take a run-time parameter; NULL for nothing
 * @pmi_wanted: under the package lock, at sim_unlock(): does the package
 *	need its PMI work queued (a freeze pending, a PMI owed, a timer to
 *	re-time)?
 * @pmi_due: under the lock, from the PMI work, at sim time @now: when the
 *	PMI timer should expire (a pending freeze's time, a clock-driven
 *	carry's); @now or earlier for at once, U64_MAX for not at all
 * @pmi_take: under the lock, from the PMI timer, at sim time @now: take
 *	the PMI owed, if any. Return true, with the cores it goes to (bit n:
 *	core ID n) in *@cores and in *@wake whether a core that is idle gets
 *	it too; false if none is owed.
 * @audit: for debugfs "audit": print what the driver left behind, one line
 *	per leftover (a counter enabled or with its overflow interrupt on, a
 *	filter or match register not 0, an overflow not handled), then
 *	"leftovers N rsvd_writes R faults F" (R and F: the model's counts of
 *	writes of bits nobody may set and of faulting accesses since load).
 *	Takes each package's lock as the state dump does. 0 or -ENOMEM;
 *	NULL for none.
 * @reset_stats: under the package's lock (sim_lock()): zero @s's access
 *	and event statistics, for debugfs "reset_stats", which zeroes the
 *	socket's PMI and NMI counts itself; NULL: no such file
 *
 * A model whose packages deliver PMIs locks them with sim_lock(), calls
 * sim_pmi_init() from @init and sim_pmi_exit() from @exit, and provides
 * @pmi_cores, @pmi_wanted, @pmi_due and @pmi_take; the others leave them
 * 0 and NULL.
 */
struct sim_model {
	const char *part;
	const char *name;
	unsigned int max_pkgs;
	bool (*match)(void);
	int (*init)(u64 now);
	void (*exit)(void);
	int (*access)(u32 msr, u64 *val, bool write);
	void (*debugfs_init)(struct dentry *dir);
	void (*clock_moved)(void);
	unsigned int pmi_cores;
	void (*locked)(struct sim_socket *s);
	bool (*pmi_wanted)(const struct sim_socket *s);
	u64 (*pmi_due)(struct sim_socket *s, u64 now);
	bool (*pmi_take)(struct sim_socket *s, u64 now, u32 *cores,
			 bool *wake);
	int (*audit)(struct seq_file *m);
	void (*reset_stats)(struct sim_socket *s);
};

extern const struct sim_model sim_bdx_model, sim_p4mp_model, sim_nhmex_model,
			       sim_k8_model;

/* main.c */
extern struct sim_socket sim_sockets[SIM_MAX_PKGS];
extern unsigned int sim_nr_pkgs;
extern const struct sim_model *sim_model;
int sim_this_pkg(void);
u64 sim_clock_now(void);
bool sim_clock_frozen(void);
void sim_clock_freeze(void);
void sim_clock_run(void);
int sim_clock_advance(u64 ns);

void sim_clock_tick(u64 ns);

/* pmi.c */
bool sim_nmi_busy(struct sim_socket *s);
void sim_lock(struct sim_socket *s, unsigned long *flags)
	__acquires(&s->lock);
void sim_unlock(struct sim_socket *s, unsigned long flags)
	__releases(&s->lock);
int sim_pmi_init(void);
void sim_pmi_exit(void);

/* fault.c */
bool sim_fault_msr(int pkg, u32 msr, bool write);
bool sim_fault_pci_gone(int pkg, const struct sim_box *box);
void sim_fault_debugfs_init(struct dentry *dir);
void sim_fault_exit(void);
void sim_foreign_nmi(unsigned int n);

/* pci.c */
int sim_pci_init(void);
void sim_pci_exit(void);
void sim_pci_set_tick(u64 ns);
u64 sim_pci_get_tick(void);

/* debugfs.c */
void sim_debugfs_init(void);
void sim_debugfs_exit(void);
void sim_bdx_debugfs_init(struct dentry *dir);
void sim_bdx_snapshot(unsigned int pkg, void *snap);
void sim_bdx_reset_stats(struct sim_socket *s);
char *sim_copy_in(const char __user *ubuf, size_t len);

/**
 * struct sim_cmd_file - a debugfs file whose lines are commands
 * @name: the file's name
 * @size: the size of one parsed command
 * @parse: parse one non-empty line into a command; 0 or an error
 * @apply: carry a parsed command out
 * @kind: passed to both: which commands the file takes (the model's own
 *	numbering)
 */
struct sim_cmd_file {
	const char *name;
	size_t size;
	int (*parse)(char *line, void *cmd, unsigned int kind);
	void (*apply)(const void *cmd, unsigned int kind);
	unsigned int kind;
};

void sim_debugfs_cmd_files(struct dentry *dir, const struct sim_cmd_file *cf,
			   unsigned int n);

int sim_each_snapshot(struct seq_file *m, size_t size,
		      void (*take)(unsigned int pkg, void *snap),
		      void (*use)(struct seq_file *m, unsigned int pkg,
				  void *snap, void *arg),
		      void *arg);

/**
 * struct sim_audit - the totals of debugfs "audit"
 * @leftovers: leftovers printed, one line each
 * @rsvd_writes: writes of bits nobody may set, since load
 * @faults: accesses the part would fault on, since load
 */
struct sim_audit {
	unsigned int leftovers;
	u64 rsvd_writes;
	u64 faults;
};

int sim_audit_end(struct seq_file *m, const struct sim_audit *a);

#endif /* _UNCORE_SIM_H */
