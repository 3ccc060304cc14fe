// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the simulator's AMD K8 performance counters
 * (drivers/sim/k8/k8_regs.c): the MSR map and its faults, reserved bits of
 * PerfEvtSel and PerfCtr, the 48-bit counters and their overflow with and
 * without INT, the per-clock pipeline (CNT_MASK, INV, E), unit-mask
 * matching with E9h's three groups, the node's shared NB slots (last
 * writer wins, the clobber it makes visible, and the two statistics), and
 * halted cores. MSR numbers and selector bits are spelled out here rather
 * than taken from the model, so a wrong map in it shows.
 */
#include <kunit/test.h>

#include "../../drivers/sim/k8/k8_regs.c"

#define EVTSEL(i)	(0xc0010000 + (i))
#define PERFCTR(i)	(0xc0010004 + (i))

#define USR		BIT_ULL(16)
#define OS		BIT_ULL(17)
#define EDGE		BIT_ULL(18)
#define PC		BIT_ULL(19)
#define INT		BIT_ULL(20)
#define EN		BIT_ULL(22)
#define INV		BIT_ULL(23)
#define CMASK(c)	((u64)(c) << 24)
/* An enabled selector counting at every CPL. */
#define SEL(ev, um)	((u64)(ev) | (u64)(um) << 8 | USR | OS | EN)

#define TOP		(BIT_ULL(48) - 1)

/* A node with cores 0 and 1, as a dual-core Opteron. */
static struct k8_node *k8_new(struct kunit *test)
{
	struct k8_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, n);
	k8_node_init(n, 0);
	k8_core_add(n, 0);
	k8_core_add(n, 1);
	return n;
}

static void wr(struct kunit *test, struct k8_node *n, unsigned int core,
	       u32 msr, u64 v)
{
	KUNIT_ASSERT_EQ(test, k8_reg_access(n, core, msr, &v, true), 0);
}

static u64 rd(struct kunit *test, struct k8_node *n, unsigned int core,
	      u32 msr)
{
	u64 v;

	KUNIT_ASSERT_EQ(test, k8_reg_access(n, core, msr, &v, false), 0);
	return v;
}

/* One line: @count clocks of @inc events; returns the counters hit. */
static int inj(struct k8_node *n, unsigned int core, u8 ev, u8 umask,
	       u64 count, u64 inc)
{
	struct k8_event e = {
		.core = core, .event = ev, .umask = umask,
		.count = count, .inc = inc,
	};

	return k8_inject(n, &e);
}

static u64 total(struct k8_node *n, unsigned int core, unsigned int i)
{
	return n->core[core].ctr[i].total;
}

/* Eight MSRs per core; anything else, or a core not kept, faults. */
static void k8_test_msr_map(struct kunit *test)
{
	struct k8_node *n = k8_new(test);
	u64 v = 0x55;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_TRUE(test, k8_msr_exists(EVTSEL(i)));
		KUNIT_EXPECT_TRUE(test, k8_msr_exists(PERFCTR(i)));
		wr(test, n, 1, EVTSEL(i), SEL(0x40 + i, 0));
		wr(test, n, 1, PERFCTR(i), 100 + i);
	}
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, rd(test, n, 1, EVTSEL(i)), SEL(0x40 + i, 0));
		KUNIT_EXPECT_EQ(test, rd(test, n, 1, PERFCTR(i)), 100ULL + i);
		/* Per core: core 0's are untouched. */
		KUNIT_EXPECT_EQ(test, rd(test, n, 0, EVTSEL(i)), 0ULL);
	}
	KUNIT_EXPECT_FALSE(test, k8_msr_exists(0xc0010008));
	KUNIT_EXPECT_FALSE(test, k8_msr_exists(0xc000ffff));
	KUNIT_EXPECT_FALSE(test, k8_msr_exists(0x186));
	KUNIT_EXPECT_EQ(test, n->stats.faults, 0ULL);

	KUNIT_EXPECT_EQ(test, k8_reg_access(n, 0, 0xc0010008, &v, false), -EIO);
	KUNIT_EXPECT_EQ(test, v, 0ULL);
	KUNIT_EXPECT_EQ(test, k8_reg_access(n, 0, 0xc000ffff, &v, true), -EIO);
	/* Core 2 was not added; K8_MAX_CORES is past the array. */
	v = 1;
	KUNIT_EXPECT_EQ(test, k8_reg_access(n, 2, EVTSEL(0), &v, true), -EIO);
	KUNIT_EXPECT_EQ(test, k8_reg_access(n, K8_MAX_CORES, PERFCTR(0), &v,
					    false), -EIO);
	KUNIT_EXPECT_EQ(test, n->stats.faults, 4ULL);
	KUNIT_EXPECT_EQ(test, n->stats.reads, 8ULL + 4 + 2);
	KUNIT_EXPECT_EQ(test, n->stats.writes, 8ULL + 2);
	KUNIT_EXPECT_EQ(test, n->core[2].ctr[0].sel, 0ULL);
}

/* Bit 21 and 63:32 are dropped and counted; CNT_MASK 4-255 kept and counted. */
static void k8_test_sel_reserved(struct kunit *test)
{
	struct k8_node *n = k8_new(test);
	const u64 all = SEL(0xc0, 0xff) | EDGE | PC | INT | INV | CMASK(3);

	/* Every defined field round-trips. */
	wr(test, n, 0, EVTSEL(0), all);
	KUNIT_EXPECT_EQ(test, rd(test, n, 0, EVTSEL(0)), all);
	KUNIT_EXPECT_EQ(test, n->stats.rsvd_writes, 0ULL);

	wr(test, n, 0, EVTSEL(1), SEL(0xc0, 0) | BIT_ULL(21));
	KUNIT_EXPECT_EQ(test, rd(test, n, 0, EVTSEL(1)), SEL(0xc0, 0));
	KUNIT_EXPECT_EQ(test, n->stats.rsvd_writes, 1ULL);
	wr(test, n, 0, EVTSEL(1), SEL(0xc0, 0) | BIT_ULL(32) | BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, rd(test, n, 0, EVTSEL(1)), SEL(0xc0, 0));
	KUNIT_EXPECT_EQ(test, n->stats.rsvd_writes, 2ULL);
	/* Both kinds in one write count once. */
	wr(test, n, 0, EVTSEL(1), SEL(0xc0, 0) | BIT_ULL(21) | BIT_ULL(40));
	KUNIT_EXPECT_EQ(test, n->stats.rsvd_writes, 3ULL);

	/* CNT_MASK 4 and 255: stored, counted, and the counter counts nothing. */
	wr(test, n, 0, EVTSEL(2), SEL(0xc0, 0) | CMASK(4));
	KUNIT_EXPECT_EQ(test, rd(test, n, 0, EVTSEL(2)), SEL(0xc0, 0) | CMASK(4));
	KUNIT_EXPECT_EQ(test, n->stats.rsvd_writes, 4ULL);
	KUNIT_EXPECT_FALSE(test, k8_ctr_counting(n, 0, 2));
	wr(test, n, 0, EVTSEL(3), SEL(0xc0, 0) | CMASK(255));
	KUNIT_EXPECT_EQ(test, n->stats.rsvd_writes, 5ULL);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xc0, 0, 10, 3), 1);	/* ctr1 only */
	KUNIT_EXPECT_EQ(test, total(n, 0, 1), 30ULL);
	KUNIT_EXPECT_EQ(test, total(n, 0, 2), 0ULL);
	KUNIT_EXPECT_EQ(test, total(n, 0, 3), 0ULL);

	/* An NB event's reserved CNT_MASK goes to the slot: nobody counts. */
	wr(test, n, 1, EVTSEL(0), SEL(0xe0, 1));
	wr(test, n, 0, EVTSEL(0), SEL(0xe0, 1) | CMASK(7));
	KUNIT_EXPECT_FALSE(test, k8_ctr_counting(n, 1, 0));
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe0, 1, 5, 1), 0);
	KUNIT_EXPECT_EQ(test, n->stats.dropped, 5ULL);
}

/* 48-bit counters: reserved upper bits, preload, wrap and the total. */
static void k8_test_ctr_48bit(struct kunit *test)
{
	struct k8_node *n = k8_new(test);

	wr(test, n, 0, PERFCTR(0), BIT_ULL(48) | 7);
	KUNIT_EXPECT_EQ(test, n->stats.rsvd_writes, 1ULL);
	KUNIT_EXPECT_EQ(test, rd(test, n, 0, PERFCTR(0)), 7ULL);
	wr(test, n, 0, PERFCTR(0), GENMASK_ULL(63, 47));
	KUNIT_EXPECT_EQ(test, n->stats.rsvd_writes, 2ULL);
	KUNIT_EXPECT_EQ(test, rd(test, n, 0, PERFCTR(0)), BIT_ULL(47));
	/* The driver's preload of -N, masked to 48 bits, is not reserved. */
	wr(test, n, 0, PERFCTR(0), TOP - 1);
	KUNIT_EXPECT_EQ(test, n->stats.rsvd_writes, 2ULL);

	wr(test, n, 0, EVTSEL(0), SEL(0x76, 0));
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0x76, 0, 2, 3), 1);
	KUNIT_EXPECT_EQ(test, rd(test, n, 0, PERFCTR(0)), 4ULL);
	KUNIT_EXPECT_EQ(test, total(n, 0, 0), 6ULL);
	KUNIT_EXPECT_EQ(test, n->stats.overflows, 1ULL);
	KUNIT_EXPECT_EQ(test, n->stats.pmis, 0ULL);

	/* "counter" loads the value only. */
	KUNIT_EXPECT_EQ(test, k8_set_counter(n, 0, 0, BIT_ULL(50) | 9), 0);
	KUNIT_EXPECT_EQ(test, rd(test, n, 0, PERFCTR(0)), 9ULL);
	KUNIT_EXPECT_EQ(test, total(n, 0, 0), 6ULL);
	KUNIT_EXPECT_EQ(test, k8_set_counter(n, 2, 0, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, k8_set_counter(n, 0, 4, 1), -EINVAL);
	/* A PerfCtr write does not change the total either. */
	wr(test, n, 0, PERFCTR(0), 0);
	KUNIT_EXPECT_EQ(test, total(n, 0, 0), 6ULL);
}

/* Core events: EN, USR or OS, event and unit mask, on their core only. */
static void k8_test_core_events(struct kunit *test)
{
	struct k8_node *n = k8_new(test);

	wr(test, n, 0, EVTSEL(0), SEL(0x41, 0));
	wr(test, n, 0, EVTSEL(1), SEL(0x42, 0x06));
	wr(test, n, 0, EVTSEL(2), SEL(0x41, 0) & ~EN);
	wr(test, n, 0, EVTSEL(3), SEL(0x41, 0) & ~(USR | OS));
	wr(test, n, 1, EVTSEL(0), SEL(0x41, 0));
	KUNIT_EXPECT_TRUE(test, k8_ctr_counting(n, 0, 0));
	KUNIT_EXPECT_FALSE(test, k8_ctr_counting(n, 0, 2));
	KUNIT_EXPECT_FALSE(test, k8_ctr_counting(n, 0, 3));

	KUNIT_EXPECT_EQ(test, inj(n, 0, 0x41, 0, 4, 1), 1);
	KUNIT_EXPECT_EQ(test, total(n, 0, 0), 4ULL);
	KUNIT_EXPECT_EQ(test, total(n, 1, 0), 0ULL);
	/* USR or OS alone is enough. */
	wr(test, n, 0, EVTSEL(3), SEL(0x41, 0) & ~USR);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0x41, 0, 1, 1), 2);

	/* Unit masks: a common bit, or both 0. */
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0x42, 0x04, 1, 1), 1);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0x42, 0x01, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0x42, 0, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0x41, 0x01, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, n->stats.dropped, 3ULL);
	KUNIT_EXPECT_EQ(test, n->stats.inject_lines, 6ULL);
	KUNIT_EXPECT_EQ(test, n->stats.inject_hits, 4ULL);

	/* A core event is never counted by an NB selector, nor the reverse. */
	wr(test, n, 1, EVTSEL(1), SEL(0xe0, 0x01));
	KUNIT_EXPECT_EQ(test, inj(n, 1, 0xe0, 0x01, 1, 1), 1);
	KUNIT_EXPECT_EQ(test, inj(n, 1, 0x41, 0, 1, 1), 1);
	KUNIT_EXPECT_EQ(test, total(n, 1, 1), 1ULL);

	/* A core event on a core the node does not have. */
	KUNIT_EXPECT_EQ(test, inj(n, 2, 0x41, 0, 1, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, inj(n, K8_MAX_CORES, 0x41, 0, 1, 1), -EINVAL);
}

/*
 * Start selection @v on core 0's counter 0 as 004:32-34 asks: the change
 * with EN clear, then EN in a second write.
 */
static void sel(struct kunit *test, struct k8_node *n, u64 v)
{
	wr(test, n, 0, EVTSEL(0), v & ~EN);
	wr(test, n, 0, EVTSEL(0), v);
}

/*
 * CNT_MASK, INV and E (004:62, 70-72), each selection started the BKDG's
 * way (sel()).
 */
static void k8_test_pipeline(struct kunit *test)
{
	struct k8_node *n = k8_new(test);
	struct k8_ctr *c = &n->core[0].ctr[0];

	sel(test, n, SEL(0x00, 0x3f));
	inj(n, 0, 0x00, 0x01, 10, 3);		/* CNT_MASK 0: +inc per clock */
	inj(n, 0, 0x00, 0x01, 10, 0);
	KUNIT_EXPECT_EQ(test, c->total, 30ULL);

	sel(test, n, SEL(0x00, 0x3f) | CMASK(2));
	inj(n, 0, 0x00, 0x01, 10, 3);		/* >= 2: +1 per clock */
	inj(n, 0, 0x00, 0x01, 10, 2);
	inj(n, 0, 0x00, 0x01, 10, 1);		/* no */
	KUNIT_EXPECT_EQ(test, c->total, 50ULL);

	sel(test, n, SEL(0x00, 0x3f) | CMASK(2) | INV);
	inj(n, 0, 0x00, 0x01, 10, 3);		/* no */
	inj(n, 0, 0x00, 0x01, 7, 1);		/* < 2 */
	inj(n, 0, 0x00, 0x01, 5, 0);
	KUNIT_EXPECT_EQ(test, c->total, 62ULL);

	/* INV with CNT_MASK 0: +1 per clock without events [INF]. */
	sel(test, n, SEL(0x00, 0x3f) | INV);
	inj(n, 0, 0x00, 0x01, 4, 0);
	inj(n, 0, 0x00, 0x01, 4, 2);
	KUNIT_EXPECT_EQ(test, c->total, 66ULL);

	/* E: rising edges of the condition, one per line at most. */
	sel(test, n, SEL(0x00, 0x3f) | CMASK(3) | EDGE);
	inj(n, 0, 0x00, 0x01, 10, 3);		/* rise */
	inj(n, 0, 0x00, 0x01, 10, 3);		/* still high */
	inj(n, 0, 0x00, 0x01, 10, 2);		/* low */
	inj(n, 0, 0x00, 0x01, 10, 3);		/* rise */
	KUNIT_EXPECT_EQ(test, c->total, 68ULL);
	/* Another event's line leaves the condition as it was. */
	inj(n, 0, 0x01, 0x01, 10, 0);
	inj(n, 0, 0x00, 0x01, 10, 3);
	KUNIT_EXPECT_EQ(test, c->total, 68ULL);
	/* A start forgets it: the next high line is an edge. */
	sel(test, n, SEL(0x00, 0x3f) | CMASK(3) | EDGE);
	inj(n, 0, 0x00, 0x01, 10, 3);
	KUNIT_EXPECT_EQ(test, c->total, 69ULL);

	/* E with CNT_MASK 0: edges of "some event". */
	sel(test, n, SEL(0x00, 0x3f) | EDGE);
	inj(n, 0, 0x00, 0x01, 4, 1);
	inj(n, 0, 0x00, 0x01, 4, 3);
	inj(n, 0, 0x00, 0x01, 4, 0);
	inj(n, 0, 0x00, 0x01, 4, 2);
	KUNIT_EXPECT_EQ(test, c->total, 71ULL);
	/*
	 * With INV too: edges of "no event". Started with no event, the
	 * condition is already high: the first line is no edge.
	 */
	sel(test, n, SEL(0x00, 0x3f) | EDGE | INV);
	inj(n, 0, 0x00, 0x01, 4, 0);
	inj(n, 0, 0x00, 0x01, 4, 0);
	inj(n, 0, 0x00, 0x01, 4, 1);
	inj(n, 0, 0x00, 0x01, 4, 0);
	KUNIT_EXPECT_EQ(test, c->total, 72ULL);

	/* A line of no clocks counts nothing and changes no edge. */
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0x00, 0x01, 0, 1), 1);
	KUNIT_EXPECT_EQ(test, c->total, 72ULL);
	KUNIT_EXPECT_EQ(test, n->stats.one_write_enables, 0ULL);

	/* At most 3 events per clock, and count * inc within 64 bits. */
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0x00, 0x01, 1, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0x00, 0x01, U64_MAX / 2, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0x00, 0x01, U64_MAX / 3, 3), 1);
	KUNIT_EXPECT_EQ(test, n->stats.inject_lines, 27ULL);
}

/*
 * The single-write start (Linux's, 004:32-34): a write that sets EN and
 * changes the selection leaves the edge detector on the old selection's
 * level. Low there and high in the new one (an idle INV condition): the
 * false edge, one count at once. High there: the new selection's first
 * high line is no edge.
 */
static void k8_test_one_write(struct kunit *test)
{
	struct k8_node *n = k8_new(test);
	struct k8_ctr *c = &n->core[0].ctr[0];

	wr(test, n, 0, EVTSEL(0), SEL(0x00, 0x01) & ~EN);
	wr(test, n, 0, EVTSEL(0), SEL(0x00, 0x01) | CMASK(1) | INV | EDGE);
	KUNIT_EXPECT_EQ(test, c->total, 1ULL);
	KUNIT_EXPECT_EQ(test, n->stats.one_write_enables, 1ULL);
	KUNIT_EXPECT_EQ(test, n->stats.false_edges, 1ULL);
	inj(n, 0, 0x00, 0x01, 4, 0);		/* still high: no edge */
	KUNIT_EXPECT_EQ(test, c->total, 1ULL);

	/* Stopped and started again the same: no false edge. */
	wr(test, n, 0, EVTSEL(0), (SEL(0x00, 0x01) | CMASK(1) | INV | EDGE) & ~EN);
	wr(test, n, 0, EVTSEL(0), SEL(0x00, 0x01) | CMASK(1) | INV | EDGE);
	KUNIT_EXPECT_EQ(test, n->stats.false_edges, 1ULL);

	/* From the INV selection's high level to page hits with E. */
	wr(test, n, 0, EVTSEL(0), (SEL(0x00, 0x01) | CMASK(1) | INV | EDGE) & ~EN);
	wr(test, n, 0, EVTSEL(0), SEL(0x00, 0x01) | EDGE);
	KUNIT_EXPECT_EQ(test, n->stats.one_write_enables, 2ULL);
	KUNIT_EXPECT_EQ(test, n->stats.false_edges, 1ULL);
	inj(n, 0, 0x00, 0x01, 4, 1);		/* high, as the detector was */
	inj(n, 0, 0x00, 0x01, 4, 0);
	inj(n, 0, 0x00, 0x01, 4, 1);		/* an edge */
	KUNIT_EXPECT_EQ(test, c->total, 2ULL);
}

/* NB events count by the slot: event and unit mask; every core on the index. */
static void k8_test_nb_match(struct kunit *test)
{
	struct k8_node *n = k8_new(test);

	/* Core 0 alone: the way a driver that follows 004:38 does it. */
	wr(test, n, 0, EVTSEL(0), SEL(0xe0, 0x07) & ~EN);
	wr(test, n, 0, EVTSEL(0), SEL(0xe0, 0x07));
	KUNIT_EXPECT_TRUE(test, k8_ctr_counts_nb(n, 0, 0));
	KUNIT_EXPECT_EQ(test, n->slot[0].writer, 0);
	KUNIT_EXPECT_EQ(test, n->slot[0].sel, SEL(0xe0, 0x07));
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe0, 0x02, 5, 1), 1);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe0, 0x08, 5, 1), 0);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe1, 0x02, 5, 1), 0);
	KUNIT_EXPECT_EQ(test, total(n, 0, 0), 5ULL);
	KUNIT_EXPECT_EQ(test, n->stats.dropped, 10ULL);
	/* The core number of an NB line does not matter. */
	KUNIT_EXPECT_EQ(test, inj(n, 3, 0xe0, 0x02, 5, 1), 1);
	KUNIT_EXPECT_EQ(test, total(n, 0, 0), 10ULL);
	KUNIT_EXPECT_EQ(test, n->stats.nb_clobbers, 0ULL);
	KUNIT_EXPECT_EQ(test, n->stats.sibling_conflicts, 0ULL);

	/* No unit mask: E1h with 0 matches 0 only. */
	wr(test, n, 0, EVTSEL(1), SEL(0xe1, 0));
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe1, 0, 2, 1), 1);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe1, 0x01, 2, 1), 0);
	KUNIT_EXPECT_EQ(test, total(n, 0, 1), 2ULL);

	/* Not USR/OS: NB events ignore both. */
	wr(test, n, 0, EVTSEL(2), SEL(0xf6, 0x03) & ~(USR | OS));
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xf6, 0x02, 3, 2), 1);
	KUNIT_EXPECT_EQ(test, total(n, 0, 2), 6ULL);

	/* The slot's pipeline fields apply. */
	wr(test, n, 0, EVTSEL(3), SEL(0xea, 0x3f) | CMASK(2));
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xea, 0x01, 10, 2), 1);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xea, 0x01, 10, 1), 1);
	KUNIT_EXPECT_EQ(test, total(n, 0, 3), 10ULL);
}

static int inj_e9(struct k8_node *n, u8 umask)
{
	return inj(n, 0, 0xe9, umask, 1, 1);
}

/* E9h: type, target and source each share a bit (004:610-638); listed paths. */
static void k8_test_e9_groups(struct kunit *test)
{
	struct k8_node *n = k8_new(test);

	KUNIT_EXPECT_TRUE(test, k8_e9_occurrence_valid(0xa8));
	KUNIT_EXPECT_TRUE(test, k8_e9_occurrence_valid(0x61));
	KUNIT_EXPECT_FALSE(test, k8_e9_occurrence_valid(0xb8));	/* 2 targets */
	KUNIT_EXPECT_FALSE(test, k8_e9_occurrence_valid(0xac));	/* 2 types */
	KUNIT_EXPECT_FALSE(test, k8_e9_occurrence_valid(0xe8));	/* 2 sources */
	KUNIT_EXPECT_FALSE(test, k8_e9_occurrence_valid(0xa0));	/* no type */
	KUNIT_EXPECT_FALSE(test, k8_e9_occurrence_valid(0x88));	/* no target */
	KUNIT_EXPECT_FALSE(test, k8_e9_occurrence_valid(0x28));	/* no source */
	/* No such paths (004:622-623). */
	KUNIT_EXPECT_FALSE(test, k8_e9_occurrence_valid(0x68));
	KUNIT_EXPECT_FALSE(test, k8_e9_occurrence_valid(0x54));
	KUNIT_EXPECT_EQ(test, inj_e9(n, 0xb8), -EINVAL);
	KUNIT_EXPECT_EQ(test, inj_e9(n, 0x08), -EINVAL);
	KUNIT_EXPECT_EQ(test, n->stats.inject_lines, 0ULL);

	/* B8h = A8h | 98h: local CPU to local or remote memory (004:625). */
	wr(test, n, 0, EVTSEL(0), SEL(0xe9, 0xb8));
	KUNIT_EXPECT_EQ(test, inj_e9(n, 0xa8), 1);
	KUNIT_EXPECT_EQ(test, inj_e9(n, 0x98), 1);
	KUNIT_EXPECT_EQ(test, inj_e9(n, 0xa4), 0);	/* CPU to I/O */
	KUNIT_EXPECT_EQ(test, inj_e9(n, 0x64), 0);	/* CPU to I/O */
	KUNIT_EXPECT_EQ(test, total(n, 0, 0), 2ULL);

	/* F4h = A4h | 94h | 64h: any CPU to any I/O. */
	wr(test, n, 0, EVTSEL(0), SEL(0xe9, 0xf4));
	KUNIT_EXPECT_EQ(test, inj_e9(n, 0xa4), 1);
	KUNIT_EXPECT_EQ(test, inj_e9(n, 0x94), 1);
	KUNIT_EXPECT_EQ(test, inj_e9(n, 0x64), 1);
	KUNIT_EXPECT_EQ(test, inj_e9(n, 0xa8), 0);
	KUNIT_EXPECT_EQ(test, inj_e9(n, 0xa1), 0);
	KUNIT_EXPECT_EQ(test, total(n, 0, 0), 5ULL);

	/* A selection missing a group matches nothing, even sharing bits. */
	wr(test, n, 0, EVTSEL(0), SEL(0xe9, 0x28));
	KUNIT_EXPECT_EQ(test, inj_e9(n, 0xa8), 0);
	wr(test, n, 0, EVTSEL(0), SEL(0xe9, 0xa0));
	KUNIT_EXPECT_EQ(test, inj_e9(n, 0xa8), 0);
	KUNIT_EXPECT_EQ(test, total(n, 0, 0), 5ULL);
}

/*
 * One slot per index: the last NB write wins for every core counting NB
 * on it (the visible clobber), and the two statistics.
 */
static void k8_test_nb_clobber(struct kunit *test)
{
	struct k8_node *n = k8_new(test);

	wr(test, n, 0, EVTSEL(1), SEL(0xe0, 0x01));
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe0, 0x01, 3, 1), 1);

	/* Core 1 selects E3h on index 1 too: core 0 now counts E3h. */
	wr(test, n, 1, EVTSEL(1), SEL(0xe3, 0x02));
	KUNIT_EXPECT_EQ(test, n->stats.nb_clobbers, 1ULL);
	KUNIT_EXPECT_EQ(test, n->stats.sibling_conflicts, 0ULL);
	KUNIT_EXPECT_EQ(test, n->slot[1].writer, 1);
	KUNIT_EXPECT_EQ(test, n->slot[1].sel, SEL(0xe3, 0x02));
	/* Core 0's own register still says E0h. */
	KUNIT_EXPECT_EQ(test, rd(test, n, 0, EVTSEL(1)), SEL(0xe0, 0x01));
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe0, 0x01, 5, 1), 0);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe3, 0x02, 7, 1), 2);
	KUNIT_EXPECT_EQ(test, total(n, 0, 1), 10ULL);
	KUNIT_EXPECT_EQ(test, total(n, 1, 1), 7ULL);

	/* Disabling first clobbers too: any NB write goes to the slot. */
	wr(test, n, 1, EVTSEL(1), SEL(0xe0, 0x04) & ~EN);
	KUNIT_EXPECT_EQ(test, n->stats.nb_clobbers, 2ULL);
	KUNIT_EXPECT_EQ(test, n->slot[1].sel, SEL(0xe0, 0x04) & ~EN);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe0, 0x04, 1, 1), 1);	/* core 0 */
	KUNIT_EXPECT_EQ(test, total(n, 0, 1), 11ULL);

	/* A core event on core 1's index 1 leaves the slot, but conflicts. */
	wr(test, n, 1, EVTSEL(1), SEL(0x76, 0));
	KUNIT_EXPECT_EQ(test, n->stats.nb_clobbers, 2ULL);
	KUNIT_EXPECT_EQ(test, n->stats.sibling_conflicts, 1ULL);
	KUNIT_EXPECT_EQ(test, n->slot[1].writer, 1);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe0, 0x04, 1, 1), 1);
	KUNIT_EXPECT_EQ(test, inj(n, 1, 0x76, 0, 4, 1), 1);
	KUNIT_EXPECT_EQ(test, total(n, 1, 1), 11ULL);
	/* Core 0 enabling NB again next to it: a conflict, no clobber. */
	wr(test, n, 0, EVTSEL(1), SEL(0xe0, 0x01));
	KUNIT_EXPECT_EQ(test, n->stats.nb_clobbers, 2ULL);
	KUNIT_EXPECT_EQ(test, n->stats.sibling_conflicts, 2ULL);
	KUNIT_EXPECT_EQ(test, n->slot[1].writer, 0);

	/* A disabled sibling, or another index, neither clobbers nor conflicts. */
	wr(test, n, 1, EVTSEL(2), SEL(0xe0, 0x01) & ~EN);
	wr(test, n, 0, EVTSEL(2), SEL(0xe0, 0x02));
	wr(test, n, 1, EVTSEL(3), SEL(0x76, 0));
	wr(test, n, 0, EVTSEL(0), SEL(0xe0, 0x02));
	/* Nor does a core rewriting its own selector. */
	wr(test, n, 0, EVTSEL(0), SEL(0xe0, 0x04));
	KUNIT_EXPECT_EQ(test, n->stats.nb_clobbers, 2ULL);
	KUNIT_EXPECT_EQ(test, n->stats.sibling_conflicts, 2ULL);
	/* Disabling never conflicts. */
	wr(test, n, 1, EVTSEL(1), SEL(0x76, 0) & ~EN);
	wr(test, n, 1, EVTSEL(1), SEL(0x76, 0) & ~EN);
	KUNIT_EXPECT_EQ(test, n->stats.sibling_conflicts, 2ULL);
	/* Enabling NB next to the sibling's NB: a clobber, not a conflict. */
	wr(test, n, 1, EVTSEL(1), SEL(0xe3, 0x01));
	KUNIT_EXPECT_EQ(test, n->stats.nb_clobbers, 3ULL);
	KUNIT_EXPECT_EQ(test, n->stats.sibling_conflicts, 2ULL);
}

/* A halted core's counters stop, NB ones included (004:40-42). */
static void k8_test_halted(struct kunit *test)
{
	struct k8_node *n = k8_new(test);

	wr(test, n, 0, EVTSEL(0), SEL(0xe0, 0x01));
	wr(test, n, 1, EVTSEL(0), SEL(0xe0, 0x01));
	wr(test, n, 1, EVTSEL(1), SEL(0x76, 0));
	KUNIT_EXPECT_EQ(test, k8_set_halted(n, 0, true), 0);
	KUNIT_EXPECT_FALSE(test, k8_ctr_counting(n, 0, 0));
	KUNIT_EXPECT_TRUE(test, k8_ctr_counts_nb(n, 0, 0));
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe0, 0x01, 5, 1), 1);
	KUNIT_EXPECT_EQ(test, total(n, 0, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, total(n, 1, 0), 5ULL);

	k8_set_halted(n, 1, true);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe0, 0x01, 5, 1), 0);
	KUNIT_EXPECT_EQ(test, inj(n, 1, 0x76, 0, 3, 1), 0);
	KUNIT_EXPECT_EQ(test, n->stats.dropped, 8ULL);
	/* Registers still work while halted. */
	wr(test, n, 1, PERFCTR(1), 42);
	KUNIT_EXPECT_EQ(test, rd(test, n, 1, PERFCTR(1)), 42ULL);

	k8_set_halted(n, 0, false);
	k8_set_halted(n, 1, false);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe0, 0x01, 5, 1), 2);
	KUNIT_EXPECT_EQ(test, inj(n, 1, 0x76, 0, 3, 1), 1);
	KUNIT_EXPECT_EQ(test, rd(test, n, 1, PERFCTR(1)), 45ULL);
	KUNIT_EXPECT_EQ(test, k8_set_halted(n, 2, true), -EINVAL);
}

/* A carry out of bit 47 asks for a PMI to the core only with INT. */
static void k8_test_overflow_pmi(struct kunit *test)
{
	struct k8_node *n = k8_new(test);

	/* Without INT: an overflow, no PMI. */
	wr(test, n, 0, EVTSEL(0), SEL(0x76, 0));
	wr(test, n, 0, PERFCTR(0), TOP);
	inj(n, 0, 0x76, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, rd(test, n, 0, PERFCTR(0)), 0ULL);
	KUNIT_EXPECT_EQ(test, n->stats.overflows, 1ULL);
	KUNIT_EXPECT_EQ(test, n->stats.pmis, 0ULL);
	KUNIT_EXPECT_FALSE(test, k8_pmi_owed(n));
	KUNIT_EXPECT_EQ(test, k8_take_pmi(n), 0U);

	/* With INT: owed to this core until taken. No carry, no PMI. */
	wr(test, n, 1, EVTSEL(2), SEL(0x76, 0) | INT);
	wr(test, n, 1, PERFCTR(2), TOP - 9);
	inj(n, 1, 0x76, 0, 3, 3);
	KUNIT_EXPECT_FALSE(test, k8_pmi_owed(n));
	inj(n, 1, 0x76, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, rd(test, n, 1, PERFCTR(2)), 0ULL);
	KUNIT_EXPECT_EQ(test, n->stats.overflows, 2ULL);
	KUNIT_EXPECT_EQ(test, n->stats.pmis, 1ULL);
	KUNIT_EXPECT_TRUE(test, k8_pmi_owed(n));
	KUNIT_EXPECT_TRUE(test, n->core[1].pmi_owed);
	/* Two before the take merge into one. */
	wr(test, n, 1, PERFCTR(2), TOP);
	inj(n, 1, 0x76, 0, 1, 2);
	KUNIT_EXPECT_EQ(test, n->stats.pmis, 2ULL);
	KUNIT_EXPECT_EQ(test, k8_take_pmi(n), (u32)BIT(1));
	KUNIT_EXPECT_FALSE(test, k8_pmi_owed(n));
	KUNIT_EXPECT_EQ(test, k8_take_pmi(n), 0U);
	KUNIT_EXPECT_EQ(test, total(n, 1, 2), 12ULL);

	/*
	 * NB: each core's own INT decides, whoever wrote the slot; both
	 * counters wrap on one line.
	 */
	wr(test, n, 0, EVTSEL(3), SEL(0xe0, 0x01) | INT);
	wr(test, n, 1, EVTSEL(3), SEL(0xe0, 0x01));
	wr(test, n, 0, PERFCTR(3), TOP);
	wr(test, n, 1, PERFCTR(3), TOP);
	KUNIT_EXPECT_EQ(test, inj(n, 0, 0xe0, 0x01, 2, 1), 2);
	KUNIT_EXPECT_EQ(test, n->stats.overflows, 5ULL);
	KUNIT_EXPECT_EQ(test, n->stats.pmis, 3ULL);
	KUNIT_EXPECT_EQ(test, k8_take_pmi(n), (u32)BIT(0));
	KUNIT_EXPECT_EQ(test, rd(test, n, 0, PERFCTR(3)), 1ULL);
	KUNIT_EXPECT_EQ(test, rd(test, n, 1, PERFCTR(3)), 1ULL);

	/* reset_stats zeroes the statistics, not the PMI owed. */
	wr(test, n, 0, PERFCTR(3), TOP);
	inj(n, 0, 0xe0, 0x01, 1, 1);
	k8_reset_stats(n);
	KUNIT_EXPECT_EQ(test, n->stats.pmis, 0ULL);
	KUNIT_EXPECT_EQ(test, n->stats.writes, 0ULL);
	KUNIT_EXPECT_TRUE(test, k8_pmi_owed(n));
}

static struct kunit_case k8_regs_cases[] = {
	KUNIT_CASE(k8_test_msr_map),
	KUNIT_CASE(k8_test_sel_reserved),
	KUNIT_CASE(k8_test_ctr_48bit),
	KUNIT_CASE(k8_test_core_events),
	KUNIT_CASE(k8_test_pipeline),
	KUNIT_CASE(k8_test_one_write),
	KUNIT_CASE(k8_test_nb_match),
	KUNIT_CASE(k8_test_e9_groups),
	KUNIT_CASE(k8_test_nb_clobber),
	KUNIT_CASE(k8_test_halted),
	KUNIT_CASE(k8_test_overflow_pmi),
	{ }
};

static struct kunit_suite k8_regs_suite = {
	.name = "uncore_sim_k8_regs",
	.test_cases = k8_regs_cases,
};

kunit_test_suite(k8_regs_suite);

MODULE_DESCRIPTION("KUnit tests for the simulator's AMD K8 performance counters");
MODULE_LICENSE("GPL");
