// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the simulator's Xeon 7500 (Nehalem-EX) uncore registers
 * (drivers/sim/nhmex/nhmex_regs.c): the three-level enable and rst_all,
 * the MSR map (interleaved C-Boxes, R-Box sub-registers), what each box's
 * events match, threshold/invert/edge, the fixed counter's clock, overflow up
 * the summary tree to freeze and PMI, the freeze's skew (pending for
 * freeze_delay_ns of sim time, counting meanwhile), and the PMI taken for
 * delivery and handled as the driver does. MSR numbers are spelled out here
 * rather than taken from the model, so a wrong map in it shows.
 */
#include <kunit/test.h>

#include "../../drivers/sim/nhmex/nhmex_regs.c"

#define U_GCTL		0xc00
#define U_GSTS		0xc01
#define U_OVF		0xc02
#define U_EVSEL		0xc10
#define U_CTR		0xc11
#define C0		0xd00
#define C1		0xd80
#define C3		0xdc0
#define B0		0xc20
#define B1		0xc60
#define B0_MATCH	0xe45
#define B0_MASK		0xe46
#define S0		0xc40
#define S1		0xcc0
#define S0_MM_CFG	0xe48
#define S0_MATCH	0xe49
#define S0_MASK		0xe4a
#define M0		0xca0
#define M0_MM_CFG	0xe54
#define M0_ADDR_MATCH	0xe55
#define M0_ADDR_MASK	0xe56
#define W		0xc80
#define W_FIXED_CTR	0x394
#define W_FIXED_CTL	0x395
#define R_L		0xe00
#define R_R		0xe20

/* Box block offsets: GLOBAL_CTL, STATUS, OVF_CTL; counter i. */
#define GCTL(b)		(b)
#define GSTS(b)		((b) + 1)
#define OVF(b)		((b) + 2)
#define CTL(b, i)	((b) + 0x10 + 2 * (i))
#define CTR(b, i)	((b) + 0x11 + 2 * (i))

#define EN_ALL		BIT_ULL(28)
#define RST_ALL		BIT_ULL(29)
#define FRZ_ALL		BIT_ULL(31)
#define U_EN		BIT_ULL(0)
#define CORE_SEL(m)	((u64)(m) << 1)
#define PMI		BIT_ULL(30)

/* C/S/W/U control: ev_sel, umask, edge, pmi_en, en, invert, threshold. */
#define CSW(ev, um)	((u64)(ev) | (u64)(um) << 8 | BIT_ULL(22))
#define EDGE		BIT_ULL(18)
#define PMI_EN		BIT_ULL(20)
#define INVERT		BIT_ULL(23)
#define THRESH(t)	((u64)(t) << 24)
/* B and R control: en bit 0, ev_sel 5:1. */
#define BR(ev)		(BIT_ULL(0) | (u64)(ev) << 1)
/* M control: en 0, flag_mode 7, inc_sel 13:9, set_flag_sel 21:19. */
#define M_INC(s)	(BIT_ULL(0) | (u64)(s) << 9)
#define M_FLAG(s)	(BIT_ULL(0) | BIT_ULL(7) | (u64)(s) << 19)

#define TOP		(BIT_ULL(48) - 1)
#define HZ_TEST		2400000000ULL

static struct nhmex_pkg *nx_new(struct kunit *test)
{
	struct nhmex_pkg *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	nhmex_pkg_init(p, 0, HZ_TEST, 0);
	return p;
}

static void wr(struct kunit *test, struct nhmex_pkg *p, u32 msr, u64 v)
{
	KUNIT_ASSERT_EQ(test, nhmex_reg_access(p, 0, msr, &v, true), 0);
}

static u64 rd(struct kunit *test, struct nhmex_pkg *p, u32 msr)
{
	u64 v;

	KUNIT_ASSERT_EQ(test, nhmex_reg_access(p, 0, msr, &v, false), 0);
	return v;
}

/* One line of C/S/W (or U) events; returns the counters that matched. */
static int inj(struct nhmex_pkg *p, enum nhmex_box_type t, unsigned int idx,
	       u8 ev, u8 umask, u64 count, u64 inc)
{
	struct nhmex_event e = {
		.type = t, .idx = idx, .event = ev, .umask = umask,
		.count = count, .inc = inc,
	};

	return nhmex_inject(p, 0, &e);
}

/* Each of en, ctr_en and en_all alone missing stops the counter. */
static void nhmex_test_three_level(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);

	wr(test, p, CTL(C0, 2), CSW(0x14, 0));
	wr(test, p, GCTL(C0), BIT(2));
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 0, 0x14, 0, 5, 1), 0);
	KUNIT_EXPECT_EQ(test, p->stats.dropped, 5ULL);

	wr(test, p, U_GCTL, EN_ALL);
	wr(test, p, GCTL(C0), BIT(1));
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 0, 0x14, 0, 5, 1), 0);
	wr(test, p, GCTL(C0), BIT(2));
	wr(test, p, CTL(C0, 2), CSW(0x14, 0) & ~BIT_ULL(22));
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 0, 0x14, 0, 5, 1), 0);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(C0, 2)), 0ULL);

	wr(test, p, CTL(C0, 2), CSW(0x14, 0));
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 0, 0x14, 0, 5, 1), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(C0, 2)), 5ULL);
	KUNIT_EXPECT_EQ(test, p->cbox[0].ctr[2].total, 5ULL);

	/* The U counter's middle level is u_en in U GLOBAL_CTL. */
	wr(test, p, U_EVSEL, CSW(0x50, 0) & ~GENMASK_ULL(15, 8));
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_UBOX, 0, 0x50, 0, 3, 1), 0);
	wr(test, p, U_GCTL, EN_ALL | U_EN);
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_UBOX, 0, 0x50, 0, 3, 1), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, U_CTR), 3ULL);
}

/* rst_all zeroes everything once and holds it at 0 while set. */
static void nhmex_test_rst_all(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);

	wr(test, p, CTL(C0, 0), CSW(0x14, 0));
	wr(test, p, GCTL(C0), BIT(0));
	wr(test, p, U_GCTL, EN_ALL);
	inj(p, NHMEX_CBOX, 0, 0x14, 0, 7, 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(C0, 0)), 7ULL);

	wr(test, p, U_GCTL, EN_ALL | RST_ALL);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(C0, 0)), 0ULL);
	KUNIT_EXPECT_EQ(test, p->cbox[0].ctr[0].total, 0ULL);
	KUNIT_EXPECT_FALSE(test, nhmex_ctr_counting(p, &p->cbox[0], 0));
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 0, 0x14, 0, 7, 1), 0);

	/* A preload while held is kept and shows once rst_all drops. */
	wr(test, p, CTR(C0, 0), 0x100);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(C0, 0)), 0ULL);
	wr(test, p, U_GCTL, EN_ALL);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(C0, 0)), 0x100ULL);
	inj(p, NHMEX_CBOX, 0, 0x14, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(C0, 0)), 0x101ULL);
	KUNIT_EXPECT_EQ(test, p->cbox[0].ctr[0].total, 1ULL);
}

/* C-Box n is at the n-th of the interleaved bases, not 0xD00 + 0x20n. */
static void nhmex_test_cbox_bases(struct kunit *test)
{
	static const u32 base[] = {
		0xd00, 0xd80, 0xd40, 0xdc0, 0xd20, 0xda0, 0xd60, 0xde0,
	};
	struct nhmex_pkg *p = nx_new(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(base); i++) {
		wr(test, p, GCTL(base[i]), BIT(i % NHMEX_CBOX_CTRS));
		wr(test, p, CTL(base[i], 5), CSW(i + 1, 0));
	}
	for (i = 0; i < ARRAY_SIZE(base); i++) {
		KUNIT_EXPECT_EQ(test, p->cbox[i].ctl, (u32)BIT(i % NHMEX_CBOX_CTRS));
		KUNIT_EXPECT_EQ(test, p->cbox[i].ctr[5].ctl, CSW(i + 1, 0));
	}
	wr(test, p, U_GCTL, EN_ALL);
	wr(test, p, GCTL(C1), BIT(5));
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 1, 2, 0, 4, 1), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(C1, 5)), 4ULL);
	/* Six counters: base + 0x1C is past the last. */
	KUNIT_EXPECT_FALSE(test, nhmex_msr_exists(p, C1 + 0x1c));
	KUNIT_EXPECT_TRUE(test, nhmex_msr_exists(p, C1 + 0x1b));
}

/* Threshold, invert and edge detect on a C-Box counter (000:461-467). */
static void nhmex_test_threshold(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);
	struct nhmex_ctr *c = &p->cbox[2].ctr[0];
	const u32 base = 0xd40;

	wr(test, p, U_GCTL, EN_ALL);
	wr(test, p, GCTL(base), BIT(0));

	wr(test, p, CTL(base, 0), CSW(0x18, 1));
	inj(p, NHMEX_CBOX, 2, 0x18, 1, 4, 3);
	KUNIT_EXPECT_EQ(test, c->total, 12ULL);

	wr(test, p, CTL(base, 0), CSW(0x18, 1) | THRESH(3));
	inj(p, NHMEX_CBOX, 2, 0x18, 1, 10, 5);	/* 10 cycles >= 3 */
	inj(p, NHMEX_CBOX, 2, 0x18, 1, 10, 2);	/* none */
	inj(p, NHMEX_CBOX, 2, 0x18, 1, 10, 3);	/* equal counts */
	KUNIT_EXPECT_EQ(test, c->total, 32ULL);

	wr(test, p, CTL(base, 0), CSW(0x18, 1) | THRESH(3) | INVERT);
	inj(p, NHMEX_CBOX, 2, 0x18, 1, 10, 5);
	inj(p, NHMEX_CBOX, 2, 0x18, 1, 7, 2);
	KUNIT_EXPECT_EQ(test, c->total, 39ULL);

	/* Edge: rising edges of the condition, carried across lines. */
	wr(test, p, CTL(base, 0), CSW(0x18, 1) | THRESH(3) | EDGE);
	inj(p, NHMEX_CBOX, 2, 0x18, 1, 10, 5);	/* rise */
	inj(p, NHMEX_CBOX, 2, 0x18, 1, 10, 5);	/* still high */
	inj(p, NHMEX_CBOX, 2, 0x18, 1, 10, 1);	/* low */
	inj(p, NHMEX_CBOX, 2, 0x18, 1, 10, 4);	/* rise */
	KUNIT_EXPECT_EQ(test, c->total, 41ULL);

	/* Without a threshold edge counts inc != 0 rising. */
	wr(test, p, CTL(base, 0), CSW(0x18, 1) | EDGE);
	inj(p, NHMEX_CBOX, 2, 0x18, 1, 4, 3);
	inj(p, NHMEX_CBOX, 2, 0x18, 1, 4, 0);
	inj(p, NHMEX_CBOX, 2, 0x18, 1, 4, 1);
	KUNIT_EXPECT_EQ(test, c->total, 43ULL);

	/* umask: any common bit, or both 0. */
	wr(test, p, CTL(base, 0), CSW(0x18, 0x6));
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 2, 0x18, 0x4, 1, 1), 1);
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 2, 0x18, 0x1, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 2, 0x18, 0, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 2, 0x19, 0x4, 1, 1), 0);
}

static int inj_b(struct nhmex_pkg *p, unsigned int idx, unsigned int ctr,
		 u8 ev, bool has_pkt, u64 pkt)
{
	struct nhmex_event e = {
		.type = NHMEX_BBOX, .idx = idx, .ctr = ctr, .event = ev,
		.has_pkt = has_pkt, .pkt = pkt, .count = 1, .inc = 1,
	};

	return nhmex_inject(p, 0, &e);
}

/* B events are (counter, code); match events also need the packet. */
static void nhmex_test_bbox_match(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);

	wr(test, p, U_GCTL, EN_ALL);
	wr(test, p, GCTL(B0), 0xf);
	wr(test, p, CTL(B0, 1), BR(0x02));	/* ctr1 0x02: a match event */
	wr(test, p, CTL(B0, 3), BR(0x02));	/* ctr3 0x02: EARLY_ACK */
	wr(test, p, B0_MATCH, 0x1234);
	wr(test, p, B0_MASK, 0xff0f);

	KUNIT_EXPECT_EQ(test, inj_b(p, 0, 1, 0x02, true, 0x12f4), 1);
	KUNIT_EXPECT_EQ(test, inj_b(p, 0, 1, 0x02, true, 0x1334), 0);
	KUNIT_EXPECT_EQ(test, inj_b(p, 0, 1, 0x02, false, 0), 0);
	KUNIT_EXPECT_EQ(test, inj_b(p, 0, 3, 0x02, false, 0), 1);
	KUNIT_EXPECT_EQ(test, inj_b(p, 0, 2, 0x02, false, 0), 0);
	KUNIT_EXPECT_EQ(test, p->bbox[0].ctr[1].total, 1ULL);
	KUNIT_EXPECT_EQ(test, p->bbox[0].ctr[3].total, 1ULL);

	/* MATCH bits 63:60 are reserved. */
	wr(test, p, B0_MATCH, BIT_ULL(63) | 1);
	KUNIT_EXPECT_EQ(test, p->stats.rsvd_writes, 1ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, B0_MATCH), 1ULL);
	/* B1's pair; the B-Box has no MM_CFG. */
	wr(test, p, 0xe4d, 5);
	KUNIT_EXPECT_EQ(test, p->bbox[1].mm[NHMEX_MM_MATCH], 5ULL);
	KUNIT_EXPECT_FALSE(test, nhmex_msr_exists(p, 0xe44));
}

static int inj_s(struct nhmex_pkg *p, u64 pkt)
{
	struct nhmex_event e = {
		.type = NHMEX_SBOX, .idx = 0, .event = 0, .has_pkt = true,
		.pkt = pkt, .count = 1, .inc = 1,
	};

	return nhmex_inject(p, 0, &e);
}

/* S MATCH/MASK fault while MM_CFG[63] is set; TO_R_PROG_EV matching. */
static void nhmex_test_sbox_match(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);
	u64 v = 0x77;

	wr(test, p, U_GCTL, EN_ALL);
	wr(test, p, GCTL(S0), BIT(0));
	wr(test, p, CTL(S0, 0), CSW(0x00, 0));
	wr(test, p, S0_MATCH, 0x1000);
	wr(test, p, S0_MASK, 0x00ff);
	KUNIT_EXPECT_EQ(test, inj_s(p, 0x1000), 0);	/* MM_CFG[63] = 0 */

	wr(test, p, S0_MM_CFG, BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, nhmex_reg_access(p, 0, S0_MATCH, &v, true), -EIO);
	KUNIT_EXPECT_EQ(test, nhmex_reg_access(p, 0, S0_MASK, &v, true), -EIO);
	KUNIT_EXPECT_EQ(test, p->stats.gp_mm, 2ULL);
	KUNIT_EXPECT_EQ(test, p->stats.faults, 0ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, S0_MATCH), 0x1000ULL);

	KUNIT_EXPECT_EQ(test, inj_s(p, 0x10a5), 1);	/* masked bits */
	KUNIT_EXPECT_EQ(test, inj_s(p, 0x1100), 0);
	/* Bits 63:39 ignored while MATCH holds 0 there. */
	KUNIT_EXPECT_EQ(test, inj_s(p, BIT_ULL(45) | 0x1000), 1);

	wr(test, p, S0_MM_CFG, 0);
	wr(test, p, S0_MATCH, BIT_ULL(45) | 0x1000);
	wr(test, p, S0_MM_CFG, BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, inj_s(p, 0x1000), 0);
	KUNIT_EXPECT_EQ(test, inj_s(p, BIT_ULL(45) | 0x1000), 1);
	KUNIT_EXPECT_EQ(test, p->sbox[0].ctr[0].total, 3ULL);

	/* reset_occ_cnt (17) recorded from the write that enables. */
	wr(test, p, CTL(S0, 1), CSW(0x05, 1) | BIT_ULL(17));
	KUNIT_EXPECT_TRUE(test, p->sbox[0].ctr[1].occ_reset);
	wr(test, p, CTL(S0, 1), 0);
	KUNIT_EXPECT_TRUE(test, p->sbox[0].ctr[1].occ_reset);
	wr(test, p, CTL(S0, 1), CSW(0x05, 1));
	KUNIT_EXPECT_FALSE(test, p->sbox[0].ctr[1].occ_reset);
}

/* One queue occupancy line on S-Box 0: @enq in, @deq out, @count cycles. */
static int inj_occ(struct nhmex_pkg *p, u8 ev, u8 enq, u8 deq, u64 count)
{
	struct nhmex_event e = {
		.type = NHMEX_SBOX, .event = ev, .umask = 1, .occ_line = true,
		.enq = enq, .deq = deq, .count = count,
	};

	return nhmex_inject(p, 0, &e);
}

/*
 * The 7-bit tally of each counter adds its value every cycle; the queue
 * moves it only while the counter counts, and only reset_occ_cnt in the
 * enabling write clears it: without, a stale tally joins the count.
 */
static void nhmex_test_sbox_occupancy(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);

	wr(test, p, U_GCTL, EN_ALL);
	wr(test, p, GCTL(S0), BIT(0) | BIT(1));
	wr(test, p, CTL(S0, 0), CSW(0x07, 1) | BIT_ULL(17));
	KUNIT_EXPECT_EQ(test, inj_occ(p, 0x07, 5, 0, 10), 1);
	KUNIT_EXPECT_EQ(test, inj_occ(p, 0x07, 0, 2, 100), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(S0, 0)), 5ULL * 10 + 3 * 100);
	KUNIT_EXPECT_EQ(test, p->sbox[0].ctr[0].occ, 3);

	/* Disabled: the queue no longer moves this counter's tally. */
	wr(test, p, CTL(S0, 0), 0);
	KUNIT_EXPECT_EQ(test, inj_occ(p, 0x07, 9, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, p->sbox[0].ctr[0].occ, 3);

	/* Enabled again without the reset: the stale 3 counts. */
	wr(test, p, CTR(S0, 0), 0);
	wr(test, p, CTL(S0, 0), CSW(0x07, 1));
	KUNIT_EXPECT_EQ(test, inj_occ(p, 0x07, 1, 0, 10), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(S0, 0)), 40ULL);

	/* With it, the tally starts from 0; below 0 it wraps in 7 bits. */
	wr(test, p, CTR(S0, 0), 0);
	wr(test, p, CTL(S0, 0), CSW(0x07, 1) | BIT_ULL(17));
	KUNIT_EXPECT_EQ(test, inj_occ(p, 0x07, 2, 0, 10), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(S0, 0)), 20ULL);
	KUNIT_EXPECT_EQ(test, inj_occ(p, 0x07, 0, 3, 1), 1);
	KUNIT_EXPECT_EQ(test, p->sbox[0].ctr[0].occ, 127);

	/* Threshold: cycles with at least 4 entries. */
	wr(test, p, CTR(S0, 1), 0);
	wr(test, p, CTL(S0, 1), CSW(0x0a, 1) | THRESH(4) | BIT_ULL(17));
	KUNIT_EXPECT_EQ(test, inj_occ(p, 0x0a, 3, 0, 7), 1);
	KUNIT_EXPECT_EQ(test, inj_occ(p, 0x0a, 1, 0, 11), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(S0, 1)), 11ULL);
}

static int inj_r(struct nhmex_pkg *p, unsigned int port,
		 enum nhmex_r_kind kind, u64 val)
{
	struct nhmex_event e = {
		.type = NHMEX_RBOX, .port = port, .rkind = kind, .rval = val,
		.count = 1, .inc = 1,
	};

	return nhmex_inject(p, 0, &e);
}

/* The R ev_sel picks a port of the counter's half and a sub-register. */
static void nhmex_test_rbox_select(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);
	unsigned int k, h;

	wr(test, p, U_GCTL, EN_ALL);
	/* Port 1 (left) and port 5 (right) alike: k = 0..5 on ctr k. */
	for (h = 0; h < 2; h++) {
		u32 base = h ? R_R : R_L;

		wr(test, p, GCTL(base), 0x3f);
		for (k = 0; k < 6; k++)
			wr(test, p, CTL(base, k), BR(6 * 1 + k));
	}
	wr(test, p, 0xe04 + 1, BIT(31));	/* port 1 IPERF_CFG0 */
	wr(test, p, 0xe24 + 1, BIT(30));	/* port 1 IPERF_CFG1 */
	wr(test, p, 0xe0c + 1, 0x0a05);		/* port 1 QLX */
	wr(test, p, 0xe60 + 4 * 1, BIT(21));	/* set 1: trig */
	wr(test, p, 0xe61 + 4 * 1, 0x1000);
	wr(test, p, 0xe62 + 4 * 1, 0xf000);
	wr(test, p, 0xe70 + 4 * 1, BIT_ULL(63) | BIT(21));	/* set 2: dis */
	wr(test, p, 0xe05 + 4, BIT(26));	/* port 5 IPERF_CFG0 */
	wr(test, p, 0xe2c + 1, 0x0300);		/* port 5 QLX */
	wr(test, p, 0xe90 + 4 * 1, BIT(21));	/* port 5 set 2 */

	KUNIT_EXPECT_EQ(test, inj_r(p, 1, NHMEX_R_IPERF, BIT(31) | BIT(0)), 1);
	KUNIT_EXPECT_EQ(test, inj_r(p, 1, NHMEX_R_IPERF, BIT(30)), 1);
	KUNIT_EXPECT_EQ(test, inj_r(p, 1, NHMEX_R_QLX, 0x05), 1);
	KUNIT_EXPECT_EQ(test, inj_r(p, 1, NHMEX_R_QLX, 0x0a), 1);
	KUNIT_EXPECT_EQ(test, inj_r(p, 1, NHMEX_R_XBR, 0x1abc), 1);
	KUNIT_EXPECT_EQ(test, inj_r(p, 1, NHMEX_R_XBR, 0x2abc), 0);
	for (k = 0; k < 6; k++)
		KUNIT_EXPECT_EQ(test, p->rbox[0].ctr[k].total, k == 5 ? 0ULL : 1ULL);

	KUNIT_EXPECT_EQ(test, inj_r(p, 5, NHMEX_R_IPERF, BIT(26)), 1);
	KUNIT_EXPECT_EQ(test, inj_r(p, 5, NHMEX_R_QLX, 0x03), 1);
	KUNIT_EXPECT_EQ(test, inj_r(p, 5, NHMEX_R_XBR, 0), 1);
	KUNIT_EXPECT_EQ(test, p->rbox[1].ctr[0].total, 1ULL);
	KUNIT_EXPECT_EQ(test, p->rbox[1].ctr[3].total, 1ULL);
	KUNIT_EXPECT_EQ(test, p->rbox[1].ctr[5].total, 1ULL);
	KUNIT_EXPECT_EQ(test, p->rbox[0].ctr[0].total, 1ULL);
	/* Port 3's selects are not port 1's. */
	KUNIT_EXPECT_EQ(test, inj_r(p, 3, NHMEX_R_IPERF, U32_MAX), 0);

	/* Reserved and ignored sub-register bits. */
	wr(test, p, 0xe0c, BIT(20) | 1);
	KUNIT_EXPECT_EQ(test, p->stats.rsvd_writes, 1ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, 0xe0c), 1ULL);
	wr(test, p, 0xe61, BIT_ULL(60) | 0x1000);
	KUNIT_EXPECT_EQ(test, p->stats.rsvd_writes, 2ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, 0xe61), 0x1000ULL);
	KUNIT_EXPECT_FALSE(test, nhmex_msr_exists(p, 0xe63));
	KUNIT_EXPECT_FALSE(test, nhmex_msr_exists(p, 0xe03));
	KUNIT_EXPECT_TRUE(test, nhmex_msr_exists(p, 0xe9e));
	KUNIT_EXPECT_FALSE(test, nhmex_msr_exists(p, 0xea0));
}

/* ev_sel 0x18-0x1F selects nothing; the write is counted. */
static void nhmex_test_rbox_illegal(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);

	wr(test, p, U_GCTL, EN_ALL);
	wr(test, p, GCTL(R_L), BIT(7));
	wr(test, p, CTL(R_L, 7), BR(0x17));
	KUNIT_EXPECT_TRUE(test, nhmex_ctr_counting(p, &p->rbox[0], 7));
	wr(test, p, CTL(R_L, 7), BR(0x18));
	KUNIT_EXPECT_FALSE(test, nhmex_ctr_counting(p, &p->rbox[0], 7));
	wr(test, p, CTL(R_L, 7), BR(0x1f));
	KUNIT_EXPECT_EQ(test, p->stats.illegal_sel, 2ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTL(R_L, 7)), BR(0x1f));
}

static int inj_m(struct nhmex_pkg *p, const struct nhmex_event *tmpl)
{
	struct nhmex_event e = *tmpl;

	e.type = NHMEX_MBOX;
	e.count = 1;
	e.inc = 1;
	return nhmex_inject(p, 0, &e);
}

/* M events: inc_sel or set_flag_sel, sub-control values, FVC, address. */
static void nhmex_test_mbox(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);
	struct nhmex_event e = { };
	u64 v;

	wr(test, p, U_GCTL, EN_ALL);
	wr(test, p, GCTL(M0), 0x3f);
	wr(test, p, CTL(M0, 0), M_INC(0xe));	/* FVC field 1: bits 16:14 */
	wr(test, p, CTL(M0, 1), M_FLAG(0));	/* CYCLES_DSP_FILL */
	wr(test, p, CTL(M0, 2), M_INC(0xb));	/* a PLD event */
	wr(test, p, M0 + 0xb, 5ULL << 14);	/* ZDP_CTL_FVC */
	wr(test, p, M0 + 0x5, 0x80);		/* DSP */

	e.sel = 0xe;
	e.has_fvc = true;
	e.fvc = 5;
	KUNIT_EXPECT_EQ(test, inj_m(p, &e), 1);
	e.fvc = 4;
	KUNIT_EXPECT_EQ(test, inj_m(p, &e), 0);
	e.sel = 0xd;		/* field 0, bits 13:11 = 0 */
	e.fvc = 0;
	KUNIT_EXPECT_EQ(test, inj_m(p, &e), 0);	/* no counter on 0xd */

	memset(&e, 0, sizeof(e));
	e.flag = true;
	e.subs = BIT(NHMEX_M_DSP);
	e.sub[NHMEX_M_DSP] = 0x80;
	KUNIT_EXPECT_EQ(test, inj_m(p, &e), 1);
	e.sub[NHMEX_M_DSP] = 0x100;
	KUNIT_EXPECT_EQ(test, inj_m(p, &e), 0);
	e.flag = false;		/* inc_sel 0 is on no counter */
	e.subs = 0;
	KUNIT_EXPECT_EQ(test, inj_m(p, &e), 0);

	memset(&e, 0, sizeof(e));
	e.sel = 0xb;
	e.has_addr = true;
	e.addr = 0x12345abc;
	wr(test, p, M0_ADDR_MATCH, 0x12345000);
	wr(test, p, M0_ADDR_MASK, 0xfff);
	KUNIT_EXPECT_EQ(test, inj_m(p, &e), 0);	/* MM_CFG[63] = 0 */
	wr(test, p, M0_MM_CFG, BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, inj_m(p, &e), 1);
	e.addr = 0x22345abc;
	KUNIT_EXPECT_EQ(test, inj_m(p, &e), 0);
	e.has_addr = false;
	KUNIT_EXPECT_EQ(test, inj_m(p, &e), 1);
	KUNIT_EXPECT_EQ(test, p->mbox[0].ctr[0].total, 1ULL);
	KUNIT_EXPECT_EQ(test, p->mbox[0].ctr[1].total, 1ULL);
	KUNIT_EXPECT_EQ(test, p->mbox[0].ctr[2].total, 2ULL);

	/*
	 * The pair cannot change while matching is on: #GP, as on the S-Box
	 * (000:1902-1903; the M-Box's [INF]). Cleared first, it can.
	 */
	v = 0x1;
	KUNIT_EXPECT_EQ(test, nhmex_reg_access(p, 0, M0_ADDR_MATCH, &v, true), -EIO);
	KUNIT_EXPECT_EQ(test, p->stats.gp_mm, 1ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, M0_ADDR_MATCH), 0x12345000ULL);
	wr(test, p, M0_MM_CFG, 0);

	/* ADDR_MATCH holds 34 bits, ADDR_MASK 27, MM_CFG bit 63. */
	KUNIT_EXPECT_EQ(test, p->stats.rsvd_writes, 0ULL);
	wr(test, p, M0_ADDR_MATCH, BIT_ULL(34) | 1);
	wr(test, p, M0_ADDR_MASK, BIT_ULL(27) | 1);
	wr(test, p, M0_MM_CFG, BIT_ULL(63) | 1);
	KUNIT_EXPECT_EQ(test, p->stats.rsvd_writes, 3ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, M0_ADDR_MATCH), 1ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, M0_MM_CFG), BIT_ULL(63));
	/* M1's address match is at 0xE5C. */
	wr(test, p, 0xe5d, 7);
	KUNIT_EXPECT_EQ(test, p->mbox[1].mm[NHMEX_MM_MATCH], 7ULL);
}

static u64 rd_at(struct kunit *test, struct nhmex_pkg *p, u64 t, u32 msr)
{
	u64 v;

	KUNIT_ASSERT_EQ(test, nhmex_reg_access(p, t, msr, &v, false), 0);
	return v;
}

/* The fixed counter counts floor(t * hz / 1e9), however time is stepped */
static void nhmex_test_fixed_clock(struct kunit *test)
{
	static const u64 steps[] = { 1, 3, 999999999, 7, 123456789, 2, 13 };
	struct nhmex_pkg *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	const u64 hz = 1000000007ULL;
	u64 t = 0, t0 = 1000, v = 0;
	unsigned int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	nhmex_pkg_init(p, 0, hz, t0);
	wr(test, p, U_GCTL, EN_ALL);
	wr(test, p, W_FIXED_CTL, 1);
	KUNIT_EXPECT_EQ(test, rd_at(test, p, t0 + 500, W_FIXED_CTR), 0ULL);
	wr(test, p, GCTL(W), BIT(31));
	t = t0 + 500;
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		t += steps[i];
		v = rd_at(test, p, t, W_FIXED_CTR);
	}
	KUNIT_EXPECT_EQ(test, v, mul_u64_u64_div_u64(t, hz, NSEC_PER_SEC) -
			mul_u64_u64_div_u64(t0 + 500, hz, NSEC_PER_SEC));
	KUNIT_EXPECT_EQ(test, p->wfixed.total, v);

	/* Stopped (en_all clear) for a second: nothing counted. */
	wr(test, p, U_GCTL, 0);
	KUNIT_EXPECT_EQ(test, rd_at(test, p, t + NSEC_PER_SEC, W_FIXED_CTR), v);
	/* Overflow sets ov_fixed, which U reports as ov_w. */
	wr(test, p, U_GCTL, EN_ALL);
	wr(test, p, W_FIXED_CTR, TOP);
	rd_at(test, p, t + 2 * NSEC_PER_SEC, W_FIXED_CTR);
	KUNIT_EXPECT_EQ(test, rd(test, p, GSTS(W)), (u64)BIT(31));
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), (u64)BIT(1));
	wr(test, p, OVF(W), BIT(31));
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), 0ULL);
}

/* Preload 2^48 - 1, count 1: the carry out of bit 47. */
static void nx_overflow(struct kunit *test, struct nhmex_pkg *p, u32 base,
			enum nhmex_box_type t, unsigned int idx, u64 ctl)
{
	wr(test, p, GCTL(base), BIT(0));
	wr(test, p, CTL(base, 0), ctl);
	wr(test, p, CTR(base, 0), TOP);
	KUNIT_EXPECT_EQ(test, inj(p, t, idx, 0x01, 0, 1, 1), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(base, 0)), 0ULL);
}

/*
 * Overflow: the box's status bit, the S SUMMARY of its side, U STATUS;
 * clearing the leaves clears the summaries once no other child is set.
 */
static void nhmex_test_overflow_tree(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);

	wr(test, p, U_GCTL, EN_ALL | U_EN);
	nx_overflow(test, p, C1, NHMEX_CBOX, 1, CSW(0x01, 0));
	KUNIT_EXPECT_EQ(test, rd(test, p, GSTS(C1)), 1ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, S0 + 3), (u64)BIT(2));	/* ov_c_l */
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), (u64)BIT(3));	/* ov_s0 */
	KUNIT_EXPECT_EQ(test, p->stats.overflows, 1ULL);
	KUNIT_EXPECT_EQ(test, p->cbox[1].ctr[0].total, 1ULL);

	nx_overflow(test, p, C3, NHMEX_CBOX, 3, CSW(0x01, 0));
	KUNIT_EXPECT_EQ(test, rd(test, p, S0 + 3), (u64)(BIT(2) | BIT(0)));
	/* Writes to STATUS and SUMMARY change nothing. */
	wr(test, p, GSTS(C1), 0);
	wr(test, p, S0 + 3, 0);
	KUNIT_EXPECT_EQ(test, rd(test, p, S0 + 3), (u64)(BIT(2) | BIT(0)));
	wr(test, p, OVF(C1), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, S0 + 3), (u64)BIT(0));
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), (u64)BIT(3));
	wr(test, p, OVF(C3), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, S0 + 3), 0ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), 0ULL);

	/* B1 and M1 (ov_mb), S1 itself (ov_s), the right R half (ov_r). */
	wr(test, p, GCTL(B1), BIT(3));
	wr(test, p, CTL(B1, 3), BR(0x0e));
	wr(test, p, CTR(B1, 3), TOP);
	inj_b(p, 1, 3, 0x0e, false, 0);
	KUNIT_EXPECT_EQ(test, rd(test, p, S1 + 3), (u64)BIT(16));
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), (u64)BIT(2));	/* ov_s1 */
	nx_overflow(test, p, S1, NHMEX_SBOX, 1, CSW(0x01, 0));
	KUNIT_EXPECT_EQ(test, rd(test, p, S1 + 3), (u64)(BIT(16) | BIT(18)));
	p->mbox[1].status = 1;
	wr(test, p, OVF(B1), BIT(3));
	KUNIT_EXPECT_EQ(test, rd(test, p, S1 + 3), (u64)(BIT(16) | BIT(18)));
	p->mbox[1].status = 0;
	wr(test, p, OVF(S1), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, S1 + 3), 0ULL);
	p->rbox[1].status = BIT(4);
	KUNIT_EXPECT_EQ(test, rd(test, p, S1 + 3), (u64)BIT(19));
	KUNIT_EXPECT_EQ(test, nhmex_s_summary(p, 0), 0U);
	wr(test, p, OVF(R_R), BIT(4));

	/* The U counter's overflow is the leaf ov_u, cleared by U OVF_CTL. */
	wr(test, p, U_EVSEL, CSW(0x01, 0) & ~GENMASK_ULL(15, 8));
	wr(test, p, U_CTR, TOP);
	inj(p, NHMEX_UBOX, 0, 0x01, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), (u64)BIT(0));
	wr(test, p, U_OVF, BIT(0));
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), 0ULL);
	/* Status is set without pmi_en; no PMI, no freeze. */
	KUNIT_EXPECT_EQ(test, p->stats.pmis + p->stats.freezes, 0ULL);
	KUNIT_EXPECT_FALSE(test, p->pmi_owed);
}

/* pmi_en: U pmi, a PMI owed to pmi_core_sel; with frz_all, en_all drops. */
static void nhmex_test_pmi_freeze(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);
	u8 cores = 0;

	wr(test, p, U_GCTL, EN_ALL | CORE_SEL(0x84));
	nx_overflow(test, p, C0, NHMEX_CBOX, 0, CSW(0x01, 0) | PMI_EN);
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), PMI | BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, p->stats.pmis, 1ULL);
	KUNIT_EXPECT_EQ(test, p->stats.freezes, 0ULL);
	KUNIT_EXPECT_TRUE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, cores, (u8)0x84);
	KUNIT_EXPECT_FALSE(test, nhmex_take_pmi(p, &cores));

	wr(test, p, U_OVF, PMI);
	wr(test, p, OVF(C0), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), 0ULL);

	wr(test, p, U_GCTL, EN_ALL | FRZ_ALL | CORE_SEL(0x01));
	nx_overflow(test, p, C0, NHMEX_CBOX, 0, CSW(0x01, 0) | PMI_EN);
	KUNIT_EXPECT_EQ(test, p->stats.freezes, 1ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GCTL), FRZ_ALL | CORE_SEL(0x01));
	KUNIT_EXPECT_TRUE(test, p->pmi_owed);
	/* Frozen: nothing counts until en_all is set again (000:139-156). */
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 0, 0x01, 0, 1, 1), 0);
	wr(test, p, U_GCTL, EN_ALL | FRZ_ALL | CORE_SEL(0x01));
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 0, 0x01, 0, 1, 1), 1);

	/* pmi_core_sel = 0: status pmi, but no PMI owed. */
	nhmex_take_pmi(p, &cores);
	wr(test, p, U_GCTL, EN_ALL);
	nx_overflow(test, p, C0, NHMEX_CBOX, 0, CSW(0x01, 0) | PMI_EN);
	KUNIT_EXPECT_FALSE(test, p->pmi_owed);
	KUNIT_EXPECT_EQ(test, p->stats.pmis, 2ULL);
	KUNIT_EXPECT_TRUE(test, rd(test, p, U_GSTS) & PMI);
}

/*
 * nhmex_take_pmi(): the cores are pmi_core_sel, bits 8:1 of U GLOBAL_CTL
 * (u_en in bit 0 is not a core); a taken PMI is owed no more; overflows
 * before a take make one PMI to every core either named; an overflow after
 * it owes a new one, whatever is left in the status registers.
 */
static void nhmex_test_take_pmi(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);
	unsigned int n;
	u8 cores = 0;

	for (n = 0; n < 8; n++) {
		wr(test, p, U_GCTL, EN_ALL | U_EN | CORE_SEL(BIT(n)));
		nx_overflow(test, p, C0, NHMEX_CBOX, 0, CSW(0x01, 0) | PMI_EN);
		KUNIT_EXPECT_TRUE(test, p->pmi_owed);
		KUNIT_EXPECT_TRUE(test, nhmex_take_pmi(p, &cores));
		KUNIT_EXPECT_EQ(test, cores, (u8)BIT(n));
	}
	KUNIT_EXPECT_EQ(test, p->stats.pmis, 8ULL);

	/* Bit 9 is past the field; u_en is below it. */
	wr(test, p, U_GCTL, EN_ALL | U_EN | CORE_SEL(0x5a) | BIT_ULL(9));
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GCTL), EN_ALL | U_EN | CORE_SEL(0x5a));
	nx_overflow(test, p, C0, NHMEX_CBOX, 0, CSW(0x01, 0) | PMI_EN);
	KUNIT_EXPECT_TRUE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, cores, (u8)0x5a);
	KUNIT_EXPECT_FALSE(test, p->pmi_owed);
	KUNIT_EXPECT_EQ(test, p->pmi_cores, (u8)0);
	/* Taken: nothing more, and *cores is left alone. */
	cores = 0xee;
	KUNIT_EXPECT_FALSE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, cores, (u8)0xee);

	/* Nothing cleared: a second overflow still owes a PMI. */
	KUNIT_EXPECT_TRUE(test, rd(test, p, U_GSTS) & PMI);
	wr(test, p, CTR(C0, 0), TOP);
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 0, 0x01, 0, 1, 1), 1);
	KUNIT_EXPECT_TRUE(test, p->pmi_owed);
	KUNIT_EXPECT_TRUE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, cores, (u8)0x5a);

	/* Two overflows before a take: one PMI, to the cores of both. */
	wr(test, p, U_GCTL, EN_ALL | CORE_SEL(0x01));
	nx_overflow(test, p, C1, NHMEX_CBOX, 1, CSW(0x01, 0) | PMI_EN);
	wr(test, p, U_GCTL, EN_ALL | CORE_SEL(0x80));
	nx_overflow(test, p, S1, NHMEX_SBOX, 1, CSW(0x01, 0) | PMI_EN);
	KUNIT_EXPECT_EQ(test, p->stats.pmis, 12ULL);
	KUNIT_EXPECT_TRUE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, cores, (u8)0x81);
	KUNIT_EXPECT_FALSE(test, nhmex_take_pmi(p, &cores));

	/* Without pmi_en an overflow owes nothing. */
	nx_overflow(test, p, C3, NHMEX_CBOX, 3, CSW(0x01, 0));
	KUNIT_EXPECT_FALSE(test, p->pmi_owed);
	KUNIT_EXPECT_EQ(test, p->stats.pmis, 12ULL);
}

/*
 * What the driver does with a PMI: in NMI context it reads U
 * GLOBAL_STATUS and the S SUMMARYs; then it reads the box STATUS, clears
 * the leaves through OVF_CTL and U pmi through U OVF_CTL bit 30, reloads
 * the counter and unfreezes with en_all | u_en | frz_all | pmi_core_sel.
 * None of that owes a PMI; the next overflow does, and freezes again.
 */
static void nhmex_test_pmi_handler(struct kunit *test)
{
	const u64 gctl = EN_ALL | U_EN | FRZ_ALL | CORE_SEL(BIT(2));
	struct nhmex_pkg *p = nx_new(test);
	const u32 c7 = 0xde0;
	u8 cores = 0;

	wr(test, p, U_GCTL, gctl);
	/* A second counter, in S1's tree, that only counts. */
	wr(test, p, GCTL(c7), BIT(1));
	wr(test, p, CTL(c7, 1), CSW(0x02, 0));
	nx_overflow(test, p, C1, NHMEX_CBOX, 1, CSW(0x01, 0) | PMI_EN);
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GCTL), gctl & ~EN_ALL);
	KUNIT_EXPECT_EQ(test, p->stats.freezes, 1ULL);
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 7, 0x02, 0, 3, 1), 0);
	KUNIT_EXPECT_TRUE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, cores, (u8)BIT(2));

	/* NMI: pmi and ov_s0; S0 says C-Box 0/1, S1 nothing. */
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), PMI | BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, rd(test, p, S0 + 3), (u64)BIT(2));
	KUNIT_EXPECT_EQ(test, rd(test, p, S1 + 3), 0ULL);

	/* IRQ: the leaf, then U's own pmi bit. */
	KUNIT_EXPECT_EQ(test, rd(test, p, GSTS(C1)), 1ULL);
	wr(test, p, OVF(C1), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, S0 + 3), 0ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), PMI);
	wr(test, p, U_OVF, PMI);
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), 0ULL);
	wr(test, p, CTR(C1, 0), TOP - 9);
	wr(test, p, U_GCTL, gctl);
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GCTL), gctl);
	KUNIT_EXPECT_FALSE(test, p->pmi_owed);
	KUNIT_EXPECT_FALSE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, p->stats.pmis, 1ULL);

	/* Counting again, with no PMI until the counter carries. */
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 7, 0x02, 0, 3, 1), 1);
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 1, 0x01, 0, 9, 1), 1);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(C1, 0)), TOP);
	KUNIT_EXPECT_FALSE(test, p->pmi_owed);
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), 0ULL);
	KUNIT_EXPECT_EQ(test, inj(p, NHMEX_CBOX, 1, 0x01, 0, 1, 1), 1);
	KUNIT_EXPECT_TRUE(test, p->pmi_owed);
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GSTS), PMI | BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, rd(test, p, U_GCTL), gctl & ~EN_ALL);
	KUNIT_EXPECT_EQ(test, p->stats.freezes, 2ULL);
	KUNIT_EXPECT_EQ(test, p->stats.pmis, 2ULL);
	KUNIT_EXPECT_TRUE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, cores, (u8)BIT(2));
	KUNIT_EXPECT_EQ(test, p->cbox[1].ctr[0].total, 11ULL);
	KUNIT_EXPECT_EQ(test, p->cbox[7].ctr[1].total, 3ULL);
}

static void wr_at(struct kunit *test, struct nhmex_pkg *p, u64 t, u32 msr,
		  u64 v)
{
	KUNIT_ASSERT_EQ(test, nhmex_reg_access(p, t, msr, &v, true), 0);
}

/* @count events 0x@ev (umask 0, inc 1) on box @idx of kind @t at time @at. */
static int inj_at(struct nhmex_pkg *p, u64 at, enum nhmex_box_type t,
		  unsigned int idx, u8 ev, u64 count)
{
	struct nhmex_event e = {
		.type = t, .idx = idx, .event = ev, .count = count, .inc = 1,
	};

	return nhmex_inject(p, at, &e);
}

/*
 * A pmi_en overflow with frz_all makes a freeze pending for
 * freeze_delay_ns: until freeze_at everything counts, the overflowing
 * counter from its wrapped value (000:247-251), and no PMI is owed; then
 * en_all drops and the PMI is owed. An access long after freeze_at finds
 * the W fixed counter stopped at freeze_at exactly.
 */
static void nhmex_test_freeze_pending(struct kunit *test)
{
	const u64 gctl = EN_ALL | FRZ_ALL | CORE_SEL(BIT(2));
	struct nhmex_pkg *p = nx_new(test);
	const u32 c7 = 0xde0;
	u8 cores = 0;

	p->freeze_delay_ns = 1000;
	wr(test, p, U_GCTL, gctl);
	wr(test, p, GCTL(C0), BIT(0));
	wr(test, p, CTL(C0, 0), CSW(0x01, 0) | PMI_EN);
	wr(test, p, CTR(C0, 0), TOP);
	wr(test, p, GCTL(c7), BIT(1));
	wr(test, p, CTL(c7, 1), CSW(0x02, 0));
	wr(test, p, GCTL(W), BIT(31));
	wr(test, p, W_FIXED_CTL, 1);

	KUNIT_EXPECT_EQ(test, inj_at(p, 100, NHMEX_CBOX, 0, 0x01, 1), 1);
	KUNIT_EXPECT_TRUE(test, p->freeze_pending);
	KUNIT_EXPECT_EQ(test, p->freeze_at, 1100ULL);
	KUNIT_EXPECT_FALSE(test, p->pmi_owed);
	KUNIT_EXPECT_FALSE(test, p->frozen);
	KUNIT_EXPECT_EQ(test, p->stats.freezes, 0ULL);
	KUNIT_EXPECT_EQ(test, p->stats.pmis, 1ULL);
	KUNIT_EXPECT_FALSE(test, nhmex_take_pmi(p, &cores));
	/* The status is there at once: U pmi and ov_s0. */
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 100, U_GSTS), PMI | BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 100, U_GCTL), gctl);

	/* Counting goes on, the wrapped counter's too. */
	KUNIT_EXPECT_EQ(test, inj_at(p, 600, NHMEX_CBOX, 0, 0x01, 5), 1);
	KUNIT_EXPECT_EQ(test, inj_at(p, 600, NHMEX_CBOX, 7, 0x02, 3), 1);
	KUNIT_EXPECT_EQ(test, inj_at(p, 1099, NHMEX_CBOX, 0, 0x01, 2), 1);
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 1099, CTR(C0, 0)), 7ULL);
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 1099, U_GCTL), gctl);
	KUNIT_EXPECT_TRUE(test, p->freeze_pending);
	KUNIT_EXPECT_FALSE(test, p->pmi_owed);

	/* Past freeze_at: frozen there, the PMI owed, nothing counts. */
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 3000, W_FIXED_CTR),
			mul_u64_u64_div_u64(1100, HZ_TEST, NSEC_PER_SEC));
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 3000, U_GCTL), gctl & ~EN_ALL);
	KUNIT_EXPECT_FALSE(test, p->freeze_pending);
	KUNIT_EXPECT_TRUE(test, p->frozen);
	KUNIT_EXPECT_EQ(test, p->stats.freezes, 1ULL);
	KUNIT_EXPECT_EQ(test, inj_at(p, 3000, NHMEX_CBOX, 7, 0x02, 3), 0);
	KUNIT_EXPECT_TRUE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, cores, (u8)BIT(2));
	KUNIT_EXPECT_EQ(test, p->cbox[0].ctr[0].total, 8ULL);
	KUNIT_EXPECT_EQ(test, p->cbox[7].ctr[1].total, 3ULL);

	/* The driver's unfreeze: en_all set again, frozen no more. */
	wr_at(test, p, 3000, U_GCTL, gctl);
	KUNIT_EXPECT_FALSE(test, p->frozen);
	KUNIT_EXPECT_EQ(test, inj_at(p, 3000, NHMEX_CBOX, 7, 0x02, 3), 1);
	KUNIT_EXPECT_FALSE(test, p->freeze_pending);
	KUNIT_EXPECT_FALSE(test, p->pmi_owed);
}

/*
 * Two boxes, in the two S-Boxes' trees, overflow within the delay: each
 * sets its status bit at once, the second joins the first's freeze
 * (freeze_at unchanged), and one PMI goes to the cores of both.
 */
static void nhmex_test_freeze_two_boxes(struct kunit *test)
{
	const u64 gctl = EN_ALL | FRZ_ALL;
	struct nhmex_pkg *p = nx_new(test);
	u8 cores = 0;

	p->freeze_delay_ns = 1000;
	wr(test, p, U_GCTL, gctl | CORE_SEL(0x01));
	wr(test, p, GCTL(C1), BIT(0));
	wr(test, p, CTL(C1, 0), CSW(0x01, 0) | PMI_EN);
	wr(test, p, CTR(C1, 0), TOP);
	wr(test, p, GCTL(S1), BIT(2));
	wr(test, p, CTL(S1, 2), CSW(0x03, 0) | PMI_EN);
	wr(test, p, CTR(S1, 2), TOP - 1);

	KUNIT_EXPECT_EQ(test, inj_at(p, 10, NHMEX_CBOX, 1, 0x01, 1), 1);
	KUNIT_EXPECT_EQ(test, p->freeze_at, 1010ULL);
	/* pmi_core_sel rewritten meanwhile: the freeze stays pending. */
	wr_at(test, p, 20, U_GCTL, gctl | CORE_SEL(0x80));
	KUNIT_EXPECT_EQ(test, inj_at(p, 500, NHMEX_SBOX, 1, 0x03, 1), 1);
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 500, CTR(S1, 2)), TOP);
	KUNIT_EXPECT_EQ(test, inj_at(p, 900, NHMEX_SBOX, 1, 0x03, 4), 1);
	KUNIT_EXPECT_TRUE(test, p->freeze_pending);
	KUNIT_EXPECT_EQ(test, p->freeze_at, 1010ULL);
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 900, GSTS(C1)), 1ULL);
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 900, GSTS(S1)), (u64)BIT(2));
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 900, U_GSTS),
			PMI | BIT_ULL(3) | BIT_ULL(2));
	KUNIT_EXPECT_FALSE(test, p->pmi_owed);
	KUNIT_EXPECT_EQ(test, p->stats.overflows, 2ULL);
	KUNIT_EXPECT_EQ(test, p->stats.pmis, 2ULL);

	nhmex_advance(p, 1010);
	KUNIT_EXPECT_EQ(test, p->stats.freezes, 1ULL);
	KUNIT_EXPECT_TRUE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, cores, (u8)0x81);
	KUNIT_EXPECT_FALSE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 1010, CTR(S1, 2)), 3ULL);
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 1010, U_GCTL),
			FRZ_ALL | CORE_SEL(0x80));
	/* Both leaves are still there for the handler. */
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 1010, S0 + 3), (u64)BIT(2));
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 1010, S1 + 3), (u64)BIT(18));
}

/*
 * The freeze takes effect at freeze_at exactly, whatever software wrote
 * meanwhile: as Broadwell's unfrz_all, no write cancels it (clearing
 * frz_all, clearing en_all, setting it again). An overflow without
 * frz_all owes its PMI at once, beside the pending freeze. With the sim
 * clock frozen the PMI timer applies the freeze with nhmex_freeze_now().
 */
static void nhmex_test_freeze_applied(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);
	u8 cores = 0;

	p->freeze_delay_ns = 500;
	wr(test, p, U_GCTL, EN_ALL | FRZ_ALL | CORE_SEL(0x02));
	wr(test, p, GCTL(C0), BIT(0) | BIT(1));
	wr(test, p, CTL(C0, 0), CSW(0x01, 0) | PMI_EN);
	wr(test, p, CTR(C0, 0), TOP);
	wr(test, p, CTL(C0, 1), CSW(0x02, 0) | PMI_EN);
	wr(test, p, CTR(C0, 1), TOP);
	KUNIT_EXPECT_EQ(test, inj_at(p, 1000, NHMEX_CBOX, 0, 0x01, 1), 1);
	KUNIT_EXPECT_EQ(test, p->freeze_at, 1500ULL);

	wr_at(test, p, 1100, U_GCTL, EN_ALL | CORE_SEL(0x04));
	wr_at(test, p, 1200, U_GCTL, CORE_SEL(0x04));
	wr_at(test, p, 1300, U_GCTL, EN_ALL | CORE_SEL(0x04));
	KUNIT_EXPECT_TRUE(test, p->freeze_pending);
	KUNIT_EXPECT_FALSE(test, p->frozen);
	/* Without frz_all: the PMI at once, to this overflow's cores. */
	KUNIT_EXPECT_EQ(test, inj_at(p, 1400, NHMEX_CBOX, 0, 0x02, 1), 1);
	KUNIT_EXPECT_TRUE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, cores, (u8)0x04);
	KUNIT_EXPECT_TRUE(test, p->freeze_pending);
	KUNIT_EXPECT_EQ(test, p->freeze_at, 1500ULL);

	KUNIT_EXPECT_EQ(test, rd_at(test, p, 1499, U_GCTL),
			EN_ALL | CORE_SEL(0x04));
	KUNIT_EXPECT_EQ(test, rd_at(test, p, 1500, U_GCTL), CORE_SEL(0x04));
	KUNIT_EXPECT_FALSE(test, p->freeze_pending);
	KUNIT_EXPECT_TRUE(test, p->frozen);
	KUNIT_EXPECT_EQ(test, p->stats.freezes, 1ULL);
	/* The PMI goes where pmi_core_sel pointed at the overflow. */
	KUNIT_EXPECT_TRUE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, cores, (u8)0x02);

	/* Frozen until a write sets en_all. */
	wr_at(test, p, 1600, U_GCTL, FRZ_ALL | CORE_SEL(0x02));
	KUNIT_EXPECT_TRUE(test, p->frozen);
	wr_at(test, p, 1700, U_GCTL, EN_ALL | FRZ_ALL | CORE_SEL(0x02));
	KUNIT_EXPECT_FALSE(test, p->frozen);

	/* What the timer does while the sim clock stands still. */
	wr_at(test, p, 1700, CTR(C0, 0), TOP);
	KUNIT_EXPECT_EQ(test, inj_at(p, 1800, NHMEX_CBOX, 0, 0x01, 1), 1);
	KUNIT_EXPECT_TRUE(test, p->freeze_pending);
	nhmex_freeze_now(p);
	KUNIT_EXPECT_FALSE(test, p->freeze_pending);
	KUNIT_EXPECT_TRUE(test, p->frozen);
	KUNIT_EXPECT_EQ(test, p->u_ctl & EN_ALL, 0ULL);
	KUNIT_EXPECT_EQ(test, p->stats.freezes, 2ULL);
	KUNIT_EXPECT_TRUE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, cores, (u8)0x02);
	nhmex_freeze_now(p);
	KUNIT_EXPECT_EQ(test, p->stats.freezes, 2ULL);
}

/*
 * freeze_delay_ns = 0 is the model without the skew: the overflow
 * freezes as the line that caused it ends (every counter it matched
 * counts all of it) and owes the PMI at once, with no access after it.
 */
static void nhmex_test_freeze_no_delay(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);
	u8 cores = 0;

	p->freeze_delay_ns = 0;
	wr(test, p, U_GCTL, EN_ALL | FRZ_ALL | CORE_SEL(0x10));
	wr(test, p, GCTL(C0), BIT(0) | BIT(3));
	wr(test, p, CTL(C0, 0), CSW(0x01, 0) | PMI_EN);
	wr(test, p, CTR(C0, 0), TOP - 1);
	wr(test, p, CTL(C0, 3), CSW(0x01, 0));
	KUNIT_EXPECT_EQ(test, inj_at(p, 50, NHMEX_CBOX, 0, 0x01, 10), 2);
	KUNIT_EXPECT_FALSE(test, p->freeze_pending);
	KUNIT_EXPECT_TRUE(test, p->frozen);
	KUNIT_EXPECT_EQ(test, p->u_ctl & EN_ALL, 0ULL);
	KUNIT_EXPECT_EQ(test, p->stats.freezes, 1ULL);
	KUNIT_EXPECT_TRUE(test, p->pmi_owed);
	KUNIT_EXPECT_EQ(test, p->cbox[0].ctr[0].total, 10ULL);
	KUNIT_EXPECT_EQ(test, p->cbox[0].ctr[3].total, 10ULL);
	KUNIT_EXPECT_EQ(test, inj_at(p, 50, NHMEX_CBOX, 0, 0x01, 1), 0);
	KUNIT_EXPECT_TRUE(test, nhmex_take_pmi(p, &cores));
	KUNIT_EXPECT_EQ(test, cores, (u8)0x10);

	/* pmi_core_sel = 0: frozen all the same, no PMI. */
	wr_at(test, p, 60, U_GCTL, EN_ALL | FRZ_ALL);
	wr_at(test, p, 60, CTR(C0, 0), TOP);
	KUNIT_EXPECT_EQ(test, inj_at(p, 60, NHMEX_CBOX, 0, 0x01, 1), 2);
	KUNIT_EXPECT_EQ(test, p->stats.freezes, 2ULL);
	KUNIT_EXPECT_FALSE(test, p->pmi_owed);
	KUNIT_EXPECT_EQ(test, p->u_ctl & EN_ALL, 0ULL);
}

/* Reserved bits are counted and dropped; ignored bits just dropped. */
static void nhmex_test_rsvd_writes(struct kunit *test)
{
	struct nhmex_pkg *p = nx_new(test);
	u64 v;

	wr(test, p, CTL(C0, 0), CSW(0x01, 0) | BIT_ULL(16) | BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, p->stats.rsvd_writes, 0ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTL(C0, 0)), CSW(0x01, 0));
	wr(test, p, CTL(C0, 0), CSW(0x01, 0) | BIT_ULL(40));
	KUNIT_EXPECT_EQ(test, p->stats.rsvd_writes, 1ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTL(C0, 0)), CSW(0x01, 0));
	wr(test, p, U_EVSEL, BIT_ULL(62) | BIT_ULL(22));
	KUNIT_EXPECT_EQ(test, p->stats.rsvd_writes, 2ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, U_EVSEL), BIT_ULL(22));
	wr(test, p, CTL(B0, 0), BIT_ULL(50) | BR(1));
	wr(test, p, CTL(S0, 0), BIT_ULL(61) | CSW(1, 0));
	wr(test, p, CTL(W, 0), BIT_ULL(50) | CSW(1, 0));
	wr(test, p, CTL(R_L, 0), BIT_ULL(62) | BR(1));
	KUNIT_EXPECT_EQ(test, p->stats.rsvd_writes, 6ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTL(W, 0)), CSW(1, 0));
	/* M controls have no known reserved bits. */
	wr(test, p, CTL(M0, 0), GENMASK_ULL(63, 22) | M_INC(3));
	KUNIT_EXPECT_EQ(test, p->stats.rsvd_writes, 6ULL);
	KUNIT_EXPECT_EQ(test, rd(test, p, CTL(M0, 0)), M_INC(3));

	/* Counters keep 48 bits; writes above bit 47 are dropped. */
	wr(test, p, CTR(C0, 0), GENMASK_ULL(63, 47));
	KUNIT_EXPECT_EQ(test, rd(test, p, CTR(C0, 0)), BIT_ULL(47));

	/* Any other MSR faults. */
	KUNIT_EXPECT_EQ(test, nhmex_reg_access(p, 0, C0 + 3, &v, false), -EIO);
	KUNIT_EXPECT_EQ(test, v, 0ULL);
	KUNIT_EXPECT_EQ(test, nhmex_reg_access(p, 0, U_GCTL + 3, &v, true), -EIO);
	KUNIT_EXPECT_EQ(test, nhmex_reg_access(p, 0, U_CTR + 1, &v, true), -EIO);
	KUNIT_EXPECT_EQ(test, nhmex_reg_access(p, 0, M0 + 0xc, &v, true), -EIO);
	KUNIT_EXPECT_EQ(test, p->stats.faults, 4ULL);
	KUNIT_EXPECT_TRUE(test, nhmex_msr_exists(p, W_FIXED_CTL));
	KUNIT_EXPECT_TRUE(test, nhmex_msr_exists(p, S1 + 3));
	KUNIT_EXPECT_FALSE(test, nhmex_msr_exists(p, B0 + 3));
}

static struct kunit_case nhmex_regs_cases[] = {
	KUNIT_CASE(nhmex_test_three_level),
	KUNIT_CASE(nhmex_test_rst_all),
	KUNIT_CASE(nhmex_test_cbox_bases),
	KUNIT_CASE(nhmex_test_threshold),
	KUNIT_CASE(nhmex_test_bbox_match),
	KUNIT_CASE(nhmex_test_sbox_match),
	KUNIT_CASE(nhmex_test_sbox_occupancy),
	KUNIT_CASE(nhmex_test_rbox_select),
	KUNIT_CASE(nhmex_test_rbox_illegal),
	KUNIT_CASE(nhmex_test_mbox),
	KUNIT_CASE(nhmex_test_fixed_clock),
	KUNIT_CASE(nhmex_test_overflow_tree),
	KUNIT_CASE(nhmex_test_pmi_freeze),
	KUNIT_CASE(nhmex_test_take_pmi),
	KUNIT_CASE(nhmex_test_pmi_handler),
	KUNIT_CASE(nhmex_test_freeze_pending),
	KUNIT_CASE(nhmex_test_freeze_two_boxes),
	KUNIT_CASE(nhmex_test_freeze_applied),
	KUNIT_CASE(nhmex_test_freeze_no_delay),
	KUNIT_CASE(nhmex_test_rsvd_writes),
	{ }
};

static struct kunit_suite nhmex_regs_suite = {
	.name = "uncore_sim_nhmex_regs",
	.test_cases = nhmex_regs_cases,
};

kunit_test_suite(nhmex_regs_suite);

MODULE_DESCRIPTION("KUnit tests for the simulator's Xeon 7500 uncore registers");
MODULE_LICENSE("GPL");
