/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_sim: the Xeon 7500 (Nehalem-EX) model's registers (nhmex_regs.c,
 * no locking) and what its glue (nhmex.c) and KUnit share of them.
 *
 * Line numbers (000:N) are lines of the Xeon 7500 uncore programming guide
 * seed; [EXT] marks facts from outside it (the digest's Appendix A), [INF]
 * choices of this model where neither says.
 */
#ifndef _UNCORE_SIM_NHMEX_H
#define _UNCORE_SIM_NHMEX_H

#include <linux/bits.h>
#include <linux/types.h>

/* Boxes per package and counters per box (000:377-381; [EXT] for M, W). */
#define NHMEX_NR_CBOX		8
#define NHMEX_NR_BBOX		2
#define NHMEX_NR_SBOX		2
#define NHMEX_NR_MBOX		2
#define NHMEX_NR_RHALF		2
#define NHMEX_NR_RPORTS		8
#define NHMEX_RPORTS_PER_HALF	(NHMEX_NR_RPORTS / NHMEX_NR_RHALF)
#define NHMEX_UBOX_CTRS		1
#define NHMEX_CBOX_CTRS		6
#define NHMEX_BBOX_CTRS		4
#define NHMEX_SBOX_CTRS		4
#define NHMEX_MBOX_CTRS		6
#define NHMEX_RBOX_CTRS		8	/* per half */
#define NHMEX_WBOX_CTRS		4
#define NHMEX_MAX_CTRS		8

/* Pseudo counter index naming the W-Box fixed counter. */
#define NHMEX_CTR_FIXED		0xff

/* Every counter is 48 bits; the carry out of bit 47 is the overflow (000:255) */
#define NHMEX_CTR_WIDTH		48
#define NHMEX_CTR_MASK		GENMASK_ULL(NHMEX_CTR_WIDTH - 1, 0)

/* U-Box global registers (Table 2-1, 000:158-167); counter [EXT]. */
#define NHMEX_MSR_U_BASE	0xc00
#define NHMEX_U_GCTL_U_EN	BIT(0)		/* [EXT] */
#define NHMEX_U_GCTL_CORE_SEL	GENMASK(8, 1)	/* 000:183-189, position [INF] */
#define NHMEX_U_GCTL_EN_ALL	BIT(28)		/* [EXT] */
#define NHMEX_U_GCTL_RST_ALL	BIT(29)		/* [EXT] */
#define NHMEX_U_GCTL_FRZ_ALL	BIT(31)		/* 000:182 */
#define NHMEX_U_GSTS_OV_U	BIT(0)		/* Table 2-3, 000:190-198 */
#define NHMEX_U_GSTS_OV_W	BIT(1)
#define NHMEX_U_GSTS_OV_S1	BIT(2)
#define NHMEX_U_GSTS_OV_S0	BIT(3)
#define NHMEX_U_GSTS_PMI	BIT(30)
#define NHMEX_U_GSTS_COND	BIT(31)

/* Register offsets within a box's block (000:1744-1774, 3114-3157). */
#define NHMEX_BOX_GLOBAL_CTL	0x0
#define NHMEX_BOX_GLOBAL_STATUS	0x1
#define NHMEX_BOX_OVF_CTL	0x2
#define NHMEX_S_SUMMARY		0x3
#define NHMEX_M_SUB_FIRST	0x4	/* M-Box sub-controls [EXT] */
#define NHMEX_R_IPERF_FIRST	0x4	/* IPERF_CFG<half> of ports 0-7 */
#define NHMEX_R_QLX_FIRST	0xc	/* QLX_CFG of the half's ports */
#define NHMEX_BOX_CTL0		0x10	/* counter i: CTL +2i, CTR +2i+1 */

/* W-Box fixed counter and its control [EXT]. */
#define NHMEX_MSR_W_FIXED_CTR	0x394
#define NHMEX_MSR_W_FIXED_CTL	0x395
#define NHMEX_W_GCTL_FIXED_EN	BIT(31)
#define NHMEX_W_GSTS_OV_FIXED	BIT(31)
#define NHMEX_W_FIXED_CTL_EN	BIT(0)

/* R-Box crossbar match/mask sets (Table 2-39, 000:3014-3076). */
#define NHMEX_MSR_R_XBR_FIRST	0xe60
#define NHMEX_R_XBR_HALF_STRIDE	0x20	/* ports 4-7 at 0xe80 */
#define NHMEX_R_XBR_SET_STRIDE	0x10	/* set 2 at 0xe70 */
#define NHMEX_R_XBR_PORT_STRIDE	0x4
#define NHMEX_R_NR_XBR		2

/* S_MSR_PMON_SUMMARY (Table 2-26, 000:1782-1802). */
#define NHMEX_S_SUM_OV_C_R	BIT(0)
#define NHMEX_S_SUM_OV_C_L	BIT(2)
#define NHMEX_S_SUM_OV_MB	BIT(16)
#define NHMEX_S_SUM_OV_S	BIT(18)
#define NHMEX_S_SUM_OV_R	BIT(19)

/**
 * enum nhmex_box_type - kinds of box modelled
 * @NHMEX_UBOX: the U-Box: global control and one counter
 * @NHMEX_CBOX: a C-Box (LLC coherence engine), 6 counters
 * @NHMEX_BBOX: a B-Box (home agent), 4 asymmetric counters, match/mask
 * @NHMEX_SBOX: an S-Box (system interface), 4 counters, match/mask, the
 *	overflow SUMMARY of its side
 * @NHMEX_MBOX: an M-Box (memory controller), 6 counters, sub-controls
 * @NHMEX_RBOX: an R-Box half (router), 8 counters, ports 0-3 or 4-7
 * @NHMEX_WBOX: the W-Box (power controller), 4 counters and a fixed one
 * @NHMEX_NR_BOX_TYPES: number of kinds
 */
enum nhmex_box_type {
	NHMEX_UBOX,
	NHMEX_CBOX,
	NHMEX_BBOX,
	NHMEX_SBOX,
	NHMEX_MBOX,
	NHMEX_RBOX,
	NHMEX_WBOX,
	NHMEX_NR_BOX_TYPES,
};

/**
 * enum nhmex_mm - a box's match/mask registers, in address order
 * @NHMEX_MM_CFG: MM_CFG (bit 63 gates matching); the B-Box has none
 * @NHMEX_MM_MATCH: MATCH (M-Box: ADDR_MATCH)
 * @NHMEX_MM_MASK: MASK (M-Box: ADDR_MASK)
 * @NHMEX_NR_MM: number of registers
 */
enum nhmex_mm {
	NHMEX_MM_CFG,
	NHMEX_MM_MATCH,
	NHMEX_MM_MASK,
	NHMEX_NR_MM,
};

/**
 * enum nhmex_m_sub - M-Box sub-control registers, at base + 4 + n [EXT]
 * @NHMEX_M_TIMESTAMP: TIMESTAMP
 * @NHMEX_M_DSP: DSP
 * @NHMEX_M_ISS: ISS
 * @NHMEX_M_MAP: MAP
 * @NHMEX_M_MSC_THR: MSC_THR
 * @NHMEX_M_PGT: PGT
 * @NHMEX_M_PLD: PLD
 * @NHMEX_M_ZDP: ZDP_CTL_FVC
 * @NHMEX_M_NR_SUB: number of registers
 */
enum nhmex_m_sub {
	NHMEX_M_TIMESTAMP,
	NHMEX_M_DSP,
	NHMEX_M_ISS,
	NHMEX_M_MAP,
	NHMEX_M_MSC_THR,
	NHMEX_M_PGT,
	NHMEX_M_PLD,
	NHMEX_M_ZDP,
	NHMEX_M_NR_SUB,
};

/**
 * enum nhmex_r_kind - which R-Box port sub-register an occurrence is for
 * @NHMEX_R_IPERF: IPERF_CFG0/1 (ev_sel k = 0, 1)
 * @NHMEX_R_QLX: the two QLX_CFG fields (k = 2, 3)
 * @NHMEX_R_XBR: crossbar match/mask set 1 or 2 (k = 4, 5)
 */
enum nhmex_r_kind {
	NHMEX_R_IPERF,
	NHMEX_R_QLX,
	NHMEX_R_XBR,
};

/**
 * struct nhmex_ctr - one counter and its control
 * @ctl: control register as stored (ignored and reserved bits clear)
 * @val: the 48-bit count (what a read returns unless rst_all is held)
 * @total: increments counted since the last rst_all, not wrapped
 * @prev_cond: C/S/W: threshold condition of the previous cycle, for edge
 * @occ_reset: S: the last write that set en also set reset_occ_cnt
 * @occ: S: the 7-bit queue occupancy subcounter (tally) of the counter
 */
struct nhmex_ctr {
	u64 ctl;
	u64 val;
	u64 total;
	bool prev_cond;
	bool occ_reset;
	u8 occ;
};

/**
 * struct nhmex_box - one box (or R-Box half)
 * @type: kind of box
 * @idx: instance number within its kind
 * @nr_ctrs: counters it has
 * @base: MSR of its GLOBAL_CTL
 * @mm_msr: MSR of its MM_CFG (B-Box: the unused address before MATCH);
 *	0 if it has no match/mask registers
 * @ctl: GLOBAL_CTL (ctr_en; W: also fixed_en)
 * @status: GLOBAL_STATUS (ov; W: also ov_fixed), the overflow leaves
 * @mm: match/mask registers, enum nhmex_mm
 * @sub: M-Box sub-control registers, enum nhmex_m_sub
 * @ctr: counters
 */
struct nhmex_box {
	enum nhmex_box_type type;
	u8 idx;
	u8 nr_ctrs;
	u32 base;
	u32 mm_msr;
	u32 ctl;
	u32 status;
	u64 mm[NHMEX_NR_MM];
	u64 sub[NHMEX_M_NR_SUB];
	struct nhmex_ctr ctr[NHMEX_MAX_CTRS];
};

/**
 * struct nhmex_rport - the sub-control registers of one R-Box port
 * @iperf: IPERF_CFG0 and IPERF_CFG1
 * @qlx: QLX_CFG: field 0 in bits 7:0, field 1 in bits 15:8 [EXT]
 * @xbr: crossbar match/mask set 1 and 2, enum nhmex_mm
 */
struct nhmex_rport {
	u32 iperf[2];
	u32 qlx;
	u64 xbr[NHMEX_R_NR_XBR][NHMEX_NR_MM];
};

/**
 * struct nhmex_stats - per package statistics
 * @reads: MSR reads, faulting ones included
 * @writes: MSR writes, faulting ones included
 * @faults: accesses to an MSR the part does not have (-EIO)
 * @rsvd_writes: writes that set reserved bits
 * @gp_mm: S- and M-Box MATCH/MASK writes refused because MM_CFG[63] was 1
 * @illegal_sel: R-Box control writes with ev_sel 0x18-0x1F
 * @inject_lines: occurrences injected
 * @inject_hits: counters that matched an injected occurrence
 * @overflows: carries out of bit 47
 * @freezes: freezes that took effect (en_all cleared, freeze_at reached)
 * @pmis: overflows with pmi_en and a non-zero pmi_core_sel, each asking
 *	for a PMI (at once, or at its freeze)
 * @dropped: injected cycles that matched no counting counter
 * @live_writes: writes of a counter while it counts: what it counts between
 *	the driver's read and the write is lost (the guide reloads counters
 *	frozen, §2.1.4)
 */
struct nhmex_stats {
	u64 reads;
	u64 writes;
	u64 faults;
	u64 rsvd_writes;
	u64 gp_mm;
	u64 illegal_sel;
	u64 inject_lines;
	u64 inject_hits;
	u64 overflows;
	u64 freezes;
	u64 pmis;
	u64 dropped;
	u64 live_writes;
};

/**
 * struct nhmex_pkg - the uncore PMU registers of one package
 * @id: package number
 * @uclk_hz: uncore clock, which the W-Box fixed counter counts
 * @now_ns: sim time up to which the fixed counter has been advanced
 * @uclk_ticks: uncore clock ticks from sim time 0 to @now_ns
 * @u_ctl: U GLOBAL_CTL
 * @u_status: the leaves of U GLOBAL_STATUS (ov_u, pmi, cond); ov_w,
 *	ov_s0 and ov_s1 are derived when read
 * @freeze_delay_ns: sim time from an overflow that asks for a freeze to
 *	the freeze (the skew of 000:247-251); 0: at the overflow
 * @freeze_pending: an overflow with pmi_en and frz_all asked for a freeze
 *	that has not taken effect yet; everything still counts
 * @freeze_at: sim time at which the pending freeze takes effect
 * @freeze_cores: pmi_core_sel of the overflows that joined the pending
 *	freeze: the PMI owed when it takes effect
 * @frozen: en_all was cleared by a freeze and has not been set since
 * @pmi_owed: a PMI not yet taken: an overflow with pmi_en without
 *	frz_all, or a freeze that took effect
 * @pmi_cores: the pmi_core_sel cores it is owed to
 * @ubox: the U-Box counter (its global registers are @u_ctl, @u_status)
 * @cbox: C-Box 0-7
 * @bbox: B-Box 0-1
 * @sbox: S-Box 0-1
 * @mbox: M-Box 0-1
 * @rbox: R-Box left (ports 0-3) and right (ports 4-7) halves
 * @wbox: the W-Box
 * @wfixed: the W-Box fixed counter; its control is @wfixed.ctl
 * @rport: R-Box ports 0-7
 * @stats: statistics
 *
 * The model functions do no locking; callers serialise per package.
 */
struct nhmex_pkg {
	unsigned int id;
	u64 uclk_hz;
	u64 now_ns;
	u64 uclk_ticks;
	u32 u_ctl;
	u32 u_status;
	u64 freeze_delay_ns;
	bool freeze_pending;
	u64 freeze_at;
	u8 freeze_cores;
	bool frozen;
	bool pmi_owed;
	u8 pmi_cores;
	struct nhmex_box ubox;
	struct nhmex_box cbox[NHMEX_NR_CBOX];
	struct nhmex_box bbox[NHMEX_NR_BBOX];
	struct nhmex_box sbox[NHMEX_NR_SBOX];
	struct nhmex_box mbox[NHMEX_NR_MBOX];
	struct nhmex_box rbox[NHMEX_NR_RHALF];
	struct nhmex_box wbox;
	struct nhmex_ctr wfixed;
	struct nhmex_rport rport[NHMEX_NR_RPORTS];
	struct nhmex_stats stats;
};

/**
 * struct nhmex_event - an injected occurrence: @count cycles of one event
 * @type: box kind
 * @idx: box instance (R-Box: the half of @port)
 * @event: U/C/S/W: ev_sel to match; B: the 5-bit ev_sel of counter @ctr
 * @umask: C/S/W: unit mask to match
 * @ctr: B: the counter the event belongs to
 * @occ_line: S: a queue occupancy line: @enq and @deq move the tally of
 *	each matching counter, and each cycle adds the tally, not @inc
 * @enq: S: entries that arrive in the queue at the start of the line
 * @deq: S: entries that leave it then
 * @has_pkt: S, B: @pkt was given
 * @pkt: S: packet in S_MSR_MATCH layout; B: in B_MSR_MATCH layout
 * @sel: M: inc_sel, or set_flag_sel with @flag
 * @flag: M: a set_flag_sel event (flag_mode = 1)
 * @subs: M: bit n: @sub[n] was given (enum nhmex_m_sub)
 * @sub: M: the value each given sub-control must hold
 * @has_fvc: M: @fvc was given
 * @fvc: M: the 3-bit ZDP_CTL_FVC field the counter's inc_sel uses
 * @has_addr: M: @addr was given
 * @addr: M: the 34-bit address for the address match
 * @port: R: port 0-7
 * @rkind: R: which sub-register the occurrence is for
 * @rval: R: IPERF bits, QLX field value or packet in XBR MATCH layout
 * @count: number of cycles
 * @inc: per-cycle increment
 */
struct nhmex_event {
	enum nhmex_box_type type;
	unsigned int idx;
	u8 event;
	u8 umask;
	unsigned int ctr;
	bool occ_line;
	u8 enq;
	u8 deq;
	bool has_pkt;
	u64 pkt;
	u8 sel;
	bool flag;
	u32 subs;
	u64 sub[NHMEX_M_NR_SUB];
	bool has_fvc;
	u8 fvc;
	bool has_addr;
	u64 addr;
	unsigned int port;
	enum nhmex_r_kind rkind;
	u64 rval;
	u64 count;
	u64 inc;
};

void nhmex_pkg_init(struct nhmex_pkg *p, unsigned int id, u64 uclk_hz,
		    u64 now_ns);
void nhmex_advance(struct nhmex_pkg *p, u64 now_ns);
bool nhmex_msr_exists(struct nhmex_pkg *p, u32 msr);
int nhmex_reg_access(struct nhmex_pkg *p, u64 now_ns, u32 msr, u64 *val,
		     bool write);
unsigned int nhmex_box_count(enum nhmex_box_type type);
unsigned int nhmex_box_nr_ctrs(enum nhmex_box_type type);
const char *nhmex_box_name(enum nhmex_box_type type);
u64 nhmex_ctl_en_bits(enum nhmex_box_type type, u64 *pmi_en);
struct nhmex_box *nhmex_box(struct nhmex_pkg *p, enum nhmex_box_type type,
			    unsigned int idx);
bool nhmex_ctr_counting(const struct nhmex_pkg *p,
			const struct nhmex_box *box, unsigned int i);
bool nhmex_fixed_counting(const struct nhmex_pkg *p);
u64 nhmex_ctr_read(const struct nhmex_pkg *p, const struct nhmex_ctr *c);
u32 nhmex_u_status(const struct nhmex_pkg *p);
u32 nhmex_s_summary(const struct nhmex_pkg *p, unsigned int s);
int nhmex_inject(struct nhmex_pkg *p, u64 now_ns,
		 const struct nhmex_event *ev);
int nhmex_set_counter(struct nhmex_pkg *p, u64 now_ns,
		      enum nhmex_box_type type, unsigned int idx,
		      unsigned int ctr, u64 value);
void nhmex_freeze_now(struct nhmex_pkg *p);
bool nhmex_take_pmi(struct nhmex_pkg *p, u8 *cores);
void nhmex_reset_stats(struct nhmex_pkg *p);

#endif /* _UNCORE_SIM_NHMEX_H */
