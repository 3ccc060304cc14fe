/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost of placing events on a box's counters, for every box type of a
 * platform (review N3): uncore_assign_counters() runs in add(), IRQs off,
 * at every multiplexing rotation, so its worst case on each type must stay
 * polynomial in the type's counters. Included by a family's suite after
 * the driver's sources and logic.c.
 */
#ifndef UNCORE_KUNIT_ASSIGN_BOUND_H
#define UNCORE_KUNIT_ASSIGN_BOUND_H

#include <kunit/test.h>

/* What uncore_assign_counters() promises for @n events on @c counters. */
static inline unsigned int assign_step_bound(int n, int c)
{
	return n * (2 * c + 2);
}

/*
 * Whether @n events fit, by Hall's theorem: every set of them allows at
 * least as many counters as it has events. The reference the matching is
 * checked against: 2^@n sets, no search.
 */
static inline int assign_hall(const u32 *allowed, int n)
{
	unsigned long set;
	int i;

	for (set = 1; set < BIT(n); set++) {
		u32 any = 0;

		for (i = 0; i < n; i++)
			if (set & BIT(i))
				any |= allowed[i];
		if (hweight32(any) < hweight_long(set))
			return -ENOSPC;
	}
	return 0;
}

/* Place @n events; check the result and the steps against the bound. */
static inline void assign_bound_case(struct kunit *test, const char *type,
				     const char *what, const u32 *allowed,
				     const int *prev, int n, int c, int want)
{
	int assign[UNCORE_MAX_EVENTS];
	unsigned int steps;

	KUNIT_EXPECT_EQ_MSG(test, uncore_assign_counters(allowed, prev, n,
							 assign, &steps),
			    want, "%s, %s", type, what);
	KUNIT_EXPECT_LE_MSG(test, steps, assign_step_bound(n, c),
			    "%s, %s: %d events on %d counters", type, what, n, c);
}

/*
 * For each type of @plat, with C its counters (the fixed one included):
 * one event more than the general counters, all allowed everywhere, all
 * but the newcomer where they are (the refusal at every rotation); the
 * same with every constraint mask the type has, round robin; and a chain,
 * event i allowed counters i and i + 1 and sitting on i + 1, then an
 * event only counter 0 takes: placing it moves every other one.
 */
static inline void assign_bound_platform(struct kunit *test,
					 const struct uncore_platform *plat)
{
	const struct uncore_type * const *tp;

	for (tp = plat->types; *tp; tp++) {
		const struct uncore_type *t = *tp;
		const struct uncore_constraint *k;
		u32 allowed[UNCORE_MAX_EVENTS], masks[UNCORE_MAX_EVENTS];
		int prev[UNCORE_MAX_EVENTS];
		int g = t->num_counters, c = g + !!t->fixed_ctr_bits;
		int n = min(g + 1, UNCORE_MAX_EVENTS), nm = 0, i;

		if (!g)
			continue;
		for (i = 0; i < n; i++) {
			allowed[i] = GENMASK(g - 1, 0);
			prev[i] = i < g ? i : -1;
		}
		assign_bound_case(test, t->name, "one too many", allowed, prev,
				  n, c, n > g ? -ENOSPC : 0);

		for (k = t->constraints; k && k->counters; k++)
			if (nm < UNCORE_MAX_EVENTS)
				masks[nm++] = k->counters;
		if (nm) {
			for (i = 0; i < n; i++) {
				allowed[i] = masks[i % nm];
				prev[i] = -1;
			}
			assign_bound_case(test, t->name, "constrained", allowed,
					  prev, n, c, assign_hall(allowed, n));
		}

		if (g < 2)
			continue;
		for (i = 0; i < g - 1; i++) {
			allowed[i] = BIT(i) | BIT(i + 1);
			prev[i] = i + 1;
		}
		allowed[g - 1] = BIT(0);
		prev[g - 1] = -1;
		assign_bound_case(test, t->name, "chain", allowed, prev, g, c,
				  0);
	}
}

#endif /* UNCORE_KUNIT_ASSIGN_BOUND_H */
