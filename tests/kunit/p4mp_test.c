// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the 64-bit Xeon MP's iFSB description
 * (drivers/uncore/p4mp/p4mp.c): counter assignment on its box stays
 * polynomial (assign_bound.h). Its encodings are tested in the guests
 * (tests/vm/p4mp/), against the simulator.
 */
/* The driver files first: they set pr_fmt before any header does. */
#include "core_units.h"
#include "../../drivers/uncore/p4mp/p4mp.c"
#include "../../drivers/uncore/core/logic.c"
#include "assign_bound.h"

#include <kunit/test.h>

/* main.c, not compiled in here, owns this. */
int uncore_max_pkgs = 2;

static void p4mp_assign_bound(struct kunit *test)
{
	assign_bound_platform(test, &p4mp_platform);
}

static struct kunit_case p4mp_cases[] = {
	KUNIT_CASE(p4mp_assign_bound),
	{}
};

static struct kunit_suite p4mp_suite = {
	.name = "uncore_p4mp",
	.test_cases = p4mp_cases,
};

kunit_test_suite(p4mp_suite);

MODULE_DESCRIPTION("KUnit tests of the Xeon MP iFSB description");
MODULE_LICENSE("GPL");
