// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_sim: the performance counters of an AMD K8 node (see k8.c for
 * the part), as pure functions of the node's state: no locking, no
 * hardware, no debugfs, no sim time (nothing here counts a clock). KUnit
 * tests them (tests/kunit/k8_regs_test.c).
 *
 * Every core has PerfEvtSel0-3 and PerfCtr0-3 of its own; an NB event
 * (E0h-FFh) selected on index i goes to the node's one NB slot of index
 * i, which every core counting NB on i counts (digest §6, [INF]).
 *
 * (004:N) is line N of the BKDG chapter's seed; "digest §N" a section of
 * reference/amd-k8-perfmon.md; [INF] a choice of this model.
 */
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/overflow.h>
#include <linux/string.h>

#include "counter.h"
#include "k8.h"

/* A core's bits in k8_take_pmi()'s answer are a u32. */
static_assert(K8_MAX_CORES <= 32);

/**
 * k8_node_init() - every register 0, no core present, no NB selection
 * @n: the node
 * @id: its number
 */
void k8_node_init(struct k8_node *n, unsigned int id)
{
	unsigned int i;

	memset(n, 0, sizeof(*n));
	n->id = id;
	for (i = 0; i < K8_NR_CTRS; i++)
		n->slot[i].writer = -1;
}

/**
 * k8_core_add() - model core @core of the node
 * @n: the node
 * @core: position of the core in the node; ignored past K8_MAX_CORES
 */
void k8_core_add(struct k8_node *n, unsigned int core)
{
	if (core < K8_MAX_CORES)
		n->core[core].present = true;
}

/**
 * k8_msr_exists() - is @msr a PerfEvtSel or PerfCtr
 * @msr: the MSR
 *
 * Return: true for C001_0000h-C001_0007h (004:19, 44-46), false for any
 * other MSR, which faults.
 */
bool k8_msr_exists(u32 msr)
{
	return msr - K8_MSR_EVTSEL0 < K8_NR_CTRS ||
	       msr - K8_MSR_PERFCTR0 < K8_NR_CTRS;
}

/**
 * k8_is_nb_event() - does a selector name a Northbridge event
 * @sel: a PerfEvtSel value
 *
 * Return: true for event codes E0h-FFh (digest §7; Linux's test too).
 */
bool k8_is_nb_event(u64 sel)
{
	return FIELD_GET(K8_SEL_EVENT, sel) >= K8_NB_EVENT_FIRST;
}

static bool k8_core_ok(const struct k8_node *n, unsigned int core)
{
	return core < K8_MAX_CORES && n->core[core].present;
}

/*
 * The selector counter @i of @core counts by: its own, or for an NB
 * event the node's slot, whoever wrote it last (the visible clobber of
 * 004:38). EN, USR, OS and INT stay the core's own.
 */
static u64 k8_effective_sel(const struct k8_node *n, unsigned int core,
			    unsigned int i)
{
	u64 sel = n->core[core].ctr[i].sel;

	return k8_is_nb_event(sel) ? n->slot[i].sel : sel;
}

/**
 * k8_ctr_counts_nb() - is counter @i of @core counting an NB event
 * @n: the node
 * @core: the core's position in the node
 * @i: counter index
 *
 * Return: true if its own PerfEvtSel @i has EN and an NB event, whatever
 * the core's state; what it then counts is the slot's selection.
 */
bool k8_ctr_counts_nb(const struct k8_node *n, unsigned int core,
		      unsigned int i)
{
	u64 sel;

	if (!k8_core_ok(n, core) || i >= K8_NR_CTRS)
		return false;
	sel = n->core[core].ctr[i].sel;
	return (sel & K8_SEL_EN) && k8_is_nb_event(sel);
}

/**
 * k8_ctr_counting() - does counter @i of @core count occurrences now
 * @n: the node
 * @core: the core's position in the node
 * @i: counter index
 *
 * EN set and the core not halted (its counters' clock stops, 004:40-42);
 * a CNT_MASK of 4-255 in the selection it counts by is reserved (004:72)
 * and counts nothing [INF]. A core event also needs USR or OS: the model
 * has no CPL, so either lets every occurrence count [INF]; NB events are
 * not the core's and ignore both [INF, digest §11].
 *
 * Return: true if it counts.
 */
bool k8_ctr_counting(const struct k8_node *n, unsigned int core,
		     unsigned int i)
{
	u64 sel;

	if (!k8_core_ok(n, core) || i >= K8_NR_CTRS || n->core[core].halted)
		return false;
	sel = n->core[core].ctr[i].sel;
	if (!(sel & K8_SEL_EN))
		return false;
	if (!k8_is_nb_event(sel) && !(sel & (K8_SEL_USR | K8_SEL_OS)))
		return false;
	sel = k8_effective_sel(n, core, i);
	return FIELD_GET(K8_SEL_CNT_MASK, sel) <= K8_CNT_MASK_MAX;
}

/*
 * A PerfEvtSel write. Bits 21 and 63:32 are never described (digest §3):
 * reserved, dropped and counted [INF]; a CNT_MASK of 4-255 is reserved
 * too (004:72) but kept, so the counter counts nothing. An NB event goes
 * to the node's slot of this index, EN or not, last writer wins
 * (digest §6, [INF]); a core event leaves the slot as it is. The
 * statistics look at the other cores' registers before the write:
 * nb_clobbers whenever one of them counts NB on this index (Linux's owner
 * table prevents exactly this), sibling_conflicts when an enabling write
 * mixes NB and core events on the index across cores (004:38, which
 * Linux does not prevent). Neither changes counting.
 *
 * The edge detector (004:32-34): a write that changes the selection with
 * EN clear leaves it watching the new selection, which with no event
 * (between lines) is high only with INV (k8_idle_cond()); the enabling
 * write of the BKDG's two-write sequence then finds no edge. A write that
 * sets EN and changes the selection at once (Linux's single-write enable,
 * one_write_enables) leaves it on the old selection's level, and where
 * that was low and the new one is high it detects the edge the BKDG
 * calls false: one count at once (false_edges) [INF: when a static 1
 * follows a static 0, 004:34; the model's only static 1 is an idle INV
 * condition].
 */
static void k8_add(struct k8_node *n, struct k8_core *core, struct k8_ctr *c,
		   u64 add);

static bool k8_idle_cond(u64 sel)
{
	return sel & K8_SEL_INV;
}

static void k8_write_sel(struct k8_node *n, unsigned int core,
			 unsigned int i, u64 val)
{
	const u64 what = K8_SEL_EVENT | K8_SEL_UMASK | K8_SEL_EDGE |
			 K8_SEL_INV | K8_SEL_CNT_MASK;
	struct k8_ctr *c = &n->core[core].ctr[i];
	u64 sel = val & ~K8_SEL_RSVD;
	bool nb = k8_is_nb_event(sel), en = sel & K8_SEL_EN;
	bool clobber = false, conflict = false;
	bool one_write = en && ((c->sel ^ sel) & what);
	unsigned int j;

	if ((val & K8_SEL_RSVD) ||
	    FIELD_GET(K8_SEL_CNT_MASK, sel) > K8_CNT_MASK_MAX)
		n->stats.rsvd_writes++;
	for (j = 0; j < K8_MAX_CORES; j++) {
		u64 other = n->core[j].ctr[i].sel;

		if (j == core || !(other & K8_SEL_EN))
			continue;
		if (nb && k8_is_nb_event(other))
			clobber = true;
		if (en && nb != k8_is_nb_event(other))
			conflict = true;
	}
	if (clobber)
		n->stats.nb_clobbers++;
	if (conflict)
		n->stats.sibling_conflicts++;
	c->prev_cond = k8_idle_cond(one_write ? c->sel : sel);
	c->sel = sel;
	if (one_write) {
		n->stats.one_write_enables++;
		if ((sel & K8_SEL_EDGE) && k8_idle_cond(sel) && !c->prev_cond) {
			n->stats.false_edges++;
			c->prev_cond = true;
			k8_add(n, &n->core[core], c, 1);
		}
	}
	if (nb) {
		n->slot[i].sel = sel;
		n->slot[i].writer = core;
	}
}

/*
 * A PerfCtr write: software preloads counters (004:15). Bits 63:48 are
 * reserved (004:25): a write setting any is counted and stored masked
 * (Linux masks to 48 bits, so a correct driver never sets them).
 */
static void k8_write_ctr(struct k8_node *n, struct k8_ctr *c, u64 val)
{
	if (val & ~K8_CTR_MASK)
		n->stats.rsvd_writes++;
	c->val = val & K8_CTR_MASK;
}

/**
 * k8_reg_access() - an RDMSR or WRMSR by core @core of the node
 * @n: the node
 * @core: the core's position in the node
 * @msr: the MSR
 * @val: read into, or the value written
 * @write: a write
 *
 * Return: 0, or -EIO where the part would #GP: an MSR it does not have,
 * or a core the model does not keep (*@val = 0 for a read).
 */
int k8_reg_access(struct k8_node *n, unsigned int core, u32 msr, u64 *val,
		  bool write)
{
	struct k8_ctr *c;

	if (write)
		n->stats.writes++;
	else
		n->stats.reads++;
	if (!k8_msr_exists(msr) || !k8_core_ok(n, core)) {
		n->stats.faults++;
		if (!write)
			*val = 0;
		return -EIO;
	}
	if (msr - K8_MSR_PERFCTR0 < K8_NR_CTRS) {
		c = &n->core[core].ctr[msr - K8_MSR_PERFCTR0];
		if (write)
			k8_write_ctr(n, c, *val);
		else
			*val = c->val;
		return 0;
	}
	if (write)
		k8_write_sel(n, core, msr - K8_MSR_EVTSEL0, *val);
	else
		*val = n->core[core].ctr[msr - K8_MSR_EVTSEL0].sel;
	return 0;
}

/**
 * k8_e9_occurrence_valid() - can an E9h request carry unit mask @umask
 * @umask: the occurrence's unit mask
 *
 * A request has one type, one target and one source (004:614, 629-638),
 * so exactly one bit of each group, and only the paths of the BKDG's table
 * occur (004:618-623): no remote to remote request, no remote CPU to local
 * memory.
 *
 * Return: true if it has.
 */
bool k8_e9_occurrence_valid(u8 umask)
{
	static const u8 paths[] = {
		0xa8, 0xa4, 0xa2, 0xa1, 0x98, 0x94, 0x92, 0x91, 0x64, 0x61,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(paths); i++)
		if (umask == paths[i])
			return true;
	return false;
}

/*
 * Unit masks select sub-events that are counted together (004:54): an
 * occurrence matches a selection sharing a bit with it, or both 0 (no
 * unit mask, 004:56). E9h's groups must each share a bit (004:614-616,
 * 625): type, target and source alike.
 */
static bool k8_umask_match(u8 event, u8 sel_umask, u8 umask)
{
	u8 common = sel_umask & umask;

	if (event == K8_EV_E9)
		return (common & K8_E9_TYPE) && (common & K8_E9_TARGET) &&
		       (common & K8_E9_SOURCE);
	return common || (!sel_umask && !umask);
}

/* Counter @i of @core counts @ev: its kind, event and unit mask. */
static bool k8_ctr_match(const struct k8_node *n, unsigned int core,
			 unsigned int i, const struct k8_event *ev)
{
	u64 sel = n->core[core].ctr[i].sel;

	if (!k8_ctr_counting(n, core, i) ||
	    k8_is_nb_event(sel) != k8_is_nb_event(ev->event))
		return false;
	sel = k8_effective_sel(n, core, i);
	return FIELD_GET(K8_SEL_EVENT, sel) == ev->event &&
	       k8_umask_match(ev->event, FIELD_GET(K8_SEL_UMASK, sel),
			      ev->umask);
}

/*
 * The per-clock pipeline (004:62, 70-72) over @count clocks of @inc
 * events each, by selector @sel: CNT_MASK 0 adds the events (INV with
 * CNT_MASK 0 is not defined; as digest §13, +1 per clock with none
 * [INF]); CNT_MASK 1-3 adds 1 per clock with at least CNT_MASK (fewer
 * with INV). E counts the rising edges of that condition (inc != 0 for
 * CNT_MASK 0 without INV) [INF: 004:34 and 62 say "a transition" and
 * "edge detection", not which]; a line's clocks are alike, so it has at
 * most one, and its condition carries over to the counter's next line.
 */
static u64 k8_pipeline(struct k8_ctr *c, u64 sel, u64 inc, u64 count)
{
	u64 mask = FIELD_GET(K8_SEL_CNT_MASK, sel);
	bool inv = sel & K8_SEL_INV, cond, rise;

	if (!count)
		return 0;
	if (mask)
		cond = inv ? inc < mask : inc >= mask;
	else
		cond = inv ? inc == 0 : inc != 0;
	rise = cond && !c->prev_cond;
	c->prev_cond = cond;
	if (sel & K8_SEL_EDGE)
		return rise;
	if (!mask && !inv)
		return inc * count;
	return cond ? count : 0;
}

/*
 * A carry out of bit 47 (004:15): there is no overflow status register
 * (digest §5), so INT alone asks for the PMI, to this core (the one
 * whose PerfEvtSel has INT, digest §5 [INF]), also for an NB event. A
 * PMI not yet taken merges with the next.
 */
static void k8_add(struct k8_node *n, struct k8_core *core, struct k8_ctr *c,
		   u64 add)
{
	c->total += add;
	if (!sim_counter_add(&c->val, K8_CTR_MASK, add))
		return;
	n->stats.overflows++;
	if (c->sel & K8_SEL_INT) {
		n->stats.pmis++;
		core->pmi_owed = true;
	}
}

/**
 * k8_inject() - @ev->count clocks of an event, now
 * @n: the node
 * @ev: the occurrence; an NB event (E0h-FFh) happens on the node, any
 *	other on core @ev->core
 *
 * An NB event is counted by every counter of every core of the node that
 * counts NB on its index and whose slot matches; a core event by the
 * counters of its core that select it. Which counters match is decided
 * before any counts. A line that matches none adds its clocks to
 * dropped.
 *
 * Return: the number of counters that matched, or -EINVAL: @ev->inc
 * above K8_MAX_INC, @ev->count * @ev->inc beyond 64 bits, an E9h unit
 * mask without one bit per group, a core event on a core not modelled.
 */
int k8_inject(struct k8_node *n, const struct k8_event *ev)
{
	bool nb = k8_is_nb_event(ev->event);
	u32 hits[K8_MAX_CORES] = { };
	unsigned int j, i, nhits = 0;
	u64 prod, add;

	if (ev->inc > K8_MAX_INC || check_mul_overflow(ev->count, ev->inc, &prod))
		return -EINVAL;
	if (nb && ev->event == K8_EV_E9 && !k8_e9_occurrence_valid(ev->umask))
		return -EINVAL;
	if (!nb && !k8_core_ok(n, ev->core))
		return -EINVAL;
	n->stats.inject_lines++;
	for (j = 0; j < K8_MAX_CORES; j++) {
		if (!nb && j != ev->core)
			continue;
		for (i = 0; i < K8_NR_CTRS; i++) {
			if (k8_ctr_match(n, j, i, ev)) {
				hits[j] |= BIT(i);
				nhits++;
			}
		}
	}
	for (j = 0; j < K8_MAX_CORES; j++) {
		for (i = 0; i < K8_NR_CTRS; i++) {
			struct k8_ctr *c = &n->core[j].ctr[i];

			if (!(hits[j] & BIT(i)))
				continue;
			add = k8_pipeline(c, k8_effective_sel(n, j, i), ev->inc,
					  ev->count);
			if (add)
				k8_add(n, &n->core[j], c, add);
		}
	}
	n->stats.inject_hits += nhits;
	if (!nhits)
		n->stats.dropped += ev->count;
	return nhits;
}

/**
 * k8_set_counter() - load a counter's 48-bit value, total unchanged
 * @n: the node
 * @core: the core's position in the node
 * @i: counter index
 * @value: the value; bits above 47 are dropped
 *
 * Return: 0, or -EINVAL for no such counter.
 */
int k8_set_counter(struct k8_node *n, unsigned int core, unsigned int i,
		   u64 value)
{
	if (!k8_core_ok(n, core) || i >= K8_NR_CTRS)
		return -EINVAL;
	n->core[core].ctr[i].val = value & K8_CTR_MASK;
	return 0;
}

/**
 * k8_set_halted() - halt a core, or let it run
 * @n: the node
 * @core: the core's position in the node
 * @halted: its counters stop (004:40-42) while true
 *
 * Return: 0, or -EINVAL for a core not modelled.
 */
int k8_set_halted(struct k8_node *n, unsigned int core, bool halted)
{
	if (!k8_core_ok(n, core))
		return -EINVAL;
	n->core[core].halted = halted;
	return 0;
}

/**
 * k8_pmi_owed() - does any core of the node wait for a PMI
 * @n: the node
 *
 * Return: true if one does.
 */
bool k8_pmi_owed(const struct k8_node *n)
{
	unsigned int j;

	for (j = 0; j < K8_MAX_CORES; j++)
		if (n->core[j].pmi_owed)
			return true;
	return false;
}

/**
 * k8_take_pmi() - hand the owed PMIs to delivery
 * @n: the node
 *
 * Return: bit j set for each core j (position in the node) owed a PMI;
 * none is owed any more.
 */
u32 k8_take_pmi(struct k8_node *n)
{
	u32 cores = 0;
	unsigned int j;

	for (j = 0; j < K8_MAX_CORES; j++) {
		if (n->core[j].pmi_owed)
			cores |= BIT(j);
		n->core[j].pmi_owed = false;
	}
	return cores;
}

/**
 * k8_reset_stats() - zero the node's statistics
 * @n: the node
 */
void k8_reset_stats(struct k8_node *n)
{
	memset(&n->stats, 0, sizeof(n->stats));
}
