// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: uncore_pmu's pure logic and the BDX MSR boxes' config validation.
 *
 * The driver's sources are compiled in, so static tables and helpers are
 * tested as the driver uses them, without loading the driver.
 */
/* The driver files first: they set pr_fmt before any header does. */
#include "../../drivers/uncore/access.c"
#include "../../drivers/uncore/core.c"
#include "../../drivers/uncore/bdx.c"
#include "../../drivers/uncore/logic.c"

#include <kunit/test.h>

/* main.c, not compiled in here, owns this. */
int uncore_max_pkgs = 2;

#define OPC(x)		((u64)(x) << 52)	/* FILTER1.opc, Table 2-19 */

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
	KUNIT_ASSERT_EQ(test, uncore_assign_counters(allowed, prev, 4, assign), 0);
	KUNIT_EXPECT_EQ(test, assign[3], 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_NE(test, assign[i], 0);

	/* Two counter-0-only events cannot both be placed. */
	allowed[0] = 0x1;
	allowed[1] = 0x1;
	prev[0] = -1;
	prev[1] = -1;
	KUNIT_EXPECT_EQ(test, uncore_assign_counters(allowed, prev, 2, assign),
			-ENOSPC);

	/* Five events on four counters do not fit. */
	for (i = 0; i < 5; i++) {
		allowed[i] = 0xf;
		prev[i] = -1;
	}
	KUNIT_EXPECT_EQ(test, uncore_assign_counters(allowed, prev, 5, assign),
			-ENOSPC);

	/* ...but four general events and the fixed counter do. */
	allowed[4] = BIT(UNCORE_FIXED_IDX);
	prev[1] = 2;
	KUNIT_ASSERT_EQ(test, uncore_assign_counters(allowed, prev, 5, assign), 0);
	KUNIT_EXPECT_EQ(test, assign[4], UNCORE_FIXED_IDX);
	/* A running event keeps its counter. */
	KUNIT_EXPECT_EQ(test, assign[1], 2);

	/* Order matters to a greedy pass, not to the search: {0,1} then {0}. */
	allowed[0] = 0x3;
	allowed[1] = 0x1;
	prev[0] = 0;
	prev[1] = -1;
	KUNIT_ASSERT_EQ(test, uncore_assign_counters(allowed, prev, 2, assign), 0);
	KUNIT_EXPECT_EQ(test, assign[0], 1);
	KUNIT_EXPECT_EQ(test, assign[1], 0);
}

static void filter_sharing(struct kunit *test)
{
	/* PCU: each band byte is a field of its own (2.8.2.2: four bands at once). */
	const u64 *masks = bdx_pcu.filter_fields;
	int ref[UNCORE_MAX_FILTER_FIELDS] = { 1, 0, 0, 0 };
	u64 cur = 0x14;
	struct uncore_filter_req req = { .fields = BIT(0), .value = 0x14 };

	KUNIT_EXPECT_TRUE(test, uncore_filter_fits(&req, ref, cur, masks, 4));
	req.value = 0x15;
	KUNIT_EXPECT_FALSE(test, uncore_filter_fits(&req, ref, cur, masks, 4));
	/* Another byte is free to take any value. */
	req.fields = BIT(1);
	req.value = 0x2000;
	KUNIT_EXPECT_TRUE(test, uncore_filter_fits(&req, ref, cur, masks, 4));
	/* A byte nobody uses any more may be rewritten. */
	ref[0] = 0;
	req.fields = BIT(0);
	req.value = 0x15;
	KUNIT_EXPECT_TRUE(test, uncore_filter_fits(&req, ref, cur, masks, 4));

	/* CBo: FILTER0/1 are one resource; only an identical value shares. */
	masks = bdx_cbox.filter_fields;
	ref[0] = 1;
	cur = OPC(0x182);
	req.fields = BIT(0);
	req.value = OPC(0x182);
	KUNIT_EXPECT_TRUE(test, uncore_filter_fits(&req, ref, cur, masks, 1));
	req.value = OPC(0x182) | BDX_CBO_F_NC;
	KUNIT_EXPECT_FALSE(test, uncore_filter_fits(&req, ref, cur, masks, 1));
	/* Even a different criterion: "only one ... at a time" (2.3.2.3). */
	req.value = 0x1ULL << 17;
	KUNIT_EXPECT_FALSE(test, uncore_filter_fits(&req, ref, cur, masks, 1));
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

static u32 nodeid_map(const u8 *node, int n)
{
	u32 map = 0;
	int i;

	for (i = 0; i < n; i++)
		map |= (u32)node[i] << (3 * i);
	return map;
}

static void nodeid_decode(struct kunit *test)
{
	static const u8 two[] = { 1, 0 };
	static const u8 four[] = { 2, 0, 3, 1 };
	static const u8 eight[] = { 5, 7, 0, 2, 6, 1, 4, 3 };
	int i;
	u32 map;

	map = nodeid_map(two, 2);
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_EQ(test, uncore_nodeid_to_pkg(two[i], map, 2), i);
	map = nodeid_map(four, 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, uncore_nodeid_to_pkg(four[i], map, 4), i);
	/* Bits above the node ID in the local register are not part of it. */
	map = nodeid_map(eight, 8);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, uncore_nodeid_to_pkg(eight[i] | 0xf8, map, 8),
				i);
	/* One package: field 0 only, whatever the rest of the register says. */
	KUNIT_EXPECT_EQ(test, uncore_nodeid_to_pkg(3, 0xfffff3, 1), 0);
	/* A node ID no used field holds is unmappable. */
	KUNIT_EXPECT_EQ(test, uncore_nodeid_to_pkg(5, nodeid_map(two, 2), 2),
			-ENOENT);
	/* Two packages claiming one node ID: trust neither. */
	KUNIT_EXPECT_EQ(test, uncore_nodeid_to_pkg(1, 1 | (1 << 3), 2), -EINVAL);
}

static void capid_decode(struct kunit *test)
{
	/* The manual's example: 0x000F0F is CBo 0-3 and 8-11. */
	KUNIT_EXPECT_EQ(test, uncore_bdx_capid5_cbos(0xff000f0f), 0x000f0fU);
	KUNIT_EXPECT_EQ(test, uncore_bdx_capid4_sboxes(0x00), 0);
	KUNIT_EXPECT_EQ(test, uncore_bdx_capid4_sboxes(0x40), 4);
	KUNIT_EXPECT_EQ(test, uncore_bdx_capid4_sboxes(0x80 | 0x3f), 4);
	KUNIT_EXPECT_EQ(test, uncore_bdx_capid4_sboxes(0xc0), -EINVAL);
}

static struct perf_event *new_event(struct kunit *test, u64 config,
				    u64 config1, u64 config2)
{
	struct perf_event *event = kunit_kzalloc(test, sizeof(*event),
						 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, event);
	event->attr.config = config;
	event->attr.config1 = config1;
	event->attr.config2 = config2;
	return event;
}

struct config_case {
	const struct uncore_type *type;
	u64 config, config1, config2;
	int err;
	u32 fields;
};

#define OK(t, c, c1, f)		{ &(t), (c), (c1), 0, 0, (f) }
#define BAD(t, c, c1, c2)	{ &(t), (c), (c1), (c2), -EINVAL, 0 }

static const struct config_case config_cases[] = {
	/* CBo: the demo event, TOR_INSERTS.MISS_OPCODE; opcode match unset. */
	OK(bdx_cbox, 0x0335, 0, 1),
	OK(bdx_cbox, 0x0335, OPC(0x182), 1),
	OK(bdx_cbox, 0x0135, OPC(0x182) | BDX_CBO_F_NC | BDX_CBO_F_ISOC,
	   1),
	OK(bdx_cbox, 0x4135, OPC(0x180) | (0x3ULL << 32),
	   1),
	OK(bdx_cbox, 0x4835, 0x1ULL << 32, 1),
	OK(bdx_cbox, 0x1134, 0x1fULL << 17, 1),
	OK(bdx_cbox, 0x0800 | 0x35 | UNCORE_CTL_TID_EN, 0x1e, 1),
	OK(bdx_cbox, 0x0036 | 0x01000000 | UNCORE_CTL_EDGE, 0, 0),
	OK(bdx_cbox, 0x0000, 0, 0),
	OK(bdx_cbox, 0x8033, 0x2ULL << 32, 1),
	/* Not an opcode (top two bits must be 0b11). */
	BAD(bdx_cbox, 0x0135, OPC(0x100), 0),
	/* A filter value the event would ignore. */
	BAD(bdx_cbox, 0x0835, OPC(0x182), 0),
	BAD(bdx_cbox, 0x0835, 0x1fULL << 17, 0),
	BAD(bdx_cbox, 0x0835, 0x3, 0),
	BAD(bdx_cbox, 0x0835, BDX_CBO_F_NC, 0),
	/* Control bits the driver owns, and reserved bits. */
	BAD(bdx_cbox, 0x0835 | UNCORE_CTL_EN, 0, 0),
	BAD(bdx_cbox, 0x0835 | UNCORE_CTL_OV_EN, 0, 0),
	BAD(bdx_cbox, 0x0835 | UNCORE_CTL_RST, 0, 0),
	BAD(bdx_cbox, 0x0835 | BIT_ULL(16), 0, 0),
	BAD(bdx_cbox, 0x0835 | BIT_ULL(21), 0, 0),
	BAD(bdx_cbox, 0x0835 | BIT_ULL(32), 0, 0),
	/* filter_link / filter_c6 of mainline are reserved on BDX. */
	BAD(bdx_cbox, 0x0835, 0x1ULL << 6, 0),
	BAD(bdx_cbox, 0x0835, BIT_ULL(61), 0),
	BAD(bdx_cbox, 0x0835, 0, 1),
	/* Invert or edge without a threshold (manual 1.4). */
	BAD(bdx_cbox, 0x0835 | UNCORE_CTL_INVERT, 0, 0),
	BAD(bdx_cbox, 0x0835 | UNCORE_CTL_EDGE, 0, 0),

	/* UBox: fixed UCLK counter, 5-bit threshold. */
	OK(bdx_ubox, UNCORE_FIXED_EVENT, 0, 0),
	OK(bdx_ubox, 0x0842, 0, 0),
	OK(bdx_ubox, 0x0145 | 0x1f000000 | UNCORE_CTL_INVERT, 0, 0),
	BAD(bdx_ubox, UNCORE_FIXED_EVENT, 1, 0),
	BAD(bdx_ubox, 0x0145 | BIT_ULL(29), 0, 0),
	BAD(bdx_ubox, 0x0842 | UNCORE_CTL_TID_EN, 0, 0),
	BAD(bdx_ubox, 0x0842, 1, 0),

	/* PCU: occupancy, bands. */
	OK(bdx_pcu, 0x80 | (1ULL << 14), 0, 0),
	OK(bdx_pcu, 0x80 | (3ULL << 14) | 0x05000000 | BDX_PCU_OCC_EDGE, 0, 0),
	OK(bdx_pcu, 0x0b, 0x14, BIT(0)),
	OK(bdx_pcu, 0x0e, 0x20ULL << 24, BIT(3)),
	OK(bdx_pcu, 0x00, 0, 0),
	BAD(bdx_pcu, 0x80, 0, 0),
	BAD(bdx_pcu, 0x80 | (1ULL << 14) | BDX_PCU_OCC_INVERT, 0, 0),
	BAD(bdx_pcu, 0x0b | (1ULL << 14), 0, 0),
	BAD(bdx_pcu, 0x0b, 0x14ULL << 8, 0),
	BAD(bdx_pcu, 0x00, 0x1, 0),
	BAD(bdx_pcu, 0x0100, 0, 0),
	BAD(bdx_pcu, 0x00 | BIT_ULL(29), 0, 0),

	/* SBo: no filter register behind tid_en. */
	OK(bdx_sbox, 0x0401, 0, 0),
	BAD(bdx_sbox, 0x0401 | UNCORE_CTL_TID_EN, 0, 0),
	BAD(bdx_sbox, 0x0401, 1, 0),
};

static void config_validation(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(config_cases); i++) {
		const struct config_case *c = &config_cases[i];
		struct perf_event *event = new_event(test, c->config, c->config1,
						     c->config2);
		int err = uncore_event_config(c->type, event);

		KUNIT_EXPECT_EQ_MSG(test, err, c->err, "%s case %d config 0x%llx config1 0x%llx",
				    c->type->name, i, c->config, c->config1);
		if (err || c->err)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, (u32)event->hw.extra_reg.reg, c->fields,
				    "%s case %d", c->type->name, i);
		KUNIT_EXPECT_EQ(test, event->hw.config,
				c->config == UNCORE_FIXED_EVENT ? 0 : c->config);
	}
}

static void constraints_and_rates(struct kunit *test)
{
	const struct uncore_constraint *cbo = bdx_cbox.constraints;
	u16 inc = 0;

	KUNIT_EXPECT_EQ(test, uncore_constraint_counters(cbo, 0x0136, 4, &inc), 0x1U);
	KUNIT_EXPECT_EQ(test, inc, 20);
	KUNIT_EXPECT_EQ(test, uncore_constraint_counters(cbo, 0x0109, 4, &inc), 0x3U);
	KUNIT_EXPECT_EQ(test, uncore_constraint_counters(cbo, 0x0335, 4, &inc), 0xfU);
	KUNIT_EXPECT_EQ(test,
			uncore_constraint_counters(bdx_pcu.constraints, 0x4080, 4, &inc),
			0xeU);
	KUNIT_EXPECT_EQ(test,
			uncore_constraint_counters(bdx_ubox.constraints, 0x0842, 2, &inc),
			0x3U);

	KUNIT_EXPECT_EQ(test, uncore_event_max_rate(&bdx_cbox, 0x0136),
			20 * BDX_UCLK_MAX_HZ);
	KUNIT_EXPECT_EQ(test, uncore_event_max_rate(&bdx_cbox, 0x01000136),
			BDX_UCLK_MAX_HZ);
	KUNIT_EXPECT_EQ(test, uncore_event_max_rate(&bdx_sbox, 0x0401),
			12 * BDX_UCLK_MAX_HZ);
	KUNIT_EXPECT_EQ(test, uncore_event_max_rate(&bdx_pcu, 0x4080),
			8 * BDX_PCLK_HZ);
	KUNIT_EXPECT_EQ(test, uncore_event_max_rate(&bdx_ubox, UNCORE_FIXED_EVENT),
			BDX_UCLK_MAX_HZ);
}

static struct kunit_case uncore_logic_cases[] = {
	KUNIT_CASE(delta_across_wrap),
	KUNIT_CASE(assign_constraints),
	KUNIT_CASE(filter_sharing),
	KUNIT_CASE(poll_period),
	KUNIT_CASE(nodeid_decode),
	KUNIT_CASE(capid_decode),
	KUNIT_CASE(config_validation),
	KUNIT_CASE(constraints_and_rates),
	{ }
};

static struct kunit_suite uncore_logic_suite = {
	.name = "uncore_logic",
	.test_cases = uncore_logic_cases,
};

kunit_test_suite(uncore_logic_suite);

MODULE_DESCRIPTION("KUnit tests for uncore_pmu's logic and BDX box configs");
MODULE_LICENSE("GPL");
