// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the generic core's pure logic (drivers/uncore/core/logic.c):
 * counter deltas across a wrap, counter assignment under constraints, aux
 * register requests with alternatives, the poll period, tear-free split
 * reads, and the sampling period arithmetic (preload, scaling, samples due).
 * No family's sources are needed: the cases use their own fixtures.
 */
/* The driver file first, as in the other suites; it needs nothing else. */
#include "../../drivers/uncore/core/logic.c"
#include "assign_bound.h"

#include <kunit/test.h>

static void delta_across_wrap(struct kunit *test)
{
	static const int widths[] = { 48, 44, 32 };
	int i;

	for (i = 0; i < ARRAY_SIZE(widths); i++) {
		int w = widths[i];
		u64 top = BIT_ULL(w);

		KUNIT_EXPECT_EQ(test, uncore_delta(100, 250, w), 150ULL);
		KUNIT_EXPECT_EQ(test, uncore_delta(top - 5, 10, w), 15ULL);
		KUNIT_EXPECT_EQ(test, uncore_delta(top - 1, 0, w), 1ULL);
		/* A full range minus one: the largest delta one wrap allows. */
		KUNIT_EXPECT_EQ(test, uncore_delta(1, 0, w), top - 1);
		KUNIT_EXPECT_EQ(test, uncore_delta(7, 7, w), 0ULL);
		/* Reserved bits above the width never leak into counts. */
		KUNIT_EXPECT_EQ(test, uncore_delta(BIT_ULL(60) | 3, 9, w), 6ULL);
		KUNIT_EXPECT_EQ(test, uncore_delta(3, BIT_ULL(62) | 9, w), 6ULL);
	}
	KUNIT_EXPECT_EQ(test, uncore_delta(U64_MAX, 4, 64), 5ULL);
}

static void assign_constraints(struct kunit *test)
{
	u32 allowed[UNCORE_MAX_EVENTS];
	int prev[UNCORE_MAX_EVENTS], assign[UNCORE_MAX_EVENTS];
	int i;

	/* CBo: occupancy on counter 0 only, added last, still placed. */
	for (i = 0; i < 4; i++) {
		allowed[i] = 0xf;
		prev[i] = -1;
	}
	prev[0] = 0;
	allowed[3] = 0x1;
	KUNIT_ASSERT_EQ(test, uncore_assign_counters(allowed, prev, 4, assign, NULL), 0);
	KUNIT_EXPECT_EQ(test, assign[3], 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_NE(test, assign[i], 0);

	/* Two counter-0-only events cannot both be placed. */
	allowed[0] = 0x1;
	allowed[1] = 0x1;
	prev[0] = -1;
	prev[1] = -1;
	KUNIT_EXPECT_EQ(test, uncore_assign_counters(allowed, prev, 2, assign, NULL),
			-ENOSPC);

	/* Five events on four counters do not fit. */
	for (i = 0; i < 5; i++) {
		allowed[i] = 0xf;
		prev[i] = -1;
	}
	KUNIT_EXPECT_EQ(test, uncore_assign_counters(allowed, prev, 5, assign, NULL),
			-ENOSPC);

	/* ...but four general events and the fixed counter do. */
	allowed[4] = BIT(UNCORE_FIXED_IDX);
	prev[1] = 2;
	KUNIT_ASSERT_EQ(test, uncore_assign_counters(allowed, prev, 5, assign, NULL), 0);
	KUNIT_EXPECT_EQ(test, assign[4], UNCORE_FIXED_IDX);
	/* A running event keeps its counter. */
	KUNIT_EXPECT_EQ(test, assign[1], 2);

	/* Order matters to a greedy pass, not to the search: {0,1} then {0}. */
	allowed[0] = 0x3;
	allowed[1] = 0x1;
	prev[0] = 0;
	prev[1] = -1;
	KUNIT_ASSERT_EQ(test, uncore_assign_counters(allowed, prev, 2, assign, NULL), 0);
	KUNIT_EXPECT_EQ(test, assign[0], 1);
	KUNIT_EXPECT_EQ(test, assign[1], 0);

	/*
	 * Unless the first took back a counter carried over a move and waits
	 * for its group's commit to start: uncore_pmu_add() offers it only
	 * that counter, whose count its prev_count is (review pmi-protocol
	 * N14). The counter-0 event does not fit: the add fails, nothing
	 * moves, and perf schedules the group again later.
	 */
	allowed[0] = BIT(prev[0]);
	KUNIT_EXPECT_EQ(test, uncore_assign_counters(allowed, prev, 2, assign, NULL),
			-ENOSPC);
}

static u32 xorshift(u32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/*
 * The matching against Hall's theorem on random constraints (dense and
 * sparse masks, random counters kept from before), every placement valid,
 * every search within the bound; and the review's worst case (N3): a
 * ninth event on the eight counters of a Xeon 7500 R-box half, where the
 * exhaustive search took some 10^5 steps to refuse it.
 */
static void assign_random(struct kunit *test)
{
	u32 allowed[UNCORE_MAX_EVENTS], x = 0x2545f491, all, used;
	int prev[UNCORE_MAX_EVENTS], assign[UNCORE_MAX_EVENTS];
	int i, k, n, err, p, wrong = 0, invalid = 0, over = 0;
	unsigned int steps;

	for (i = 0; i < 9; i++) {
		allowed[i] = 0xff;
		prev[i] = i < 8 ? i : -1;
	}
	KUNIT_EXPECT_EQ(test, uncore_assign_counters(allowed, prev, 9, assign,
						     &steps), -ENOSPC);
	KUNIT_EXPECT_LE(test, steps, assign_step_bound(9, 8));

	all = GENMASK(UNCORE_MAX_EVENTS - 1, 0);
	for (k = 0; k < 4000; k++) {
		n = 1 + xorshift(&x) % UNCORE_MAX_EVENTS;
		used = 0;
		for (i = 0; i < n; i++) {
			allowed[i] = xorshift(&x) & all;
			if (k & 1)
				allowed[i] &= xorshift(&x);
			p = (int)(xorshift(&x) % (UNCORE_MAX_EVENTS + 1)) - 1;
			prev[i] = p >= 0 && !(used & BIT(p)) ? p : -1;
			if (prev[i] >= 0)
				used |= BIT(prev[i]);
		}
		err = uncore_assign_counters(allowed, prev, n, assign, &steps);
		wrong += err != assign_hall(allowed, n);
		over += steps > assign_step_bound(n, UNCORE_MAX_EVENTS);
		if (err)
			continue;
		used = 0;
		for (i = 0; i < n; i++) {
			if (assign[i] < 0 || !(allowed[i] & BIT(assign[i])) ||
			    (used & BIT(assign[i])))
				invalid++;
			else
				used |= BIT(assign[i]);
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, wrong, 0, "refusals unlike Hall's theorem's");
	KUNIT_EXPECT_EQ_MSG(test, invalid, 0, "placements off their allowed counters or shared");
	KUNIT_EXPECT_EQ_MSG(test, over, 0, "searches over the bound");
}

/*
 * Requests with alternatives, as Nehalem-EX needs them: a register pair
 * whose halves are interchangeable (R-box IPERF/QLX), each half changing
 * the control value differently.
 */
static const struct uncore_aux_slot halves[] = {
	{ .nregs = 1, .nfields = 2,
	  .field = { { GENMASK_ULL(31, 0) }, { GENMASK_ULL(63, 32) } } },
	{ .nregs = 1, .nfields = 1, .field = { { GENMASK_ULL(7, 0) } } },
};

static void half_request(struct uncore_aux_need *need, u32 v)
{
	struct uncore_aux_alt *alt;

	alt = uncore_aux_request(need, 0, BIT(0));
	alt->val[0] = v;
	alt->ctl = 0x100;
	alt = uncore_aux_alternative(need, 0, BIT(1));
	alt->val[0] = (u64)v << 32;
	alt->ctl = 0x200;
}

static void aux_alternatives(struct kunit *test)
{
	struct uncore_aux_need *a, *b, *c, *d;
	struct uncore_aux_state st = { }, before;
	u8 ca[UNCORE_AUX_REQS], cb[UNCORE_AUX_REQS], cc[UNCORE_AUX_REQS];
	u64 dirty;

	a = kunit_kzalloc(test, 4 * sizeof(*a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	b = a + 1;
	c = a + 2;
	d = a + 3;
	half_request(a, 1);
	half_request(b, 2);
	half_request(c, 3);
	KUNIT_EXPECT_EQ(test, uncore_aux_get(halves, &st, a, ca, &dirty), 0);
	KUNIT_EXPECT_EQ(test, ca[0], 0);
	/* The first half holds another value: the second one is taken. */
	KUNIT_EXPECT_EQ(test, uncore_aux_get(halves, &st, b, cb, &dirty), 0);
	KUNIT_EXPECT_EQ(test, cb[0], 1);
	KUNIT_EXPECT_EQ(test, st.val[0][0], 0x200000001ULL);
	KUNIT_EXPECT_EQ(test, b->req[0].alt[cb[0]].ctl, 0x200ULL);
	/* Both halves taken: a third value finds none. */
	before = st;
	KUNIT_EXPECT_EQ(test, uncore_aux_get(halves, &st, c, cc, &dirty), -EBUSY);
	KUNIT_EXPECT_EQ(test, memcmp(&st, &before, sizeof(st)), 0);
	/* A value equal to one held shares that half. */
	KUNIT_EXPECT_EQ(test, uncore_aux_get(halves, &st, b, cc, &dirty), 0);
	KUNIT_EXPECT_EQ(test, cc[0], 1);
	KUNIT_EXPECT_EQ(test, st.ref[0][1], 2);

	/*
	 * All or nothing: a half plus slot 1. Slot 1 holds another value, so
	 * the half it could have had stays free.
	 */
	memset(&st, 0, sizeof(st));
	st.ref[1][0] = 1;
	st.val[1][0] = 0x7;
	half_request(d, 4);
	uncore_aux_request(d, 1, BIT(0))->val[0] = 0x8;
	before = st;
	KUNIT_EXPECT_EQ(test, uncore_aux_get(halves, &st, d, ca, &dirty), -EBUSY);
	KUNIT_EXPECT_EQ(test, memcmp(&st, &before, sizeof(st)), 0);
	/* Released, slot 1 takes the new value; both slots are written. */
	st.ref[1][0] = 0;
	KUNIT_EXPECT_EQ(test, uncore_aux_get(halves, &st, d, ca, &dirty), 0);
	KUNIT_EXPECT_EQ(test, dirty, 0x11ULL);
	uncore_aux_put(halves, &st, d, ca);
	KUNIT_EXPECT_EQ(test, st.ref[0][0] + st.ref[0][1] + st.ref[1][0], 0);
	/* Given back, the values stay until a scrub writes them to zero. */
	KUNIT_EXPECT_NE(test, st.val[0][0] | st.val[1][0], 0x0ULL);
	KUNIT_EXPECT_EQ(test, uncore_aux_scrub(halves, 2, &st), 0x11ULL);
	KUNIT_EXPECT_EQ(test, st.val[0][0] | st.val[1][0], 0x0ULL);

	/* No more requests or alternatives than the arrays hold. */
	memset(d, 0, sizeof(*d));
	KUNIT_EXPECT_NULL(test, uncore_aux_alternative(d, 0, 1));
	while (d->nreq < UNCORE_AUX_REQS)
		KUNIT_EXPECT_NOT_NULL(test, uncore_aux_request(d, 0, 1));
	KUNIT_EXPECT_NULL(test, uncore_aux_request(d, 0, 1));
	while (d->req[d->nreq - 1].nalt < UNCORE_AUX_ALTS)
		KUNIT_EXPECT_NOT_NULL(test, uncore_aux_alternative(d, 0, 2));
	KUNIT_EXPECT_NULL(test, uncore_aux_alternative(d, 0, 2));
}

static void poll_period(struct kunit *test)
{
	/* 2^47 counts at 20 per clock of 3.5 GHz. */
	KUNIT_EXPECT_EQ(test, uncore_poll_period_ns(48, 20 * 3500000000ULL),
			2010535547933ULL);
	KUNIT_EXPECT_EQ(test, uncore_poll_period_ns(32, NSEC_PER_SEC),
			2147483648ULL);
	KUNIT_EXPECT_EQ(test, uncore_poll_period_ns(44, 8000000000ULL),
			1099511627776ULL);
	/* Clamped: a 16-bit counter at 1 GHz would want 32 us. */
	KUNIT_EXPECT_EQ(test, uncore_poll_period_ns(16, NSEC_PER_SEC),
			(u64)NSEC_PER_MSEC);
	/* Just under the 1 h cap, and far over it (no #DE from the division). */
	KUNIT_EXPECT_EQ(test, uncore_poll_period_ns(48, 39104609156ULL),
			3599000000073ULL);
	KUNIT_EXPECT_EQ(test, uncore_poll_period_ns(48, 1), 3600 * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, uncore_poll_period_ns(64, 1), 3600 * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, uncore_poll_period_ns(48, 0), 3600 * NSEC_PER_SEC);
}

/* A counter that advances by @step between config reads. */
struct split_fake {
	u64 val;
	u64 step;
	int reads;
};

static u32 split_rd(void *data, bool hi)
{
	struct split_fake *f = data;
	u32 v = hi ? upper_32_bits(f->val) : lower_32_bits(f->val);

	f->reads++;
	f->val += f->step;
	return v;
}

/* What the fake counted since the first read, as the driver bounds it. */
static u64 split_slack(void *data)
{
	struct split_fake *f = data;

	return (u64)f->reads * f->step;
}

static const struct uncore_split_ops split_ops = {
	.read	= split_rd,
	.slack	= split_slack,
};

/*
 * A carry into the upper dword landing before, between and after each of
 * the reads, the lower dword read first or second: the value returned is
 * always one the counter held during the read sequence, never off by
 * 2^32. 2 reads when the order @prev guesses is clear of the wrap: the
 * lower dword first near 0, the upper first near 2^32; 3 when it is
 * within the slack of one; at most 4 when the guess is wrong.
 */
static void split_read(struct kunit *test)
{
	const u64 step = 1000;
	int k, wrong;

	for (wrong = 0; wrong <= 1; wrong++) {
		for (k = -5; k <= 5; k++) {
			u64 start = BIT_ULL(32) * 7 - 2500 + k * step;
			/* @prev where the counter is now, or at the other end. */
			u64 prev = start ^ (wrong ? BIT_ULL(31) : 0);
			struct split_fake f = { .val = start, .step = step };
			u64 v = uncore_read_split(&split_ops, &f, 48, prev);
			bool lo_first = !(lower_32_bits(prev) & BIT(31));
			/* The value the dword read first is within the slack of the wrap. */
			bool near = lo_first ?
				lower_32_bits(start) + 2 * step > U32_MAX :
				lower_32_bits(start + step) <= 2 * step;

			KUNIT_EXPECT_GE_MSG(test, v, start, "k=%d wrong=%d", k, wrong);
			KUNIT_EXPECT_LE_MSG(test, v, start + (f.reads - 1) * step,
					    "k=%d wrong=%d", k, wrong);
			KUNIT_EXPECT_EQ_MSG(test, (v - start) % step, 0ULL,
					    "k=%d wrong=%d", k, wrong);
			KUNIT_EXPECT_LE_MSG(test, f.reads, near ? 4 : 2,
					    "k=%d wrong=%d", k, wrong);
			KUNIT_EXPECT_GE_MSG(test, f.reads, 2, "k=%d wrong=%d", k, wrong);
			if (!wrong && k >= 0)
				KUNIT_EXPECT_EQ_MSG(test, f.reads, near ? 3 : 2, "k=%d", k);
		}
	}
	/* A counter that starts from 0, read with its last value: two reads. */
	for (k = 1; k <= 5; k++) {
		u64 start = BIT_ULL(32) * 3 + k * step;
		struct split_fake f = { .val = start, .step = step };

		KUNIT_EXPECT_EQ_MSG(test, uncore_read_split(&split_ops, &f, 48,
							    start - step),
				    start, "k=%d", k);
		KUNIT_EXPECT_EQ_MSG(test, f.reads, 2, "k=%d", k);
	}
	/* A counter far from a wrap: two reads. */
	{
		struct split_fake f = { .val = BIT_ULL(40) + BIT_ULL(31), .step = step };

		KUNIT_EXPECT_EQ(test, uncore_read_split(&split_ops, &f, 48,
							BIT_ULL(40) + BIT_ULL(31)),
				BIT_ULL(40) + BIT_ULL(31) + step);
		KUNIT_EXPECT_EQ(test, f.reads, 2);
	}
	/* The width masks what lies above the counter. */
	{
		struct split_fake f = { .val = GENMASK_ULL(63, 0) };

		KUNIT_EXPECT_EQ(test, uncore_read_split(&split_ops, &f, 48, 0),
				GENMASK_ULL(47, 0));
	}
}

/*
 * Preload at each width: the counter overflows on exactly the left-th
 * count, and a period longer than half the counter is served in pieces.
 */
static void preload_widths(struct kunit *test)
{
	static const int widths[] = { 48, 44, 32 };
	int i;

	for (i = 0; i < ARRAY_SIZE(widths); i++) {
		int w = widths[i];
		u64 top = BIT_ULL(w), half = BIT_ULL(w - 1);
		u64 v = uncore_preload(1000, w);

		KUNIT_EXPECT_EQ(test, v, top - 1000);
		/* 999 counts leave it short of the carry, the 1000th wraps. */
		KUNIT_EXPECT_EQ(test, uncore_delta(v, (v + 999) & (top - 1), w), 999ULL);
		KUNIT_EXPECT_LT(test, v + 999, top);
		KUNIT_EXPECT_EQ(test, (v + 1000) & (top - 1), 0ULL);
		KUNIT_EXPECT_EQ(test, uncore_preload(1, w), top - 1);
		KUNIT_EXPECT_EQ(test, uncore_preload(half, w), half);
		KUNIT_EXPECT_EQ(test, uncore_preload(half + 1, w), half);
		KUNIT_EXPECT_EQ(test, uncore_preload(S64_MAX, w), half);
		/* Never a full wrap: 0 and negatives preload one count. */
		KUNIT_EXPECT_EQ(test, uncore_preload(0, w), top - 1);
		KUNIT_EXPECT_EQ(test, uncore_preload(-5, w), top - 1);
	}
}

/*
 * The frequency-mode period, count * num / den: exact where it fits,
 * S64_MAX where it does not. The first cases are a burst of a 48-bit
 * counter's range over 1 ns scaled to a 1 s step: mul_u64_u64_div_u64()
 * faulted (#DE) on them.
 */
static void scale_period(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, uncore_scale_period(BIT_ULL(48), NSEC_PER_SEC, 1),
			(u64)S64_MAX);
	KUNIT_EXPECT_EQ(test, uncore_scale_period(U64_MAX, U64_MAX, 1),
			(u64)S64_MAX);
	KUNIT_EXPECT_EQ(test, uncore_scale_period(U64_MAX, 2, 3), (u64)S64_MAX);
	KUNIT_EXPECT_EQ(test, uncore_scale_period(S64_MAX, 1, 1), (u64)S64_MAX);
	KUNIT_EXPECT_EQ(test, uncore_scale_period(S64_MAX, 3, 4),
			6917529027641081855ULL);
	KUNIT_EXPECT_EQ(test, uncore_scale_period(1000, 3, 2), 1500ULL);
	KUNIT_EXPECT_EQ(test, uncore_scale_period(1000, 1, 3), 333ULL);
	KUNIT_EXPECT_EQ(test, uncore_scale_period(10, 0, 5), 0ULL);
	KUNIT_EXPECT_EQ(test, uncore_scale_period(7, 5, 0), (u64)S64_MAX);
	KUNIT_EXPECT_EQ(test, uncore_scale_period(BIT_ULL(40), BIT_ULL(30), BIT_ULL(20)),
			BIT_ULL(50));
	/* 2^48 - 1 counts in 999999 ns, at a 1 ms step. */
	KUNIT_EXPECT_EQ(test, uncore_scale_period(BIT_ULL(48) - 1, 1000000, 999999),
			281475258185913ULL);
}

/* Periods elapsed in one PMI, and the countdown carried into the next. */
static void samples_due(struct kunit *test)
{
	s64 next;

	KUNIT_EXPECT_EQ(test, uncore_samples_due(1, 100, &next), 0ULL);
	KUNIT_EXPECT_EQ(test, next, 1LL);
	/* Exactly one period: one sample, a full period next. */
	KUNIT_EXPECT_EQ(test, uncore_samples_due(0, 100, &next), 1ULL);
	KUNIT_EXPECT_EQ(test, next, 100LL);
	/* 3.5 periods counted from a full countdown: 3 samples, 50 left. */
	KUNIT_EXPECT_EQ(test, uncore_samples_due(100 - 350, 100, &next), 3ULL);
	KUNIT_EXPECT_EQ(test, next, 50LL);
	/* 2 periods and 1 count past: the third period lacks 99. */
	KUNIT_EXPECT_EQ(test, uncore_samples_due(-101, 100, &next), 2ULL);
	KUNIT_EXPECT_EQ(test, next, 99LL);
	KUNIT_EXPECT_EQ(test, uncore_samples_due(-1, 1, &next), 2ULL);
	KUNIT_EXPECT_EQ(test, next, 1LL);
	/* A preloaded piece of a long period: no sample yet. */
	KUNIT_EXPECT_EQ(test, uncore_samples_due(BIT_ULL(50), BIT_ULL(52), &next), 0ULL);
	KUNIT_EXPECT_EQ(test, next, (s64)BIT_ULL(50));
}

/*
 * Bookkeeping over a run of PMIs as the handler does it: however the
 * counts arrive (bursts of several periods, single counts, reads between
 * PMIs), the samples total floor(count / period) and the countdown is what
 * is left of the period in progress.
 */
static void period_bookkeeping(struct kunit *test)
{
	static const u64 bursts[] = { 1, 99, 350, 7, 1000, 43, 100, 1, 299 };
	const u64 period = 100;
	s64 left = period, next;
	u64 total = 0, samples = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(bursts); i++) {
		left -= bursts[i];
		total += bursts[i];
		samples += uncore_samples_due(left, period, &next);
		left = next;
		KUNIT_EXPECT_EQ(test, samples, div64_u64(total, period));
		KUNIT_EXPECT_EQ(test, (u64)left, period - total % period);
	}
}

static struct kunit_case core_cases[] = {
	KUNIT_CASE(preload_widths),
	KUNIT_CASE(samples_due),
	KUNIT_CASE(scale_period),
	KUNIT_CASE(period_bookkeeping),
	KUNIT_CASE(split_read),
	KUNIT_CASE(delta_across_wrap),
	KUNIT_CASE(assign_constraints),
	KUNIT_CASE(assign_random),
	KUNIT_CASE(aux_alternatives),
	KUNIT_CASE(poll_period),
	{ }
};

static struct kunit_suite core_suite = {
	.name = "uncore_core",
	.test_cases = core_cases,
};

kunit_test_suite(core_suite);

MODULE_DESCRIPTION("KUnit tests for uncore_pmu's core logic");
MODULE_LICENSE("GPL");
