// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the simulator's 64-bit Xeon MP with L3 registers
 * (drivers/sim/p4mp/p4mp_regs.c): what counts when, wraps of the 32-bit count
 * half and of CNTR7, and the rate mode, whose totals are the ground truth
 * of the driver's wrap tests and so must not depend on how sim time is
 * stepped.
 */
#include <kunit/test.h>

#include "../../drivers/sim/p4mp/p4mp_regs.c"

#define IBUSQ0	0x107cc
#define EFSB1	0x107d1
#define CTL6	0x107d2
#define CNTR7	0x107d3

static void wr(struct kunit *test, struct p4mp_pkg *p, u64 t, u32 msr, u64 v)
{
	KUNIT_ASSERT_EQ(test, p4mp_reg_access(p, t, msr, &v, true), 0);
}

static u64 rd(struct kunit *test, struct p4mp_pkg *p, u64 t, u32 msr)
{
	u64 v;

	KUNIT_ASSERT_EQ(test, p4mp_reg_access(p, t, msr, &v, false), 0);
	return v;
}

/* Counting iff the upper half is non-zero; a write sets both halves. */
static void p4mp_test_upper_half(struct kunit *test)
{
	struct p4mp_pkg p;

	p4mp_pkg_init(&p, 26, 64, 0);
	KUNIT_EXPECT_FALSE(test, p4mp_add(&p, 0, 5));
	wr(test, &p, 0, IBUSQ0, 0x100000000ULL | 7);
	KUNIT_EXPECT_TRUE(test, p4mp_add(&p, 0, 5));
	KUNIT_EXPECT_EQ(test, rd(test, &p, 0, IBUSQ0), 0x100000000ULL | 12);
	/* Stopping keeps the count written with it. */
	wr(test, &p, 0, IBUSQ0, 12);
	KUNIT_EXPECT_FALSE(test, p4mp_add(&p, 0, 5));
	KUNIT_EXPECT_EQ(test, rd(test, &p, 0, IBUSQ0), 12ULL);
	KUNIT_EXPECT_EQ(test, p.total[0], 5ULL);
}

/* The count half wraps modulo 2^32 and leaves the control half alone. */
static void p4mp_test_wrap32(struct kunit *test)
{
	struct p4mp_pkg p;

	p4mp_pkg_init(&p, 26, 64, 0);
	wr(test, &p, 0, EFSB1, 0x07ffffff00000000ULL | 0xfffffffe);
	p4mp_add(&p, 5, 5);
	KUNIT_EXPECT_EQ(test, rd(test, &p, 0, EFSB1), 0x07ffffff00000003ULL);
	KUNIT_EXPECT_EQ(test, p.total[5], 5ULL);
}

/* Saturate (bit 59) sticks the count at 0xFFFFFFFF; the total runs on. */
static void p4mp_test_saturate(struct kunit *test)
{
	struct p4mp_pkg p;

	p4mp_pkg_init(&p, 26, 64, 0);
	wr(test, &p, 0, IBUSQ0, P4MP_SATURATE | 0xfffffffe);
	KUNIT_EXPECT_TRUE(test, p4mp_add(&p, 0, 5));
	KUNIT_EXPECT_EQ(test, rd(test, &p, 0, IBUSQ0), P4MP_SATURATE | 0xffffffff);
	KUNIT_EXPECT_TRUE(test, p4mp_add(&p, 0, 1ULL << 40));
	KUNIT_EXPECT_EQ(test, rd(test, &p, 0, IBUSQ0), P4MP_SATURATE | 0xffffffff);
	KUNIT_EXPECT_EQ(test, p.total[0], 5 + (1ULL << 40));
}

/*
 * EFSB counts only with a qualification bit set: Saturate or the bits
 * above it alone do not start it; IBUSQ counts on any upper bit (003:35).
 */
static void p4mp_test_efsb_qual(struct kunit *test)
{
	struct p4mp_pkg p;

	p4mp_pkg_init(&p, 26, 64, 0);
	wr(test, &p, 0, EFSB1, P4MP_NOT_QUAL);
	KUNIT_EXPECT_FALSE(test, p4mp_add(&p, 5, 1));
	wr(test, &p, 0, EFSB1, BIT_ULL(58));
	KUNIT_EXPECT_TRUE(test, p4mp_add(&p, 5, 1));
	wr(test, &p, 0, IBUSQ0, BIT_ULL(63));
	KUNIT_EXPECT_TRUE(test, p4mp_add(&p, 0, 1));
}

/* A 32-bit CNTR7 (003:27-29) wraps at 2^32 and keeps no upper half. */
static void p4mp_test_cntr7_32(struct kunit *test)
{
	struct p4mp_pkg p;

	p4mp_pkg_init(&p, 26, 32, 0);
	wr(test, &p, 0, CTL6, BIT_ULL(26));
	wr(test, &p, 0, CNTR7, U64_MAX - 1);
	KUNIT_EXPECT_EQ(test, rd(test, &p, 0, CNTR7), 0xfffffffeULL);
	KUNIT_EXPECT_TRUE(test, p4mp_add(&p, P4MP_CNTR7, 3));
	KUNIT_EXPECT_EQ(test, rd(test, &p, 0, CNTR7), 1ULL);
	KUNIT_EXPECT_EQ(test, p.total[P4MP_CNTR7], 3ULL);
}

/* CTL6 never counts; CNTR7 counts while CTL6's enable bit is set. */
static void p4mp_test_latency(struct kunit *test)
{
	struct p4mp_pkg p;

	p4mp_pkg_init(&p, 58, 64, 0);
	wr(test, &p, 0, CTL6, BIT_ULL(26));
	KUNIT_EXPECT_FALSE(test, p4mp_add(&p, P4MP_CNTR7, 1));
	KUNIT_EXPECT_FALSE(test, p4mp_add(&p, P4MP_CTL6, 1));
	wr(test, &p, 0, CTL6, BIT_ULL(58));
	wr(test, &p, 0, CNTR7, U64_MAX - 1);
	KUNIT_EXPECT_TRUE(test, p4mp_add(&p, P4MP_CNTR7, 3));
	KUNIT_EXPECT_EQ(test, rd(test, &p, 0, CNTR7), 1ULL);
	KUNIT_EXPECT_EQ(test, rd(test, &p, 0, CTL6), BIT_ULL(58));
}

/* Any other MSR faults and is counted as a fault. */
static void p4mp_test_fault(struct kunit *test)
{
	struct p4mp_pkg p;
	u64 v = 1;

	p4mp_pkg_init(&p, 26, 64, 0);
	KUNIT_EXPECT_EQ(test, p4mp_reg_access(&p, 0, 0x107cb, &v, false), -EIO);
	KUNIT_EXPECT_EQ(test, v, 0ULL);
	KUNIT_EXPECT_EQ(test, p4mp_reg_access(&p, 0, 0x107d4, &v, true), -EIO);
	KUNIT_EXPECT_EQ(test, p.faults, 2ULL);
	KUNIT_EXPECT_EQ(test, p.reads + p.writes, 2ULL);
}

/*
 * Rate mode: R per second over T ns counts floor(R * T / 1e9) however the
 * time is stepped, and nothing while the counter is stopped.
 */
static void p4mp_test_rate_steps(struct kunit *test)
{
	static const u64 steps[] = { 1, 3, 999999999, 7, 1000000001, 123456789,
				     2, 5000000000ULL, 13 };
	const u64 rate = 3800000001ULL;
	struct p4mp_pkg a, b;
	u64 t = 0, i;

	p4mp_pkg_init(&a, 26, 64, 0);
	p4mp_pkg_init(&b, 26, 64, 0);
	wr(test, &a, 0, IBUSQ0, BIT_ULL(32));
	wr(test, &b, 0, IBUSQ0, BIT_ULL(32));
	a.rate[0] = rate;
	b.rate[0] = rate;
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		t += steps[i];
		p4mp_advance(&a, t);
	}
	p4mp_advance(&b, t);
	KUNIT_EXPECT_EQ(test, a.total[0], b.total[0]);
	KUNIT_EXPECT_EQ(test, a.total[0], mul_u64_u64_div_u64(rate, t, NSEC_PER_SEC));
	KUNIT_EXPECT_EQ(test, rd(test, &a, t, IBUSQ0) & P4MP_COUNT,
			a.total[0] & P4MP_COUNT);

	/* Stopped for a second: that second counts nothing. */
	wr(test, &a, t, IBUSQ0, rd(test, &a, t, IBUSQ0) & P4MP_COUNT);
	i = a.total[0];
	p4mp_advance(&a, t + NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, a.total[0], i);
}

/* The largest rate over the longest sim time stays exact (no overflow). */
static void p4mp_test_rate_limits(struct kunit *test)
{
	struct p4mp_pkg p;
	const u64 rate = 10000000000ULL, t = BIT_ULL(60);

	p4mp_pkg_init(&p, 26, 64, 0);
	wr(test, &p, 0, CTL6, BIT_ULL(26));
	p.rate[P4MP_CNTR7] = rate;
	p4mp_advance(&p, t / 2);
	p4mp_advance(&p, t);
	KUNIT_EXPECT_EQ(test, p.total[P4MP_CNTR7],
			mul_u64_u64_div_u64(rate, t, NSEC_PER_SEC));
}

static struct kunit_case p4mp_regs_cases[] = {
	KUNIT_CASE(p4mp_test_upper_half),
	KUNIT_CASE(p4mp_test_wrap32),
	KUNIT_CASE(p4mp_test_saturate),
	KUNIT_CASE(p4mp_test_efsb_qual),
	KUNIT_CASE(p4mp_test_cntr7_32),
	KUNIT_CASE(p4mp_test_latency),
	KUNIT_CASE(p4mp_test_fault),
	KUNIT_CASE(p4mp_test_rate_steps),
	KUNIT_CASE(p4mp_test_rate_limits),
	{ }
};

static struct kunit_suite p4mp_regs_suite = {
	.name = "uncore_sim_p4mp_regs",
	.test_cases = p4mp_regs_cases,
};

kunit_test_suite(p4mp_regs_suite);

MODULE_DESCRIPTION("KUnit tests for the simulator's Xeon MP with L3 registers");
MODULE_LICENSE("GPL");
