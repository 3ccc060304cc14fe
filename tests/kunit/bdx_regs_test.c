// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the simulator's Broadwell (BDX) register model
 * (drivers/sim/bdx/bdx_*.c), driven through the same MSR entry points the
 * backend uses, with explicit sim times. UCLK is 2 GHz and PCLK 800 MHz, so
 * 1000 ns = 2000 UCLK ticks = 800 PCLK ticks. A freeze on overflow takes
 * effect FREEZE_DELAY ns after the overflow, as with the module's default.
 */
#include <kunit/test.h>

#include "../../drivers/sim/bdx/bdx_box.c"
#include "../../drivers/sim/bdx/bdx_pkg.c"
#include "../../drivers/sim/bdx/bdx_msr.c"
#include "../../drivers/sim/bdx/bdx_pci.c"
#include "../../drivers/sim/bdx/bdx_event.c"
/* The driver's pure arithmetic, for the freeze-window test. */
#include "../../drivers/uncore/core/logic.c"

#define UCLK_HZ		2000000000ULL
#define DCLK_HZ		1000000000ULL
#define CAPID5		0x000f0f	/* CBo 0-3 and 8-11 */
#define CAPID4_SBO	0x40
#define FREEZE_DELAY	1000

#define CBO(n, off)	(SIM_MSR_CBO_BASE + SIM_MSR_CBO_STRIDE * (n) + (off))
#define SBO(n, off)	(SIM_MSR_SBO_BASE + SIM_MSR_SBO_STRIDE * (n) + (off))
#define PCU(off)	(SIM_MSR_PCU_BASE + (off))
#define BOX_CTL		0
#define CTL(i)		(1 + (i))
#define CBO_F0		5
#define CBO_F1		6
#define CBO_STATUS	7
#define CBO_CTR(i)	(8 + (i))
#define SBO_CTR(i)	(6 + (i))
#define PCU_FILTER	5
#define PCU_STATUS	6
#define PCU_CTR(i)	(7 + (i))

#define UNFRZ		SIM_BOX_CTL_MUST1
#define FRZ		(SIM_BOX_CTL_MUST1 | SIM_BOX_CTL_FRZ)
#define EV(e, u)	((e) | (u) << 8 | SIM_CTL_EN)
#define THR(t)		((u32)(t) << 24)

static struct sim_pkg *new_pkg(struct kunit *test, u32 capid4)
{
	struct sim_pkg *pkg = kunit_kzalloc(test, sizeof(*pkg), GFP_KERNEL);
	struct sim_pkg_cfg cfg = {
		.nodeid = 1, .capid4 = capid4, .capid5 = CAPID5,
		.imc_mask = 0x33, .uclk_hz = UCLK_HZ, .dclk_hz = DCLK_HZ,
	};

	KUNIT_ASSERT_NOT_NULL(test, pkg);
	sim_pkg_init(pkg, 0, &cfg, 0);
	pkg->freeze_delay_ns = FREEZE_DELAY;
	return pkg;
}

static u64 rd(struct kunit *test, struct sim_pkg *pkg, u64 t, u32 msr)
{
	u64 val;

	KUNIT_ASSERT_EQ(test, sim_msr_read(pkg, t, msr, &val), 0);
	return val;
}

static void wr(struct kunit *test, struct sim_pkg *pkg, u64 t, u32 msr,
	       u64 val)
{
	KUNIT_ASSERT_EQ(test, sim_msr_write(pkg, t, msr, val), 0);
}

static int inject(struct sim_pkg *pkg, u64 t, enum sim_box_type type,
		  unsigned int idx, u8 ev_sel, u8 umask, u64 count, u64 inc)
{
	struct sim_event ev = {
		.type = type, .idx = idx, .ev_sel = ev_sel, .umask = umask,
		.count = count, .inc = inc, .tid = -1, .opc = -1,
	};

	return sim_inject(pkg, t, &ev);
}

static void sim_test_enable_hierarchy(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);

	/* Reset state: nothing counts. */
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 1000, CBO(0, CBO_CTR(0))), 0);

	wr(test, pkg, 1000, CBO(0, BOX_CTL), UNFRZ);
	wr(test, pkg, 1000, CBO(0, CTL(0)), EV(0, 0));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 2000, CBO(0, CBO_CTR(0))), 2000);

	/* Local enable off. */
	wr(test, pkg, 2000, CBO(0, CTL(0)), 0);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 3000, CBO(0, CBO_CTR(0))), 2000);
	wr(test, pkg, 3000, CBO(0, CTL(0)), EV(0, 0));

	/* Box freeze, then unfreeze. */
	wr(test, pkg, 3000, CBO(0, BOX_CTL), FRZ);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 4000, CBO(0, CBO_CTR(0))), 2000);
	wr(test, pkg, 4000, CBO(0, BOX_CTL), UNFRZ);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 4500, CBO(0, CBO_CTR(0))), 3000);

	/* Global freeze latches until unfrz_all. */
	wr(test, pkg, 4500, SIM_MSR_U_GLOBAL_CTL, SIM_GCTL_FRZ_ALL);
	wr(test, pkg, 4600, SIM_MSR_U_GLOBAL_CTL, 0);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 5500, CBO(0, CBO_CTR(0))), 3000);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 5500, SIM_MSR_U_GLOBAL_CTL), 0);
	wr(test, pkg, 5500, SIM_MSR_U_GLOBAL_CTL, SIM_GCTL_UNFRZ_ALL);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 6000, CBO(0, CBO_CTR(0))), 4000);

	/* UBox fixed counter: UCLK; PCU CLOCKTICKS: 800 MHz PCLK. */
	wr(test, pkg, 6000, SIM_MSR_U_FIXED_CTL, SIM_FIXED_CTL_EN);
	wr(test, pkg, 6000, PCU(BOX_CTL), UNFRZ);
	wr(test, pkg, 6000, PCU(CTL(1)), EV(0, 0));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 7000, SIM_MSR_U_FIXED_CTR), 2000);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 7000, PCU(PCU_CTR(1))), 800);
	/* The UBox has no box freeze but obeys the global one. */
	wr(test, pkg, 7000, SIM_MSR_U_GLOBAL_CTL, SIM_GCTL_FRZ_ALL);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 8000, SIM_MSR_U_FIXED_CTR), 2000);

	/* Time going backwards (lock races) is ignored. */
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 10, CBO(0, CBO_CTR(0))), 6000);
	KUNIT_EXPECT_EQ(test, pkg->stats.rsvd_writes, 0);
}

static void sim_test_rst(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);

	wr(test, pkg, 0, CBO(1, CBO_CTR(0)), 111);
	wr(test, pkg, 0, CBO(1, CBO_CTR(1)), 222);
	wr(test, pkg, 0, CBO(1, CTL(0)), EV(0x34, 0x11));
	wr(test, pkg, 0, CBO(1, CTL(1)), EV(0x35, 0x08));
	/* Bits 63:48 read as 0 and are ignored on write. */
	wr(test, pkg, 0, CBO(1, CBO_CTR(2)), U64_MAX);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, CBO(1, CBO_CTR(2))),
			SIM_CTR_MASK);

	/* CTL.rst clears only its counter and reads back 0. */
	wr(test, pkg, 0, CBO(1, CTL(0)), EV(0x34, 0x11) | SIM_CTL_RST);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, CBO(1, CBO_CTR(0))), 0);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, CBO(1, CBO_CTR(1))), 222);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, CBO(1, CTL(0))),
			EV(0x34, 0x11));

	/* rst_ctrs clears the counters, rst_ctrl the controls. */
	wr(test, pkg, 0, CBO(1, BOX_CTL), UNFRZ | SIM_BOX_CTL_RST_CTRS);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, CBO(1, CBO_CTR(1))), 0);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, CBO(1, CTL(1))),
			EV(0x35, 0x08));
	wr(test, pkg, 0, CBO(1, BOX_CTL), UNFRZ | SIM_BOX_CTL_RST_CTRL);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, CBO(1, CTL(1))), 0);
	/* Write-only bits read back 0. */
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, CBO(1, BOX_CTL)), 0);

	/* Violations are counted, not refused. */
	KUNIT_EXPECT_EQ(test, pkg->stats.boxctl_no_must1, 0);
	wr(test, pkg, 0, CBO(1, BOX_CTL), SIM_BOX_CTL_RST_CTRS);
	KUNIT_EXPECT_EQ(test, pkg->stats.boxctl_no_must1, 1);
	KUNIT_EXPECT_EQ(test, pkg->stats.rsvd_writes, 0);
	wr(test, pkg, 0, CBO(1, CTL(0)), BIT(21));
	wr(test, pkg, 0, CBO(1, CBO_F0), BIT(31));
	wr(test, pkg, 0, SIM_MSR_U_GLOBAL_CTL, BIT(20));
	KUNIT_EXPECT_EQ(test, pkg->stats.rsvd_writes, 3);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, CBO(1, CTL(0))), 0);
}

static void sim_test_wrap_and_rw1c(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);

	/* CBo: wrap sets BOX_STATUS.ov only (no ov_en, no global bit). */
	wr(test, pkg, 0, CBO(2, BOX_CTL), UNFRZ);
	wr(test, pkg, 0, CBO(2, CBO_CTR(3)), BIT_ULL(48) - 10);
	wr(test, pkg, 0, CBO(2, CTL(3)), EV(0, 0));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 10, CBO(2, CBO_CTR(3))), 10);
	KUNIT_EXPECT_EQ(test, pkg->cbo[2].ctr[3].total, 20);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 10, CBO(2, CBO_STATUS)), BIT(3));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 10, SIM_MSR_U_GLOBAL_STATUS), 0);
	/* RW1C: 0 bits leave it, 1 bits clear it. */
	wr(test, pkg, 10, CBO(2, CBO_STATUS), BIT(0));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 10, CBO(2, CBO_STATUS)), BIT(3));
	wr(test, pkg, 10, CBO(2, CBO_STATUS), BIT(3));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 10, CBO(2, CBO_STATUS)), 0);

	/* UBox with ov_en: BOX_STATUS and GLOBAL_STATUS.ov_u. */
	wr(test, pkg, 10, SIM_MSR_U_CTR0 + 1, BIT_ULL(48) - 3);
	wr(test, pkg, 10, SIM_MSR_U_CTL0 + 1,
	   EV(0x42, 0x08) | SIM_CTL_OV_EN);
	KUNIT_EXPECT_EQ(test, inject(pkg, 10, SIM_UBOX, 0, 0x42, 0x08, 5, 1),
			1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 10, SIM_MSR_U_CTR0 + 1), 2);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 10, SIM_MSR_U_BOX_STATUS), BIT(1));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 10, SIM_MSR_U_GLOBAL_STATUS),
			BIT(SIM_GSTS_OV_U));

	/* Fixed counter with ov_en: ov_u_fixed. PCU with ov_en: ov_p. */
	wr(test, pkg, 10, SIM_MSR_U_FIXED_CTR, SIM_CTR_MASK);
	wr(test, pkg, 10, SIM_MSR_U_FIXED_CTL,
	   SIM_FIXED_CTL_EN | SIM_FIXED_CTL_OV_EN);
	wr(test, pkg, 10, PCU(BOX_CTL), UNFRZ);
	wr(test, pkg, 10, PCU(PCU_CTR(2)), SIM_CTR_MASK);
	wr(test, pkg, 10, PCU(CTL(2)), EV(0, 0) | SIM_CTL_OV_EN);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 20, SIM_MSR_U_GLOBAL_STATUS),
			BIT(SIM_GSTS_OV_U_FIXED) | BIT(SIM_GSTS_OV_U) |
			BIT(SIM_GSTS_OV_P));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 20, PCU(PCU_STATUS)), BIT(2));
	wr(test, pkg, 20, SIM_MSR_U_GLOBAL_STATUS, BIT(SIM_GSTS_OV_U));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 20, SIM_MSR_U_GLOBAL_STATUS),
			BIT(SIM_GSTS_OV_U_FIXED) | BIT(SIM_GSTS_OV_P));
}

static void sim_test_threshold(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);
	u32 msr = SIM_MSR_U_CTR0;

	/* thresh = 0: r * N; invert/edge without thresh have no effect. */
	wr(test, pkg, 0, SIM_MSR_U_CTL0,
	   EV(0x45, 0x01) | SIM_CTL_INVERT | SIM_CTL_EDGE);
	inject(pkg, 0, SIM_UBOX, 0, 0x45, 0x01, 10, 5);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, msr), 50);

	/* thresh: cycles with r >= thresh. */
	wr(test, pkg, 0, SIM_MSR_U_CTL0, EV(0x45, 0x01) | THR(3) |
	   SIM_CTL_RST);
	inject(pkg, 0, SIM_UBOX, 0, 0x45, 0x01, 10, 5);
	inject(pkg, 0, SIM_UBOX, 0, 0x45, 0x01, 10, 2);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, msr), 10);

	/* invert: cycles with r < thresh. */
	wr(test, pkg, 0, SIM_MSR_U_CTL0, EV(0x45, 0x01) | THR(3) |
	   SIM_CTL_INVERT | SIM_CTL_RST);
	inject(pkg, 0, SIM_UBOX, 0, 0x45, 0x01, 10, 5);
	inject(pkg, 0, SIM_UBOX, 0, 0x45, 0x01, 7, 2);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, msr), 7);

	/* edge: rising edges of the condition. */
	wr(test, pkg, 0, SIM_MSR_U_CTL0, EV(0x45, 0x01) | THR(3) |
	   SIM_CTL_EDGE | SIM_CTL_RST);
	inject(pkg, 0, SIM_UBOX, 0, 0x45, 0x01, 10, 5);
	inject(pkg, 0, SIM_UBOX, 0, 0x45, 0x01, 10, 5);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, msr), 1);
	inject(pkg, 0, SIM_UBOX, 0, 0x45, 0x01, 10, 1);
	inject(pkg, 0, SIM_UBOX, 0, 0x45, 0x01, 10, 4);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, msr), 2);

	/* invert + edge: falling edges of r >= thresh. */
	wr(test, pkg, 0, SIM_MSR_U_CTL0, EV(0x45, 0x01) | THR(3) |
	   SIM_CTL_EDGE | SIM_CTL_INVERT | SIM_CTL_RST);
	inject(pkg, 0, SIM_UBOX, 0, 0x45, 0x01, 10, 5);
	inject(pkg, 0, SIM_UBOX, 0, 0x45, 0x01, 10, 1);
	inject(pkg, 0, SIM_UBOX, 0, 0x45, 0x01, 10, 1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, msr), 1);

	/* CBo thresholds are 8 bits wide: 0x80 is a valid threshold. */
	wr(test, pkg, 0, CBO(0, BOX_CTL), UNFRZ);
	wr(test, pkg, 0, CBO(0, CTL(0)), EV(0x11, 0x01) | THR(0x80));
	inject(pkg, 0, SIM_CBO, 0, 0x11, 0x01, 4, 0x7f);
	inject(pkg, 0, SIM_CBO, 0, 0x11, 0x01, 3, 0x80);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, CBO(0, CBO_CTR(0))), 3);

	/* Unit masks must share a bit. */
	KUNIT_EXPECT_EQ(test, inject(pkg, 0, SIM_CBO, 0, 0x11, 0x02, 1, 0x80),
			0);
	KUNIT_EXPECT_EQ(test, pkg->stats.rsvd_writes, 0);
}

/* The part-independent counter arithmetic (counter.h), at three widths. */
static void sim_test_counter_widths(struct kunit *test)
{
	/* 32 bits under a control half, as on the NetBurst Xeon MP. */
	u64 reg = 0xabcd0000fffffffeULL;

	KUNIT_EXPECT_FALSE(test, sim_counter_add(&reg, GENMASK_ULL(31, 0), 1));
	KUNIT_EXPECT_EQ(test, reg, 0xabcd0000ffffffffULL);
	KUNIT_EXPECT_TRUE(test, sim_counter_add(&reg, GENMASK_ULL(31, 0), 3));
	KUNIT_EXPECT_EQ(test, reg, 0xabcd000000000002ULL);
	/* More than a whole wrap is still one carry reported. */
	KUNIT_EXPECT_TRUE(test, sim_counter_add(&reg, GENMASK_ULL(31, 0), BIT_ULL(33)));
	KUNIT_EXPECT_EQ(test, reg, 0xabcd000000000002ULL);
	/* 48 bits, Broadwell's. */
	reg = GENMASK_ULL(47, 0) - 9;
	KUNIT_EXPECT_FALSE(test, sim_counter_add(&reg, GENMASK_ULL(47, 0), 9));
	KUNIT_EXPECT_TRUE(test, sim_counter_add(&reg, GENMASK_ULL(47, 0), 1));
	KUNIT_EXPECT_EQ(test, reg, 0ULL);
	/* 64 bits: the latency counter. */
	reg = U64_MAX - 1;
	KUNIT_EXPECT_FALSE(test, sim_counter_add(&reg, U64_MAX, 1));
	KUNIT_EXPECT_TRUE(test, sim_counter_add(&reg, U64_MAX, 2));
	KUNIT_EXPECT_EQ(test, reg, 1ULL);
}

static void sim_test_cbo_filters(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);
	struct sim_event ev = {
		.type = SIM_CBO, .idx = 8, .count = 1, .inc = 1,
		.tid = -1, .opc = -1,
	};

	wr(test, pkg, 0, CBO(8, BOX_CTL), UNFRZ);

	/* tid_en: FILTER0.tid must equal the occurrence's thread. */
	wr(test, pkg, 0, CBO(8, CBO_F0), 0x05);
	wr(test, pkg, 0, CBO(8, CTL(0)), EV(0x13, 0x01) | SIM_CTL_TID_EN);
	ev.ev_sel = 0x13;
	ev.umask = 0x01;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 0);
	ev.tid = 4;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 0);
	ev.tid = 5;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 1);

	/* LLC_LOOKUP: state mask. */
	wr(test, pkg, 0, CBO(8, CBO_F0), FIELD_PREP(SIM_CBO_F0_STATE, 0x09));
	wr(test, pkg, 0, CBO(8, CTL(1)), EV(0x34, 0x11));
	ev.ev_sel = 0x34;
	ev.umask = 0x11;
	ev.state = 0x02;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 0);
	ev.state = 0x08;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 1);

	/* TOR_INSERTS.OPCODE: opcode match; .ALL ignores the opcode. */
	wr(test, pkg, 0, CBO(8, CBO_F1), FIELD_PREP(SIM_CBO_F1_OPC, 0x182));
	wr(test, pkg, 0, CBO(8, CTL(2)), EV(0x35, 0x01));
	wr(test, pkg, 0, CBO(8, CTL(3)), EV(0x35, 0x08));
	ev.ev_sel = 0x35;
	ev.umask = 0x09;
	ev.opc = 0x180;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 1);
	ev.opc = 0x182;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 2);

	/* NID subevents: node mask; nc qualifies only the opcode match. */
	wr(test, pkg, 0, CBO(8, CBO_F1), 0x2 | SIM_CBO_F1_NC);
	wr(test, pkg, 0, CBO(8, CTL(3)), EV(0x35, 0x48));
	ev.umask = 0x48;
	ev.nid = 0x1;
	ev.nc = false;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 0);
	ev.nid = 0x3;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 1);

	/* ...where it demands non-coherent requests. */
	wr(test, pkg, 0, CBO(8, CBO_F1),
	   FIELD_PREP(SIM_CBO_F1_OPC, 0x182) | SIM_CBO_F1_NC | 0x2);
	wr(test, pkg, 0, CBO(8, CTL(3)), 0);
	ev.umask = 0x01;
	ev.opc = 0x182;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 0);
	ev.nc = true;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 1);

	/* RETRY events with NID subevents use FILTER1.nid too. */
	wr(test, pkg, 0, CBO(8, CTL(2)), EV(0x32, 0x41));
	ev.ev_sel = 0x32;
	ev.umask = 0x01;
	ev.nid = 0x4;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 0);
	ev.nid = 0x2;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 1);

	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, CBO(8, CBO_CTR(0))), 1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, CBO(8, CBO_CTR(1))), 1);
	KUNIT_EXPECT_EQ(test, pkg->stats.rsvd_writes, 0);
}

static void sim_test_pcu(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);
	struct sim_event ev = {
		.type = SIM_PCU, .count = 100, .tid = -1, .opc = -1,
	};

	wr(test, pkg, 0, PCU(BOX_CTL), UNFRZ);
	/* Bands 2.0 and 3.0 GHz in bytes 0 and 3. */
	wr(test, pkg, 0, PCU(PCU_FILTER), 0x1e000014);
	wr(test, pkg, 0, PCU(CTL(0)), EV(0x0b, 0));
	wr(test, pkg, 0, PCU(CTL(1)), EV(0x0e, 0));
	ev.ev_sel = 0x0b;
	ev.freq = 0x18;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 1);
	ev.ev_sel = 0x0e;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 1);
	ev.freq = 0x1e;
	sim_inject(pkg, 0, &ev);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, PCU(PCU_CTR(0))), 100);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, PCU(PCU_CTR(1))), 100);

	/* Occupancy: cores in C0 accumulate; C6 counter ignores them. */
	wr(test, pkg, 0, PCU(CTL(2)), EV(0x80, 0x40));
	wr(test, pkg, 0, PCU(CTL(3)), EV(0x80, 0xc0));
	ev.ev_sel = 0x80;
	ev.umask = 0x40;
	ev.cores = 6;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, PCU(PCU_CTR(2))), 600);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, PCU(PCU_CTR(3))), 0);

	/* Cycles with > 4 cores in C0, and transitions into it. */
	wr(test, pkg, 0, PCU(CTL(2)), EV(0x80, 0x40) | THR(5) | SIM_CTL_RST);
	wr(test, pkg, 0, PCU(CTL(3)), EV(0x80, 0x40) | THR(5) |
	   SIM_PCU_CTL_OCC_EDGE | SIM_CTL_RST);
	sim_inject(pkg, 0, &ev);
	ev.cores = 2;
	sim_inject(pkg, 0, &ev);
	ev.cores = 5;
	sim_inject(pkg, 0, &ev);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, PCU(PCU_CTR(2))), 200);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, PCU(PCU_CTR(3))), 2);

	/* occ_invert: cycles with < 5 cores. */
	wr(test, pkg, 0, PCU(CTL(3)), EV(0x80, 0x40) | THR(5) |
	   SIM_PCU_CTL_OCC_INVERT | SIM_CTL_RST);
	ev.cores = 4;
	sim_inject(pkg, 0, &ev);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, PCU(PCU_CTR(3))), 100);
	KUNIT_EXPECT_EQ(test, pkg->stats.rsvd_writes, 0);
}

static void sim_test_sbo_write_twice(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);

	wr(test, pkg, 0, SBO(1, BOX_CTL), UNFRZ);
	/* One write of a new event select does not take hold. */
	wr(test, pkg, 0, SBO(1, CTL(0)), EV(0x13, 0x01));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, SBO(1, CTL(0))), EV(0x13, 0x01));
	KUNIT_EXPECT_EQ(test, inject(pkg, 0, SIM_SBO, 1, 0x13, 0x01, 1, 1), 0);
	/* The same value again latches it. */
	wr(test, pkg, 0, SBO(1, CTL(0)), EV(0x13, 0x01));
	KUNIT_EXPECT_EQ(test, inject(pkg, 0, SIM_SBO, 1, 0x13, 0x01, 1, 1), 1);
	/* A different event unlatches; en = 0 then en = 1 latches. */
	wr(test, pkg, 0, SBO(1, CTL(0)), EV(0x02, 0x01));
	KUNIT_EXPECT_EQ(test, inject(pkg, 0, SIM_SBO, 1, 0x02, 0x01, 1, 1), 0);
	wr(test, pkg, 0, SBO(1, CTL(1)), EV(0x02, 0x01) & ~SIM_CTL_EN);
	wr(test, pkg, 0, SBO(1, CTL(1)), EV(0x02, 0x01));
	KUNIT_EXPECT_EQ(test, inject(pkg, 0, SIM_SBO, 1, 0x02, 0x01, 1, 1), 1);
	/* CLOCKTICKS over the reset value 0 takes hold at once. */
	wr(test, pkg, 0, SBO(1, CTL(2)), EV(0, 0));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 100, SBO(1, SBO_CTR(2))), 200);
}

static void sim_test_absent_boxes(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, 0);
	u64 val = 1;

	/* CAPID5 0x000f0f: CBo 4 is absent, CBo 3 present. */
	KUNIT_EXPECT_EQ(test, sim_msr_read(pkg, 0, CBO(4, CBO_CTR(0)), &val),
			-EIO);
	KUNIT_EXPECT_EQ(test, val, 0);
	KUNIT_EXPECT_EQ(test, sim_msr_write(pkg, 0, CBO(12, BOX_CTL), UNFRZ),
			-EIO);
	KUNIT_EXPECT_EQ(test, sim_msr_read(pkg, 0, CBO(3, CBO_CTR(3)), &val),
			0);
	KUNIT_EXPECT_EQ(test, sim_msr_read(pkg, 0, CBO(23, 0), &val), -EIO);
	/* Holes in a present CBo's range, and undocumented MSRs. */
	KUNIT_EXPECT_EQ(test, sim_msr_read(pkg, 0, CBO(3, 0xc), &val), -EIO);
	KUNIT_EXPECT_EQ(test, sim_msr_read(pkg, 0, 0x707, &val), -EIO);
	KUNIT_EXPECT_EQ(test, sim_msr_read(pkg, 0, 0x71b, &val), -EIO);
	/* CAPID4[7:6] = 0: no SBo. */
	KUNIT_EXPECT_EQ(test, sim_msr_read(pkg, 0, SBO(0, BOX_CTL), &val),
			-EIO);
	KUNIT_EXPECT_EQ(test, sim_msr_write(pkg, 0, SBO(3, SBO_CTR(3)), 0),
			-EIO);
	KUNIT_EXPECT_EQ(test, inject(pkg, 0, SIM_CBO, 4, 0x13, 1, 1, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pkg->stats.msr_faults, 8);
}

static u32 prd(struct kunit *test, struct sim_pkg *pkg, u64 t,
	       struct sim_box *box, int fn, unsigned int off)
{
	u32 val;

	KUNIT_ASSERT_EQ(test, sim_pci_reg_read(pkg, t, box, fn, off, &val), 0);
	return val;
}

static void pwr(struct kunit *test, struct sim_pkg *pkg, u64 t,
		struct sim_box *box, int fn, unsigned int off, u32 val)
{
	KUNIT_ASSERT_EQ(test, sim_pci_reg_write(pkg, t, box, fn, off, val), 0);
}

#define PMON	SIM_PCI_FN_PMON

/* PCI boxes: layout, 48-bit counters in two dwords, clocks, errata. */
static void sim_test_pci_boxes(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, 0x80);
	struct sim_box *ha = &pkg->ha[0], *irp = &pkg->irp;
	struct sim_box *r3 = &pkg->r3qpi[2], *imc = &pkg->imc[0];

	/* Presence: CAPID4 = 10b gives link 2; imc_mask 0x33. */
	KUNIT_EXPECT_TRUE(test, r3->present);
	KUNIT_EXPECT_TRUE(test, pkg->imc[5].present);
	KUNIT_EXPECT_FALSE(test, pkg->imc[2].present);

	/* HA CLOCKTICKS on CTR1 (0xa8/0xac): a dword write keeps the other. */
	pwr(test, pkg, 0, ha, PMON, 0xf4, UNFRZ);
	pwr(test, pkg, 0, ha, PMON, 0xac, 0x1234);
	pwr(test, pkg, 0, ha, PMON, 0xa8, 0xfffffc18);	/* 2^32 - 1000 */
	pwr(test, pkg, 0, ha, PMON, 0xdc, EV(0, 0));
	KUNIT_EXPECT_EQ(test, prd(test, pkg, 1000, ha, PMON, 0xa8), 1000U);
	KUNIT_EXPECT_EQ(test, prd(test, pkg, 1000, ha, PMON, 0xac), 0x1235U);
	KUNIT_EXPECT_EQ(test, pkg->stats.rsvd_writes, 0ULL);
	KUNIT_EXPECT_EQ(test, pkg->stats.boxctl_no_must1, 0ULL);

	/* IRP counter 1 lives at 0xb0 (Table 2-145), not 0xa8. */
	pwr(test, pkg, 1000, irp, PMON, 0xf4, UNFRZ);
	pwr(test, pkg, 1000, irp, PMON, 0xdc, EV(0, 0));
	KUNIT_EXPECT_EQ(test, prd(test, pkg, 2000, irp, PMON, 0xb0), 2000U);
	KUNIT_EXPECT_EQ(test, sim_pci_reg_read(pkg, 2000, irp, PMON, 0xa8, &(u32){ 0 }),
			-ENOENT);

	/* R3QPI: 17:16 reserved; controls take hold only when written twice. */
	pwr(test, pkg, 2000, r3, PMON, 0xf4, 0x3);
	KUNIT_EXPECT_EQ(test, pkg->stats.rsvd_writes, 0ULL);
	pwr(test, pkg, 2000, r3, PMON, 0xd8, EV(1, 0));
	KUNIT_EXPECT_EQ(test, prd(test, pkg, 3000, r3, PMON, 0xa0), 0U);
	pwr(test, pkg, 3000, r3, PMON, 0xd8, EV(1, 0));
	KUNIT_EXPECT_EQ(test, prd(test, pkg, 4000, r3, PMON, 0xa0), 2000U);
	pwr(test, pkg, 4000, r3, PMON, 0xf4, UNFRZ);
	KUNIT_EXPECT_EQ(test, pkg->stats.rsvd_writes, 1ULL);

	/* iMC fixed counter: DCLK (1 GHz here) when FIXED_CTL.en. */
	pwr(test, pkg, 4000, imc, PMON, 0xf0, SIM_FIXED_CTL_EN);
	KUNIT_EXPECT_EQ(test, prd(test, pkg, 5000, imc, PMON, 0xd0), 1000U);
	pwr(test, pkg, 5000, imc, PMON, 0xf4, UNFRZ | SIM_BOX_CTL_RST_CTRL);
	KUNIT_EXPECT_EQ(test, prd(test, pkg, 5000, imc, PMON, 0xf0), 0U);
}

/* HA address/opcode match and QPI CTO_COUNT slots. */
static void sim_test_pci_match(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, 0x40);
	struct sim_box *ha = &pkg->ha[1], *qpi = &pkg->qpi[0];
	struct sim_event ev = {
		.type = SIM_HA, .idx = 1, .ev_sel = 0x20, .umask = 0x03,
		.count = 1, .inc = 1, .tid = -1, .opc = -1,
	};

	pwr(test, pkg, 0, ha, PMON, 0xf4, UNFRZ);
	pwr(test, pkg, 0, ha, PMON, 0x40, 0x12345000);
	pwr(test, pkg, 0, ha, PMON, 0x44, 0x1);
	pwr(test, pkg, 0, ha, PMON, 0x48, 0x12);
	pwr(test, pkg, 0, ha, PMON, 0xd8, EV(0x20, 0x01));	/* ADDR */
	pwr(test, pkg, 0, ha, PMON, 0xdc, EV(0x20, 0x03));	/* FILT */
	ev.addr = 0x112345fc0ULL;
	ev.hopc = 0x12;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 2);
	ev.hopc = 0x13;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 1);
	ev.addr = 0x12345fc0ULL;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 0);

	/* QPI: Rx slot on MC = DRS; an empty Tx slot never triggers. */
	pwr(test, pkg, 0, qpi, PMON, 0xf4, UNFRZ);
	pwr(test, pkg, 0, qpi, SIM_PCI_FN_QPI_MM, 0x228, 0x1c00);
	pwr(test, pkg, 0, qpi, SIM_PCI_FN_QPI_MM, 0x238, 0x1e00);
	pwr(test, pkg, 0, qpi, PMON, 0xd8, EV(0x38, 0) | SIM_CTL_EV_SEL_EXT);
	memset(&ev, 0, sizeof(ev));
	ev.type = SIM_QPI;
	ev.ev_sel = 0x38;
	ev.ext = true;
	ev.count = 3;
	ev.inc = 1;
	ev.pkt0 = 0x1c40;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 1);
	ev.tx = true;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 0);
	ev.tx = false;
	ev.ext = false;
	KUNIT_EXPECT_EQ(test, sim_inject(pkg, 0, &ev), 0);
	KUNIT_EXPECT_EQ(test, prd(test, pkg, 0, qpi, PMON, 0xa0), 3U);
	/* Reserved bits of MATCH0 are counted, not stored. */
	pwr(test, pkg, 0, qpi, SIM_PCI_FN_QPI_MM, 0x200, 0x7);
	KUNIT_EXPECT_EQ(test, pkg->stats.rsvd_writes, 1ULL);
	KUNIT_EXPECT_EQ(test, prd(test, pkg, 0, qpi, SIM_PCI_FN_QPI_MM, 0x200), 0U);
}

#define U_CTL(i)	(SIM_MSR_U_CTL0 + (i))
#define U_CTR(i)	(SIM_MSR_U_CTR0 + (i))
#define GCTL		SIM_MSR_U_GLOBAL_CTL
#define GSTS		SIM_MSR_U_GLOBAL_STATUS
#define OV_U		BIT(SIM_GSTS_OV_U)
#define UEV		(EV(0x42, 0x08) | SIM_CTL_OV_EN)
#define TOP		BIT_ULL(48)

/* An injected UBox event 0x42 of @n cycles. */
static int uinj(struct sim_pkg *pkg, u64 t, u64 n)
{
	return inject(pkg, t, SIM_UBOX, 0, 0x42, 0x08, n, 1);
}

/*
 * ov_en: box and global status, a freeze pending FREEZE_DELAY after the
 * overflow; every counter runs on until then, then everything stops: the
 * counter that overflowed, another box's counters, the UBox fixed counter.
 */
static void sim_test_overflow_freeze(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);
	u32 core_sel = 0;
	bool wake = false;

	wr(test, pkg, 0, CBO(0, BOX_CTL), UNFRZ);
	wr(test, pkg, 0, CBO(0, CTL(0)), EV(0, 0));
	wr(test, pkg, 0, SIM_MSR_U_FIXED_CTL, SIM_FIXED_CTL_EN);
	wr(test, pkg, 0, U_CTR(0), TOP - 10);
	wr(test, pkg, 0, U_CTL(0), UEV);
	wr(test, pkg, 0, GCTL, 0x5 | SIM_GCTL_WK_ON_PMI);

	KUNIT_EXPECT_EQ(test, uinj(pkg, 1000, 15), 1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 1000, U_CTR(0)), 5);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 1000, SIM_MSR_U_BOX_STATUS), BIT(0));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 1000, GSTS), OV_U);
	KUNIT_EXPECT_TRUE(test, pkg->freeze_pending);
	KUNIT_EXPECT_EQ(test, pkg->freeze_at, 1000 + FREEZE_DELAY);
	KUNIT_EXPECT_FALSE(test, pkg->global_frozen);

	/* Still counting, wrapped, until freeze_at. */
	KUNIT_EXPECT_EQ(test, uinj(pkg, 1500, 7), 1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 1999, U_CTR(0)), 12);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 1999, CBO(0, CBO_CTR(0))), 3998);
	KUNIT_EXPECT_FALSE(test, pkg->global_frozen);

	/* One advance across freeze_at: counted up to 2000 ns only. */
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 5000, CBO(0, CBO_CTR(0))), 4000);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 5000, SIM_MSR_U_FIXED_CTR), 4000);
	KUNIT_EXPECT_TRUE(test, pkg->global_frozen);
	KUNIT_EXPECT_FALSE(test, pkg->freeze_pending);
	KUNIT_EXPECT_TRUE(test, pkg->pmi_pending);
	KUNIT_EXPECT_EQ(test, pkg->stats.freezes, 1);

	/* Injected while frozen: lost, and counted as such. */
	KUNIT_EXPECT_EQ(test, uinj(pkg, 5000, 3), 0);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 5000, U_CTR(0)), 12);
	KUNIT_EXPECT_EQ(test, pkg->stats.frozen_drops, 1);
	KUNIT_EXPECT_EQ(test, pkg->stats.inject_hits, 2);

	/* The PMI: pmi_core_sel and wk_on_pmi of the freeze, taken once. */
	KUNIT_EXPECT_TRUE(test, sim_pkg_take_pmi(pkg, 5000, &core_sel, &wake));
	KUNIT_EXPECT_EQ(test, core_sel, 0x5);
	KUNIT_EXPECT_TRUE(test, wake);
	KUNIT_EXPECT_FALSE(test, sim_pkg_take_pmi(pkg, 5000, &core_sel, &wake));
	KUNIT_EXPECT_EQ(test, pkg->stats.overflows, 1);
	KUNIT_EXPECT_EQ(test, pkg->stats.rsvd_writes, 0);
}

/* No ov_en (or a CBo, which has none): status only, no message, no freeze. */
static void sim_test_overflow_no_ov_en(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);

	wr(test, pkg, 0, GCTL, 0x1);
	wr(test, pkg, 0, U_CTR(1), TOP - 1);
	wr(test, pkg, 0, U_CTL(1), EV(0x42, 0x08));
	wr(test, pkg, 0, CBO(1, BOX_CTL), UNFRZ);
	wr(test, pkg, 0, CBO(1, CBO_CTR(2)), TOP - 100);
	wr(test, pkg, 0, CBO(1, CTL(2)), EV(0, 0));

	KUNIT_EXPECT_EQ(test, uinj(pkg, 0, 2), 1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 1000, SIM_MSR_U_BOX_STATUS), BIT(1));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 1000, CBO(1, CBO_STATUS)), BIT(2));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 1000, GSTS), 0);
	KUNIT_EXPECT_FALSE(test, pkg->freeze_pending);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 5000, CBO(1, CBO_CTR(2))), 9900);
	KUNIT_EXPECT_FALSE(test, pkg->global_frozen);
	KUNIT_EXPECT_EQ(test, pkg->stats.overflows, 2);
	KUNIT_EXPECT_EQ(test, pkg->stats.freezes, 0);
	KUNIT_EXPECT_FALSE(test, pkg->pmi_pending);
}

/*
 * A new freeze needs both the box and the global bit cleared: with either
 * still set an overflow sends nothing new. unfrz_all then lets the next
 * overflow freeze again.
 */
static void sim_test_overflow_rearm(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);

	wr(test, pkg, 0, U_CTR(0), TOP - 1);
	wr(test, pkg, 0, U_CTL(0), UEV);
	uinj(pkg, 0, 1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 2000, GSTS), OV_U);
	KUNIT_EXPECT_TRUE(test, pkg->global_frozen);
	KUNIT_EXPECT_EQ(test, pkg->stats.freezes, 1);

	/* Box bit cleared, global bit still set: no new freeze. */
	wr(test, pkg, 2000, SIM_MSR_U_BOX_STATUS, BIT(0));
	wr(test, pkg, 2000, U_CTR(0), TOP - 1);
	wr(test, pkg, 2000, GCTL, SIM_GCTL_UNFRZ_ALL);
	KUNIT_EXPECT_EQ(test, uinj(pkg, 2000, 1), 1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 9000, SIM_MSR_U_BOX_STATUS),
			BIT(0));
	KUNIT_EXPECT_FALSE(test, pkg->freeze_pending);
	KUNIT_EXPECT_FALSE(test, pkg->global_frozen);

	/* Global bit cleared, box bit still set: still nothing. */
	wr(test, pkg, 9000, GSTS, OV_U);
	wr(test, pkg, 9000, U_CTR(0), TOP - 1);
	KUNIT_EXPECT_EQ(test, uinj(pkg, 9000, 1), 1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 9000, GSTS), 0);
	KUNIT_EXPECT_FALSE(test, pkg->freeze_pending);

	/* Both cleared: the next overflow freezes again. */
	wr(test, pkg, 9000, SIM_MSR_U_BOX_STATUS, BIT(0));
	wr(test, pkg, 9000, U_CTR(0), TOP - 1);
	KUNIT_EXPECT_EQ(test, uinj(pkg, 9000, 1), 1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 9000, GSTS), OV_U);
	KUNIT_EXPECT_TRUE(test, pkg->freeze_pending);
	KUNIT_EXPECT_EQ(test, uinj(pkg, 9999, 1), 1);
	KUNIT_EXPECT_EQ(test, uinj(pkg, 10000, 1), 0);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 10000, U_CTR(0)), 1);
	KUNIT_EXPECT_TRUE(test, pkg->global_frozen);
	KUNIT_EXPECT_EQ(test, pkg->stats.freezes, 2);
	KUNIT_EXPECT_EQ(test, pkg->stats.overflows, 4);
	/* pmi_core_sel = 0: frozen, but no PMI owed. */
	KUNIT_EXPECT_FALSE(test, pkg->pmi_pending);
}

/*
 * A second overflow message from another group while a freeze is already
 * on its way sets its bit but brings no second freeze.
 */
static void sim_test_overflow_second_group(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);

	wr(test, pkg, 0, PCU(BOX_CTL), UNFRZ);
	wr(test, pkg, 0, PCU(PCU_CTR(1)), TOP - 1);
	wr(test, pkg, 0, PCU(CTL(1)), EV(0x0b, 0) | SIM_CTL_OV_EN);
	wr(test, pkg, 0, U_CTR(0), TOP - 1);
	wr(test, pkg, 0, U_CTL(0), UEV);
	uinj(pkg, 100, 1);
	KUNIT_EXPECT_EQ(test, pkg->freeze_at, 100 + FREEZE_DELAY);
	inject(pkg, 600, SIM_PCU, 0, 0x0b, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 600, GSTS),
			OV_U | BIT(SIM_GSTS_OV_P));
	KUNIT_EXPECT_EQ(test, pkg->freeze_at, 100 + FREEZE_DELAY);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 5000, PCU(PCU_STATUS)), BIT(1));
	KUNIT_EXPECT_EQ(test, pkg->stats.freezes, 1);
}

/* A burst of 3.5 periods past a preload of 2^48 - P wraps once: 2.5 P. */
static void sim_test_overflow_burst(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);
	const u64 p = 1000000;

	wr(test, pkg, 0, U_CTR(0), TOP - p);
	wr(test, pkg, 0, U_CTL(0), UEV);
	KUNIT_EXPECT_EQ(test, uinj(pkg, 0, p * 7 / 2), 1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 0, U_CTR(0)), p * 5 / 2);
	KUNIT_EXPECT_EQ(test, pkg->ubox.ctr[0].total, p * 7 / 2);
	KUNIT_EXPECT_EQ(test, pkg->stats.overflows, 1);
	KUNIT_EXPECT_TRUE(test, pkg->freeze_pending);
}

/*
 * Fixed counters: the UBox one (ov_u_fixed; it has no box status bit) and
 * an iMC channel's DCLK counter (box status bit 4, ov_m1 for iMC1). A
 * clock-driven overflow is dated at the end of the advance that found it.
 */
static void sim_test_overflow_fixed(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);
	struct sim_box *imc = &pkg->imc[4];

	wr(test, pkg, 0, SIM_MSR_U_FIXED_CTR, TOP - 2000);
	wr(test, pkg, 0, SIM_MSR_U_FIXED_CTL,
	   SIM_FIXED_CTL_EN | SIM_FIXED_CTL_OV_EN);
	/* The carry is at 1000 ns; the advance to 3000 ns finds it. */
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 3000, SIM_MSR_U_FIXED_CTR), 4000);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 3000, GSTS),
			BIT(SIM_GSTS_OV_U_FIXED));
	KUNIT_EXPECT_EQ(test, pkg->freeze_at, 3000 + FREEZE_DELAY);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 9000, SIM_MSR_U_FIXED_CTR), 6000);
	KUNIT_EXPECT_TRUE(test, pkg->global_frozen);

	wr(test, pkg, 9000, GSTS, BIT(SIM_GSTS_OV_U_FIXED));
	wr(test, pkg, 9000, SIM_MSR_U_FIXED_CTL, 0);
	wr(test, pkg, 9000, GCTL, SIM_GCTL_UNFRZ_ALL | 0x2);
	pwr(test, pkg, 9000, imc, SIM_PCI_FN_PMON, 0xd4, 0xffff);
	pwr(test, pkg, 9000, imc, SIM_PCI_FN_PMON, 0xd0, 0xffffffff);
	pwr(test, pkg, 9000, imc, SIM_PCI_FN_PMON, 0xf0,
	    SIM_FIXED_CTL_EN | SIM_FIXED_CTL_OV_EN);
	KUNIT_EXPECT_EQ(test, prd(test, pkg, 9001, imc, SIM_PCI_FN_PMON, 0xd0),
			0U);
	KUNIT_EXPECT_EQ(test, prd(test, pkg, 9001, imc, SIM_PCI_FN_PMON, 0xf8),
			(u32)BIT(4));
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 9001, GSTS),
			BIT(SIM_GSTS_OV_M0 + 1));
	KUNIT_EXPECT_EQ(test, pkg->freeze_at, 9001 + FREEZE_DELAY);
	KUNIT_EXPECT_EQ(test, pkg->stats.freezes, 1);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 20000, GSTS),
			BIT(SIM_GSTS_OV_M0 + 1));
	KUNIT_EXPECT_EQ(test, pkg->stats.freezes, 2);
	KUNIT_EXPECT_EQ(test, imc->fixed.val, FREEZE_DELAY * DCLK_HZ / 1000000000);
	KUNIT_EXPECT_TRUE(test, pkg->pmi_pending);
	KUNIT_EXPECT_EQ(test, pkg->pmi_core_sel, 0x2);
	KUNIT_EXPECT_FALSE(test, pkg->pmi_wake);
}

/*
 * take_pmi applies a freeze sim time has not reached (the sim clock can be
 * frozen); a zero delay freezes at the next access; frz_all freezes with
 * no PMI owed.
 */
static void sim_test_take_pmi(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);
	u32 core_sel = 0;
	bool wake = true;

	wr(test, pkg, 0, GCTL, 0x3ffff);
	wr(test, pkg, 0, U_CTR(0), TOP - 1);
	wr(test, pkg, 0, U_CTL(0), UEV);
	uinj(pkg, 500, 1);
	KUNIT_EXPECT_TRUE(test, sim_pkg_take_pmi(pkg, 500, &core_sel, &wake));
	KUNIT_EXPECT_EQ(test, core_sel, 0x3ffff);
	KUNIT_EXPECT_FALSE(test, wake);
	KUNIT_EXPECT_TRUE(test, pkg->global_frozen);
	KUNIT_EXPECT_EQ(test, uinj(pkg, 500, 1), 0);
	KUNIT_EXPECT_EQ(test, pkg->stats.frozen_drops, 1);

	/* Delay 0: the freeze is due at once; the next call applies it. */
	pkg->freeze_delay_ns = 0;
	wr(test, pkg, 500, GSTS, OV_U);
	wr(test, pkg, 500, SIM_MSR_U_BOX_STATUS, BIT(0));
	wr(test, pkg, 500, U_CTR(0), TOP - 1);
	wr(test, pkg, 500, GCTL, SIM_GCTL_UNFRZ_ALL | 0x1);
	KUNIT_EXPECT_EQ(test, uinj(pkg, 500, 1), 1);
	KUNIT_EXPECT_TRUE(test, pkg->freeze_pending);
	KUNIT_EXPECT_EQ(test, uinj(pkg, 500, 1), 0);
	KUNIT_EXPECT_TRUE(test, pkg->global_frozen);
	KUNIT_EXPECT_TRUE(test, sim_pkg_take_pmi(pkg, 500, &core_sel, &wake));
	KUNIT_EXPECT_EQ(test, core_sel, 0x1);

	/* frz_all: a software freeze, no PMI. */
	wr(test, pkg, 500, GCTL, SIM_GCTL_UNFRZ_ALL | 0x1);
	wr(test, pkg, 500, GCTL, SIM_GCTL_FRZ_ALL | 0x1);
	KUNIT_EXPECT_TRUE(test, pkg->global_frozen);
	KUNIT_EXPECT_FALSE(test, sim_pkg_take_pmi(pkg, 900, &core_sel, &wake));
	KUNIT_EXPECT_EQ(test, pkg->stats.freezes, 2);
	KUNIT_EXPECT_EQ(test, uinj(pkg, 900, 1), 0);
	KUNIT_EXPECT_EQ(test, pkg->stats.frozen_drops, 3);
}

/*
 * A clock-driven counter with ov_en carries with no access to tell the
 * model: sim_pkg_next_carry() says when, to the ns, for the PCU (PCLK),
 * the UBox fixed counter (UCLK) and a PCI box (HA, UCLK). A counter
 * without ov_en, or with a threshold, asks for nothing, nor does a package
 * with a freeze pending.
 */
static void sim_test_next_carry(struct kunit *test)
{
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);
	struct sim_box *ha = &pkg->ha[1];

	KUNIT_EXPECT_EQ(test, sim_pkg_next_carry(pkg), U64_MAX);
	/* 800 PCLK ticks from t = 1000 ns: the carry is at 2000 ns. */
	wr(test, pkg, 1000, PCU(BOX_CTL), UNFRZ);
	wr(test, pkg, 1000, PCU(PCU_CTR(0)), TOP - 800);
	wr(test, pkg, 1000, PCU(CTL(0)), EV(0x00, 0));
	KUNIT_EXPECT_EQ(test, sim_pkg_next_carry(pkg), U64_MAX);
	wr(test, pkg, 1000, PCU(CTL(0)), EV(0x00, 0) | THR(1) | SIM_CTL_OV_EN);
	KUNIT_EXPECT_EQ(test, sim_pkg_next_carry(pkg), U64_MAX);
	wr(test, pkg, 1000, PCU(CTL(0)), EV(0x00, 0) | SIM_CTL_OV_EN);
	KUNIT_EXPECT_EQ(test, sim_pkg_next_carry(pkg), 2000);

	/* UCLK 2 GHz: 1001 ticks from 1000 ns carry at 1500.5, found at 1501. */
	wr(test, pkg, 1000, SIM_MSR_U_FIXED_CTR, TOP - 1001);
	wr(test, pkg, 1000, SIM_MSR_U_FIXED_CTL,
	   SIM_FIXED_CTL_EN | SIM_FIXED_CTL_OV_EN);
	KUNIT_EXPECT_EQ(test, sim_pkg_next_carry(pkg), 1501);

	/* HA CLOCKTICKS on counter 0 (0xa0/0xa4, control 0xd8). */
	pwr(test, pkg, 1000, ha, PMON, 0xf4, UNFRZ);
	pwr(test, pkg, 1000, ha, PMON, 0xa4, 0xffff);
	pwr(test, pkg, 1000, ha, PMON, 0xa0, 0xffffffff - 99);
	pwr(test, pkg, 1000, ha, PMON, 0xd8, EV(0, 0) | SIM_CTL_OV_EN);
	KUNIT_EXPECT_EQ(test, sim_pkg_next_carry(pkg), 1050);

	/* Exact: one ns before, nothing; at the time, the freeze. */
	rd(test, pkg, 1049, GSTS);
	KUNIT_EXPECT_FALSE(test, pkg->freeze_pending);
	KUNIT_EXPECT_EQ(test, rd(test, pkg, 1050, GSTS),
			BIT(SIM_GSTS_OV_H0 + 1));
	KUNIT_EXPECT_TRUE(test, pkg->freeze_pending);
	KUNIT_EXPECT_EQ(test, sim_pkg_next_carry(pkg), U64_MAX);
	KUNIT_EXPECT_EQ(test, pkg->stats.rsvd_writes, 0);
}

/*
 * Freeze-window accounting: the driver's arithmetic (drivers/uncore/core/logic.c)
 * run as its PMI handler runs it, on the model. A UBox event sampled at
 * period 100 counts on between its overflow and the freeze: those counts
 * belong to the next period. While the package is frozen nothing counts;
 * the counting events beside it (the UBox fixed counter, PCU CLOCKTICKS)
 * hold exactly the clock ticks of the time the package ran.
 */
static void sim_test_freeze_window(struct kunit *test)
{
	static const u64 bursts[] = { 99, 2, 350, 7, 1000, 43, 100, 299, 3 };
	struct sim_pkg *pkg = new_pkg(test, CAPID4_SBO);
	const u64 period = 100, round = 10000;
	u64 counted = 0, samples = 0, ran = 0, drops = 0, prev;
	s64 left = period, next;
	unsigned int i;

	wr(test, pkg, 0, SIM_MSR_U_FIXED_CTL, SIM_FIXED_CTL_EN);
	wr(test, pkg, 0, PCU(BOX_CTL), UNFRZ);
	wr(test, pkg, 0, PCU(CTL(1)), EV(0, 0));
	prev = uncore_preload(left, 48);
	wr(test, pkg, 0, U_CTR(0), prev);
	wr(test, pkg, 0, U_CTL(0), UEV);

	for (i = 0; i < ARRAY_SIZE(bursts); i++) {
		u64 t = i * round, h = t + 3000, a = bursts[i] / 2, v;
		u64 frozen_at = 0, gsts, bsts;

		/* Half the burst, the rest halfway into the freeze delay. */
		KUNIT_EXPECT_EQ(test, uinj(pkg, t, a), 1);
		KUNIT_EXPECT_EQ(test, uinj(pkg, t + FREEZE_DELAY / 2,
					   bursts[i] - a), 1);
		counted += bursts[i];
		if (pkg->freeze_pending) {
			frozen_at = pkg->freeze_at;
			/* Frozen by now: these are lost to every counter. */
			KUNIT_EXPECT_EQ(test, uinj(pkg, h - 500, 5), 0);
			KUNIT_EXPECT_EQ(test, pkg->stats.frozen_drops, ++drops);
		}
		gsts = rd(test, pkg, h, GSTS);
		bsts = rd(test, pkg, h, SIM_MSR_U_BOX_STATUS);
		KUNIT_EXPECT_EQ(test, gsts, frozen_at ? OV_U : 0);
		KUNIT_EXPECT_EQ(test, bsts, frozen_at ? BIT(0) : 0);

		/* The handler, or a poll when nothing overflowed. */
		v = rd(test, pkg, h, U_CTR(0));
		left -= uncore_delta(prev, v, 48);
		samples += uncore_samples_due(left, period, &next);
		left = next;
		prev = v;
		if (frozen_at) {
			prev = uncore_preload(left, 48);
			wr(test, pkg, h, U_CTR(0), prev);
			wr(test, pkg, h, SIM_MSR_U_BOX_STATUS, bsts);
			wr(test, pkg, h, GSTS, gsts);
			wr(test, pkg, h, GCTL, SIM_GCTL_UNFRZ_ALL);
		}
		KUNIT_EXPECT_EQ(test, samples, div64_u64(counted, period));
		KUNIT_EXPECT_EQ(test, (u64)left, period - counted % period);

		ran += round - (frozen_at ? h - frozen_at : 0);
		KUNIT_EXPECT_EQ(test, rd(test, pkg, t + round, SIM_MSR_U_FIXED_CTR),
				ran * 2);
		KUNIT_EXPECT_EQ(test, rd(test, pkg, t + round, PCU(PCU_CTR(1))),
				ran * 4 / 5);
	}
	/* Overflows in the first half and in the window both happened. */
	KUNIT_EXPECT_EQ(test, pkg->stats.freezes, 6);
	KUNIT_EXPECT_EQ(test, pkg->stats.rsvd_writes, 0);
}

static struct kunit_case bdx_regs_cases[] = {
	KUNIT_CASE(sim_test_enable_hierarchy),
	KUNIT_CASE(sim_test_rst),
	KUNIT_CASE(sim_test_wrap_and_rw1c),
	KUNIT_CASE(sim_test_counter_widths),
	KUNIT_CASE(sim_test_threshold),
	KUNIT_CASE(sim_test_cbo_filters),
	KUNIT_CASE(sim_test_pcu),
	KUNIT_CASE(sim_test_sbo_write_twice),
	KUNIT_CASE(sim_test_absent_boxes),
	KUNIT_CASE(sim_test_pci_boxes),
	KUNIT_CASE(sim_test_pci_match),
	KUNIT_CASE(sim_test_overflow_freeze),
	KUNIT_CASE(sim_test_overflow_no_ov_en),
	KUNIT_CASE(sim_test_overflow_rearm),
	KUNIT_CASE(sim_test_overflow_second_group),
	KUNIT_CASE(sim_test_overflow_burst),
	KUNIT_CASE(sim_test_overflow_fixed),
	KUNIT_CASE(sim_test_take_pmi),
	KUNIT_CASE(sim_test_next_carry),
	KUNIT_CASE(sim_test_freeze_window),
	{}
};

static struct kunit_suite bdx_regs_suite = {
	.name = "uncore_sim_bdx_regs",
	.test_cases = bdx_regs_cases,
};

kunit_test_suite(bdx_regs_suite);

MODULE_DESCRIPTION("KUnit tests for the uncore_sim Broadwell register model");
MODULE_LICENSE("GPL");
