/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_sim: register-level model of the Broadwell-EP/EX ("BDX") uncore
 * performance monitoring MSR boxes, plus the PCI functions the driver
 * needs for discovery.
 *
 * Manual: Intel Xeon E5 and E7 v4 Uncore Performance Monitoring Reference
 * Manual (334291-001US); section numbers below refer to it.
 */
#ifndef _UNCORE_SIM_H
#define _UNCORE_SIM_H

#include <linux/bits.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#define SIM_MAX_PKGS		8
#define SIM_NR_CBO		24
#define SIM_NR_SBO		4
#define SIM_NR_CTRS		4
#define SIM_NR_UBOX_CTRS	2
/* Pseudo counter index naming the UBox fixed UCLK counter. */
#define SIM_CTR_FIXED		0xff

#define SIM_CTR_WIDTH		48
#define SIM_CTR_MASK		GENMASK_ULL(SIM_CTR_WIDTH - 1, 0)

/* PCLK is a fixed 800 MHz clock (2.8.6, PCU CLOCKTICKS). */
#define SIM_PCLK_HZ		800000000ULL
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

/**
 * enum sim_box_type - kinds of MSR box modelled
 * @SIM_UBOX: the UBox (global control, fixed UCLK counter, 2 counters)
 * @SIM_CBO: a CBo (LLC slice agent), 4 counters, two filter registers
 * @SIM_SBO: an SBo (ring bridge), 4 counters, write-twice erratum
 * @SIM_PCU: the PCU, 4 counters, band filter, occupancy sub-counters
 */
enum sim_box_type {
	SIM_UBOX,
	SIM_CBO,
	SIM_SBO,
	SIM_PCU,
};

/**
 * struct sim_ctr - one counter/control pair
 * @val: 48-bit counter value as software reads it
 * @total: increments counted since the last counter reset, not wrapped
 * @ctl: control register as stored (write-only bits clear)
 * @latched: SBo only: the event select has taken hold (write-twice erratum)
 * @prev_cond: threshold condition of the previous cycle, for edge detect
 */
struct sim_ctr {
	u64 val;
	u64 total;
	u32 ctl;
	bool latched;
	bool prev_cond;
};

/**
 * struct sim_box - state of one MSR box
 * @type: kind of box
 * @idx: instance number within its kind
 * @present: the box exists (CAPID4/CAPID5); absent boxes fault on access
 * @frozen: BOX_CTL.frz was last written as 1
 * @status: BOX_STATUS (ov bits, RW1C)
 * @filter: CBo FILTER0/FILTER1; PCU BOX_FILTER is @filter[0]
 * @ctr: counters; the UBox uses only the first two
 */
struct sim_box {
	enum sim_box_type type;
	u8 idx;
	bool present;
	bool frozen;
	u32 status;
	u32 filter[2];
	struct sim_ctr ctr[SIM_NR_CTRS];
};

/**
 * struct sim_stats - per package access and protocol statistics
 * @msr_reads: MSR reads, including faulting ones
 * @msr_writes: MSR writes, including faulting ones
 * @msr_faults: accesses answered with -EIO (the part would #GP)
 * @rsvd_writes: writes that set reserved bits of a control register
 * @boxctl_no_must1: BOX_CTL writes with bits 17:16 not both 1
 * @inject_lines: occurrences injected through debugfs
 * @inject_hits: counters that counted an injected occurrence
 * @overflows: carries out of bit 47 of any counter
 */
struct sim_stats {
	u64 msr_reads;
	u64 msr_writes;
	u64 msr_faults;
	u64 rsvd_writes;
	u64 boxctl_no_must1;
	u64 inject_lines;
	u64 inject_hits;
	u64 overflows;
};

/**
 * struct sim_pkg - the uncore MSR state of one physical package
 * @id: physical package number
 * @nodeid: node ID of this package (UBox config 0x40)
 * @capid4: CAPID4 (PCU.3 config 0x94); bits 7:6 give the SBo count
 * @capid5: CAPID5 (PCU.3 config 0x98); bits 23:0 are the present CBos
 * @uclk_hz: uncore clock
 * @pclk_hz: PCU clock
 * @now_ns: sim time up to which the counters have been advanced
 * @uclk_ticks: UCLK ticks since sim time 0 at @now_ns
 * @pclk_ticks: PCLK ticks since sim time 0 at @now_ns
 * @global_frozen: frz_all latched and no unfrz_all since
 * @global_ctl: readable part of U_MSR_PMON_GLOBAL_CTL
 * @global_status: U_MSR_PMON_GLOBAL_STATUS
 * @global_config: U_MSR_PMON_GLOBAL_CONFIG
 * @fixed: UBox fixed UCLK counter; its control is @fixed.ctl
 * @ubox: the UBox general counters and BOX_STATUS
 * @pcu: the PCU
 * @cbo: CBo 0..23
 * @sbo: SBo 0..3
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
	u64 now_ns;
	u64 uclk_ticks;
	u64 pclk_ticks;
	bool global_frozen;
	u32 global_ctl;
	u64 global_status;
	u32 global_config;
	struct sim_ctr fixed;
	struct sim_box ubox;
	struct sim_box pcu;
	struct sim_box cbo[SIM_NR_CBO];
	struct sim_box sbo[SIM_NR_SBO];
	struct sim_stats stats;
};

/**
 * struct sim_event - an injected occurrence: @count cycles of one event
 * @type: box kind
 * @idx: box instance
 * @ev_sel: event select to match
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
 */
struct sim_event {
	enum sim_box_type type;
	unsigned int idx;
	u8 ev_sel;
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
};

/**
 * struct sim_socket - a package's model and the lock serialising it
 * @lock: taken with IRQs off by every accessor of @pkg
 * @pkg: the register model
 */
struct sim_socket {
	raw_spinlock_t lock;
	struct sim_pkg pkg;
};

/* bdx_regs.c: the register model (no locking, no hardware). */
void sim_pkg_init(struct sim_pkg *pkg, unsigned int id, u8 nodeid,
		  u32 capid4, u32 capid5, u64 uclk_hz, u64 now_ns);
void sim_pkg_advance(struct sim_pkg *pkg, u64 now_ns);
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

/* main.c */
extern struct sim_socket sim_sockets[SIM_MAX_PKGS];
extern unsigned int sim_nr_pkgs;
u64 sim_clock_now(void);
bool sim_clock_frozen(void);
void sim_clock_freeze(void);
void sim_clock_run(void);
int sim_clock_advance(u64 ns);

/* pci.c */
int sim_pci_init(void);
void sim_pci_exit(void);

/* debugfs.c */
void sim_debugfs_init(void);
void sim_debugfs_exit(void);

#endif /* _UNCORE_SIM_H */
