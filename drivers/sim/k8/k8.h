/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_sim: the AMD K8 (Athlon 64 / Opteron, family 0Fh) model's
 * registers (k8_regs.c, no locking) and what its glue (k8.c) and KUnit
 * share of them.
 *
 * (004:N) is line N of the BKDG chapter's seed; "digest §N" a section of
 * reference/amd-k8-perfmon.md; [INF] a choice of this model where neither
 * says.
 */
#ifndef _UNCORE_SIM_K8_H
#define _UNCORE_SIM_K8_H

#include <linux/bits.h>
#include <linux/types.h>

/* Four counters per core (004:9; per core: digest §1). */
#define K8_NR_CTRS		4
/*
 * Cores of a node the model keeps state for. A K8 node has at most two
 * (004:38, "dual core"); the room for more costs little [INF].
 */
#define K8_MAX_CORES		4

/* PerfEvtSel0-3 (004:44-46) and PerfCtr0-3 (004:19). */
#define K8_MSR_EVTSEL0		0xc0010000
#define K8_MSR_PERFCTR0		0xc0010004

/* PerfCtr: bits 47:0 count, 63:48 are reserved and read as zero (004:25) */
#define K8_CTR_WIDTH		48
#define K8_CTR_MASK		GENMASK_ULL(K8_CTR_WIDTH - 1, 0)

/* PerfEvtSel fields (004:52-72; the register figure is missing, 004:47) */
#define K8_SEL_EVENT		GENMASK_ULL(7, 0)
#define K8_SEL_UMASK		GENMASK_ULL(15, 8)
#define K8_SEL_USR		BIT_ULL(16)
#define K8_SEL_OS		BIT_ULL(17)
#define K8_SEL_EDGE		BIT_ULL(18)
#define K8_SEL_PC		BIT_ULL(19)
#define K8_SEL_INT		BIT_ULL(20)
#define K8_SEL_EN		BIT_ULL(22)
#define K8_SEL_INV		BIT_ULL(23)
#define K8_SEL_CNT_MASK		GENMASK_ULL(31, 24)
/* Never described by the seed: reserved [INF, digest §3]; not stored. */
#define K8_SEL_RSVD		(BIT_ULL(21) | GENMASK_ULL(63, 32))
/* CNT_MASK 4-255 is reserved (004:72). */
#define K8_CNT_MASK_MAX		3
/* At most three events occur in one clock (004:72). */
#define K8_MAX_INC		3

/* Event codes E0h-FFh are Northbridge events (digest §7). */
#define K8_NB_EVENT_FIRST	0xe0
/*
 * E9h's unit mask is three groups (004:614, 629-638): request type,
 * target node (10h remote, 20h local) and source node (40h remote, 80h
 * local).
 */
#define K8_EV_E9		0xe9
#define K8_E9_TYPE		GENMASK(3, 0)
#define K8_E9_TARGET		GENMASK(5, 4)
#define K8_E9_SOURCE		GENMASK(7, 6)

/**
 * struct k8_ctr - one PerfEvtSel/PerfCtr pair of a core
 * @sel: PerfEvtSel as stored (reserved bits 21 and 63:32 dropped)
 * @val: PerfCtr, 48 bits
 * @total: every increment since the model was set up, not wrapped; no
 *	write changes it
 * @prev_cond: the pipeline's condition at the last cycle counted, for
 *	edge detection; a write of @sel sets it to what the selection it
 *	leaves the detector on sees with no event (k8_write_sel())
 */
struct k8_ctr {
	u64 sel;
	u64 val;
	u64 total;
	bool prev_cond;
};

/**
 * struct k8_core - the performance counters of one core of a node
 * @present: the core is modelled (a CPU was there at set-up)
 * @halted: the core is halted: its counters' clock is stopped, so they
 *	count nothing, Northbridge events included (004:40-42). Set by tests,
 *	not from the guest's idle state.
 * @pmi_owed: a counter with INT overflowed and the PMI (an NMI to this
 *	core) has not been taken by k8_take_pmi() yet
 * @ctr: PerfEvtSel/PerfCtr 0-3
 */
struct k8_core {
	bool present;
	bool halted;
	bool pmi_owed;
	struct k8_ctr ctr[K8_NR_CTRS];
};

/**
 * struct k8_nb_slot - the Northbridge event select of one counter index
 * @sel: the whole selector of the last write of an NB event to this index
 *	by any core of the node; its event, unit mask, E, INV and CNT_MASK
 *	are what every core counting NB on this index counts
 * @writer: core (index in the node) of that write; -1 before any
 *
 * One per node and index i: the cores share the NB event-select logic
 * (004:38; digest §6, [INF]), so the last writer wins.
 */
struct k8_nb_slot {
	u64 sel;
	int writer;
};

/**
 * struct k8_stats - per node statistics
 * @reads: MSR reads, faulting ones included
 * @writes: MSR writes, faulting ones included
 * @faults: accesses answered -EIO: an MSR the part does not have, or a
 *	core the model does not keep
 * @rsvd_writes: PerfEvtSel writes setting bit 21 or 63:32 or with a
 *	CNT_MASK of 4-255; PerfCtr writes setting any of bits 63:48
 * @nb_clobbers: writes of an NB event to PerfEvtSel i of a core while
 *	another core of the node has EN and an NB event on index i
 * @sibling_conflicts: writes setting EN on PerfEvtSel i with an event of
 *	the other kind (NB or not) than another core's enabled index i
 *	(004:38's rule)
 * @one_write_enables: writes setting EN that also change the selection
 *	(event, unit mask, E, INV, CNT_MASK): 004:32-34 asks for the change
 *	with EN clear, then a second write
 * @false_edges: of those, the ones with E that counted an edge no event
 *	made (004:34)
 * @inject_lines: occurrences injected
 * @inject_hits: counters that matched an injected occurrence
 * @dropped: injected cycles that matched no counter
 * @overflows: carries out of bit 47
 * @pmis: of those, overflows of a counter with INT: a PMI asked for
 */
struct k8_stats {
	u64 reads;
	u64 writes;
	u64 faults;
	u64 rsvd_writes;
	u64 nb_clobbers;
	u64 sibling_conflicts;
	u64 one_write_enables;
	u64 false_edges;
	u64 inject_lines;
	u64 inject_hits;
	u64 dropped;
	u64 overflows;
	u64 pmis;
};

/**
 * struct k8_node - the performance counters of one node (package)
 * @id: node number
 * @core: its cores, by position in the node
 * @slot: the shared NB event select of each counter index
 * @stats: statistics
 *
 * The model functions do no locking; callers serialise per node.
 */
struct k8_node {
	unsigned int id;
	struct k8_core core[K8_MAX_CORES];
	struct k8_nb_slot slot[K8_NR_CTRS];
	struct k8_stats stats;
};

/**
 * struct k8_event - an injected occurrence: @count clocks of one event
 * @core: for an event below E0h, the core (index in the node) it happens
 *	on; ignored for an NB event, which happens on the node
 * @event: event code; E0h-FFh an NB event
 * @umask: the occurrence's unit mask; for E9h one bit of each group
 * @count: clocks
 * @inc: events per clock, 0 to K8_MAX_INC
 */
struct k8_event {
	unsigned int core;
	u8 event;
	u8 umask;
	u64 count;
	u64 inc;
};

void k8_node_init(struct k8_node *n, unsigned int id);
void k8_core_add(struct k8_node *n, unsigned int core);
bool k8_msr_exists(u32 msr);
bool k8_is_nb_event(u64 sel);
int k8_reg_access(struct k8_node *n, unsigned int core, u32 msr, u64 *val,
		  bool write);
bool k8_ctr_counts_nb(const struct k8_node *n, unsigned int core,
		      unsigned int i);
bool k8_ctr_counting(const struct k8_node *n, unsigned int core,
		     unsigned int i);
bool k8_e9_occurrence_valid(u8 umask);
int k8_inject(struct k8_node *n, const struct k8_event *ev);
int k8_set_counter(struct k8_node *n, unsigned int core, unsigned int i,
		   u64 value);
int k8_set_halted(struct k8_node *n, unsigned int core, bool halted);
bool k8_pmi_owed(const struct k8_node *n);
u32 k8_take_pmi(struct k8_node *n);
void k8_reset_stats(struct k8_node *n);

/* k8_pmu.c: the stand-in core PMU of guests without one */
int k8_pmu_init(void);
void k8_pmu_exit(void);

#endif /* _UNCORE_SIM_K8_H */
