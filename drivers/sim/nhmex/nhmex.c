// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_sim: the uncore PMU of the Intel Xeon 7500 (Nehalem-EX, family 6
 * model 2Eh; Xeon 7500 Uncore Programming Guide, seed 000).
 *
 * Per package, MSRs only (000:55): the U-Box (global control, one
 * counter), eight C-Boxes, two B-, S- and M-Boxes, the R-Box as two halves
 * of eight counters, and the W-Box with a fixed counter of uncore clocks.
 * Counters are 48 bits; a counter counts under its own en, its box's
 * ctr_en bit and U en_all (000:95). Overflows set the box's status bit,
 * which the S-Box SUMMARY and U GLOBAL_STATUS summarise (000:74-76); with
 * pmi_en, frz_all clears en_all nhmex_freeze_delay_ns of sim time later
 * (counting goes on meanwhile, 000:247-251) and a PMI is owed to
 * pmi_core_sel then (without frz_all, at once), which pmi.c delivers as
 * an NMI to those cores. Any other MSR faults (-EIO).
 * The registers are in nhmex_regs.c; here the locking (socket.c's package
 * locks, safe in NMI context), the MSR seam, the hooks for PMI delivery
 * and debugfs.
 *
 * Occurrences come from debugfs; the fixed counter counts sim time. Each
 * counter keeps the unwrapped total it counted: the truth a test compares
 * with.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/processor.h>

#include "nhmex.h"
#include "sim.h"

/* The guide gives no uncore frequency [INF]. */
static unsigned long long nhmex_uclk_hz = 2400000000ULL;
module_param(nhmex_uclk_hz, ullong, 0444);
MODULE_PARM_DESC(nhmex_uclk_hz,
		 "Xeon 7500 model: uncore clock in Hz, counted by the W-Box fixed counter");

/* The guide gives no skew between overflow and freeze [INF]; as bdx. */
static unsigned int nhmex_freeze_delay_ns = 1000;
module_param(nhmex_freeze_delay_ns, uint, 0644);
MODULE_PARM_DESC(nhmex_freeze_delay_ns,
		 "Xeon 7500 model: sim ns from an overflow with frz_all to the freeze (default 1000)");

/* pmi_core_sel is a mask of cores 0-7 (000:183-189). */
#define NHMEX_PMI_CORES		HWEIGHT32(NHMEX_U_GCTL_CORE_SEL)

/*
 * Package n's registers; sim_sockets[n] has the lock that serialises them
 * (taken through sim_lock() by every accessor) and its PMI machinery.
 */
static struct nhmex_pkg *nhmex_pkgs;

static struct nhmex_pkg *nhmex_pkg_of(const struct sim_socket *s)
{
	return &nhmex_pkgs[s->id];
}

/*
 * The MSR seam, from the driver on any CPU of the package, in NMI context
 * too (its PMI handler reads U GLOBAL_STATUS and the S-Box SUMMARYs).
 * -EBUSY: an NMI interrupted this CPU inside the simulator (see
 * sim_nmi_busy()).
 */
static int nhmex_access(u32 msr, u64 *val, bool write)
{
	int pkg = sim_this_pkg();
	struct sim_socket *s;
	unsigned long flags;
	int ret;

	if (!write)
		*val = 0;
	if (pkg < 0)
		return -EIO;
	s = &sim_sockets[pkg];
	if (sim_nmi_busy(s))
		return -EBUSY;
	sim_lock(s, &flags);
	ret = nhmex_reg_access(nhmex_pkg_of(s), sim_clock_now(), msr, val,
			       write);
	sim_unlock(s, flags);
	return ret;
}

/* Tests may change the parameter at run time: taken at every lock. */
static void nhmex_locked(struct sim_socket *s)
{
	nhmex_pkg_of(s)->freeze_delay_ns = READ_ONCE(nhmex_freeze_delay_ns);
}

/*
 * PMI delivery (pmi.c), as for bdx: the timer is wanted for a pending
 * freeze or an owed PMI. The W fixed counter, the only clock-driven one,
 * has no pmi_en, so nothing else is ever due.
 */
static bool nhmex_pmi_wanted(const struct sim_socket *s)
{
	const struct nhmex_pkg *p = nhmex_pkg_of(s);

	return p->freeze_pending || p->pmi_owed;
}

/*
 * An owed PMI at once (one owed without frz_all does not wait for a
 * freeze pending beside it); else the pending freeze when sim time
 * reaches it, or at once if the sim clock is frozen (only the timer can
 * then apply it).
 */
static u64 nhmex_pmi_due(struct sim_socket *s, u64 now)
{
	const struct nhmex_pkg *p = nhmex_pkg_of(s);

	if (p->pmi_owed)
		return now;
	if (p->freeze_pending)
		return sim_clock_frozen() ? now : p->freeze_at;
	return U64_MAX;
}

/*
 * Bring the package to @now, which applies a freeze due by then (with
 * the sim clock frozen, the pending one whatever its time), and take the
 * PMI owed. A freeze not yet due stays pending: unlocking re-arms the
 * timer for it. The guide has no wk_on_pmi: a PMI wakes its core.
 */
static bool nhmex_pmi_take(struct sim_socket *s, u64 now, u32 *cores,
			   bool *wake)
{
	struct nhmex_pkg *p = nhmex_pkg_of(s);
	u8 sel;

	nhmex_advance(p, now);
	if (sim_clock_frozen())
		nhmex_freeze_now(p);
	if (!nhmex_take_pmi(p, &sel))
		return false;
	*cores = sel;
	*wake = true;
	return true;
}

/* After a change of the sim clock: re-time every pending freeze. */
static void nhmex_clock_moved(void)
{
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < sim_nr_pkgs; i++) {
		sim_lock(&sim_sockets[i], &flags);
		sim_unlock(&sim_sockets[i], flags);
	}
}

/* Nehalem-EX is family 6 model 46 [EXT]; Westmere-EX (47) differs. */
static bool nhmex_match(void)
{
	return boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
	       boot_cpu_data.x86 == 6 && boot_cpu_data.x86_model == 0x2e;
}

static int nhmex_init(u64 now)
{
	unsigned int i;
	int ret;

	if (nhmex_uclk_hz > SIM_MAX_CLK_HZ) {
		pr_err("nhmex_uclk_hz: at most %llu\n", SIM_MAX_CLK_HZ);
		return -EINVAL;
	}
	nhmex_pkgs = kcalloc(sim_nr_pkgs, sizeof(*nhmex_pkgs), GFP_KERNEL);
	if (!nhmex_pkgs)
		return -ENOMEM;
	for (i = 0; i < sim_nr_pkgs; i++)
		nhmex_pkg_init(&nhmex_pkgs[i], i, nhmex_uclk_hz, now);
	ret = sim_pmi_init();
	if (ret) {
		kfree(nhmex_pkgs);
		return ret;
	}
	return 0;
}

/* No hook runs, and nothing is delivered, once sim_pmi_exit() returns. */
static void nhmex_exit(void)
{
	sim_pmi_exit();
	kfree(nhmex_pkgs);
}

/* ---- debugfs ------------------------------------------------------------ */

enum nhmex_key {
	NK_PKG,
	NK_BOX,
	NK_IDX,
	NK_CTR,
	NK_EVENT,
	NK_UMASK,
	NK_ENQ,
	NK_DEQ,
	NK_PKT,
	NK_SEL,
	NK_FLAG,
	NK_DSP,
	NK_ISS,
	NK_MAP,
	NK_THR,
	NK_PGT,
	NK_PLD,
	NK_FVC,
	NK_ADDR,
	NK_PORT,
	NK_IPERF,
	NK_QLX,
	NK_XBR,
	NK_COUNT,
	NK_INC,
	NK_VALUE,
	NK_MSR,
	NK_NR,
};

/* Names and the largest values any box takes; box-specific limits below. */
static const struct {
	const char *name;
	u64 max;
} nhmex_keys[NK_NR] = {
	[NK_PKG]	= { "pkg",	SIM_MAX_PKGS - 1 },
	[NK_BOX]	= { "box",	0 },
	[NK_IDX]	= { "idx",	NHMEX_NR_CBOX - 1 },
	[NK_CTR]	= { "ctr",	NHMEX_MAX_CTRS - 1 },
	[NK_EVENT]	= { "event",	0xff },
	[NK_UMASK]	= { "umask",	0xff },
	[NK_ENQ]	= { "enq",	0x7f },
	[NK_DEQ]	= { "deq",	0x7f },
	[NK_PKT]	= { "pkt",	U64_MAX },
	[NK_SEL]	= { "sel",	0x1f },
	[NK_FLAG]	= { "flag",	1 },
	[NK_DSP]	= { "dsp",	U64_MAX },
	[NK_ISS]	= { "iss",	U64_MAX },
	[NK_MAP]	= { "map",	U64_MAX },
	[NK_THR]	= { "thr",	U64_MAX },
	[NK_PGT]	= { "pgt",	U64_MAX },
	[NK_PLD]	= { "pld",	U64_MAX },
	[NK_FVC]	= { "fvc",	0x7 },
	[NK_ADDR]	= { "addr",	GENMASK_ULL(33, 0) },
	[NK_PORT]	= { "port",	NHMEX_NR_RPORTS - 1 },
	[NK_IPERF]	= { "iperf",	U32_MAX },
	[NK_QLX]	= { "qlx",	0xff },
	[NK_XBR]	= { "xbr",	U64_MAX },
	[NK_COUNT]	= { "count",	U64_MAX },
	[NK_INC]	= { "inc",	U64_MAX },
	[NK_VALUE]	= { "value",	U64_MAX },
	[NK_MSR]	= { "msr",	U32_MAX },
};

/* The M-Box sub-control each key names. */
static const struct {
	enum nhmex_key key;
	enum nhmex_m_sub sub;
} nhmex_sub_keys[] = {
	{ NK_DSP, NHMEX_M_DSP },
	{ NK_ISS, NHMEX_M_ISS },
	{ NK_MAP, NHMEX_M_MAP },
	{ NK_THR, NHMEX_M_MSC_THR },
	{ NK_PGT, NHMEX_M_PGT },
	{ NK_PLD, NHMEX_M_PLD },
};

#define NK(k)			BIT(NK_##k)
#define NHMEX_INJECT_COMMON	(NK(PKG) | NK(BOX) | NK(COUNT) | NK(INC))
#define NHMEX_M_SUB_KEYS	(NK(DSP) | NK(ISS) | NK(MAP) | NK(THR) | \
				 NK(PGT) | NK(PLD))
#define NHMEX_R_KINDS		(NK(IPERF) | NK(QLX) | NK(XBR))

/* Per box, the inject keys it takes beyond the common ones, and needs. */
static const struct {
	unsigned long keys;
	unsigned long needed;
} nhmex_inject_keys[NHMEX_NR_BOX_TYPES] = {
	[NHMEX_UBOX] = { NK(IDX) | NK(EVENT), NK(EVENT) },
	[NHMEX_CBOX] = { NK(IDX) | NK(EVENT) | NK(UMASK), NK(EVENT) },
	[NHMEX_BBOX] = { NK(IDX) | NK(CTR) | NK(EVENT) | NK(PKT),
			 NK(CTR) | NK(EVENT) },
	[NHMEX_SBOX] = { NK(IDX) | NK(EVENT) | NK(UMASK) | NK(ENQ) |
			 NK(DEQ) | NK(PKT), NK(EVENT) },
	[NHMEX_MBOX] = { NK(IDX) | NK(SEL) | NK(FLAG) | NHMEX_M_SUB_KEYS |
			 NK(FVC) | NK(ADDR), NK(SEL) },
	/* No idx: the port decides the half. */
	[NHMEX_RBOX] = { NK(PORT) | NHMEX_R_KINDS, NK(PORT) },
	[NHMEX_WBOX] = { NK(IDX) | NK(EVENT) | NK(UMASK), NK(EVENT) },
};

#define NHMEX_COUNTER_KEYS	(NK(PKG) | NK(BOX) | NK(IDX) | NK(CTR) | \
				 NK(VALUE))
#define NHMEX_COUNTER_NEEDED	(NK(PKG) | NK(BOX) | NK(CTR) | NK(VALUE))
#define NHMEX_MSR_KEYS		(NK(PKG) | NK(MSR) | NK(VALUE))

enum nhmex_cmd_kind {
	NHMEX_CMD_INJECT,
	NHMEX_CMD_COUNTER,
	NHMEX_CMD_MSR,
};

/**
 * struct nhmex_cmd - one parsed line of "inject", "counter" or "msr"
 * @pkg: package
 * @ev: inject: the occurrence; counter: box kind and instance
 * @ctr: counter: counter index or NHMEX_CTR_FIXED
 * @value: counter, msr: the value
 * @msr: msr: the MSR
 */
struct nhmex_cmd {
	unsigned int pkg;
	struct nhmex_event ev;
	unsigned int ctr;
	u64 value;
	u32 msr;
};

static int nhmex_parse_box(const char *s, enum nhmex_box_type *type)
{
	enum nhmex_box_type t;

	for (t = 0; t < NHMEX_NR_BOX_TYPES; t++) {
		if (!strcmp(s, nhmex_box_name(t))) {
			*type = t;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * "key=value ..." into @v, each key once; box into @type; "ctr=fixed"
 * sets @fixed. Values within the keys' overall limits.
 */
static int nhmex_parse_kv(char *line, u64 *v, unsigned long *seen,
			  enum nhmex_box_type *type, bool *fixed)
{
	char *tok, *val;
	unsigned int k;

	*seen = 0;
	*fixed = false;
	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		for (k = 0; k < NK_NR; k++)
			if (!strcmp(tok, nhmex_keys[k].name))
				break;
		if (k == NK_NR || (*seen & BIT(k)))
			return -EINVAL;
		*seen |= BIT(k);
		if (k == NK_BOX) {
			if (nhmex_parse_box(val, type))
				return -EINVAL;
		} else if (k == NK_CTR && !strcmp(val, "fixed")) {
			*fixed = true;
		} else if (kstrtou64(val, 0, &v[k]) || v[k] > nhmex_keys[k].max) {
			return -EINVAL;
		}
	}
	if (!(*seen & NK(PKG)) || v[NK_PKG] >= sim_nr_pkgs)
		return -EINVAL;
	return 0;
}

/* Limits that depend on the box, then the occurrence itself. */
static int nhmex_parse_inject(const u64 *v, unsigned long seen, bool fixed,
			      struct nhmex_event *ev)
{
	unsigned long keys = nhmex_inject_keys[ev->type].keys |
			     NHMEX_INJECT_COMMON;
	unsigned long needed = nhmex_inject_keys[ev->type].needed |
			       NK(PKG) | NK(BOX) | NK(COUNT);
	unsigned int i;
	u64 prod;

	if ((seen & ~keys) || (seen & needed) != needed || fixed)
		return -EINVAL;
	if (ev->type == NHMEX_RBOX && hweight_long(seen & NHMEX_R_KINDS) != 1)
		return -EINVAL;
	/* B: a 5-bit ev_sel of one of its counters (000:1161-1178). */
	if (ev->type == NHMEX_BBOX &&
	    (v[NK_EVENT] > 0x1f || v[NK_CTR] >= NHMEX_BBOX_CTRS))
		return -EINVAL;
	/* M: set_flag_sel is 3 bits [EXT]. */
	if (v[NK_FLAG] && v[NK_SEL] > 0x7)
		return -EINVAL;
	if (check_mul_overflow(v[NK_COUNT], v[NK_INC], &prod))
		return -EINVAL;
	/* An occupancy line's increment is the tally. */
	ev->occ_line = seen & (NK(ENQ) | NK(DEQ));
	if (ev->occ_line && (seen & NK(INC)))
		return -EINVAL;

	ev->event = v[NK_EVENT];
	ev->umask = v[NK_UMASK];
	ev->enq = v[NK_ENQ];
	ev->deq = v[NK_DEQ];
	ev->ctr = v[NK_CTR];
	ev->has_pkt = seen & NK(PKT);
	ev->pkt = v[NK_PKT];
	ev->sel = v[NK_SEL];
	ev->flag = v[NK_FLAG];
	for (i = 0; i < ARRAY_SIZE(nhmex_sub_keys); i++) {
		if (!(seen & BIT(nhmex_sub_keys[i].key)))
			continue;
		ev->subs |= BIT(nhmex_sub_keys[i].sub);
		ev->sub[nhmex_sub_keys[i].sub] = v[nhmex_sub_keys[i].key];
	}
	ev->has_fvc = seen & NK(FVC);
	ev->fvc = v[NK_FVC];
	ev->has_addr = seen & NK(ADDR);
	ev->addr = v[NK_ADDR];
	ev->port = v[NK_PORT];
	if (seen & NK(IPERF)) {
		ev->rkind = NHMEX_R_IPERF;
		ev->rval = v[NK_IPERF];
	} else if (seen & NK(QLX)) {
		ev->rkind = NHMEX_R_QLX;
		ev->rval = v[NK_QLX];
	} else {
		ev->rkind = NHMEX_R_XBR;
		ev->rval = v[NK_XBR];
	}
	if (ev->type == NHMEX_RBOX)
		ev->idx = ev->port / NHMEX_RPORTS_PER_HALF;
	ev->count = v[NK_COUNT];
	ev->inc = v[NK_INC];
	return 0;
}

static int nhmex_parse(char *line, void *arg_cmd, unsigned int kind)
{
	struct nhmex_cmd *cmd = arg_cmd;
	u64 v[NK_NR] = { [NK_INC] = 1 };
	struct nhmex_event *ev = &cmd->ev;
	unsigned long seen;
	bool fixed;

	memset(cmd, 0, sizeof(*cmd));
	if (nhmex_parse_kv(line, v, &seen, &ev->type, &fixed))
		return -EINVAL;
	cmd->pkg = v[NK_PKG];
	if (kind == NHMEX_CMD_MSR) {
		if (seen != NHMEX_MSR_KEYS)
			return -EINVAL;
		cmd->msr = v[NK_MSR];
		cmd->value = v[NK_VALUE];
		/* What exists never changes: no lock needed to ask. */
		return nhmex_msr_exists(&nhmex_pkgs[cmd->pkg], cmd->msr) ?
		       0 : -EINVAL;
	}
	if (!(seen & NK(BOX)))
		return -EINVAL;
	ev->idx = v[NK_IDX];
	if (ev->idx >= nhmex_box_count(ev->type))
		return -EINVAL;
	if (kind == NHMEX_CMD_INJECT)
		return nhmex_parse_inject(v, seen, fixed, ev);

	if ((seen & ~NHMEX_COUNTER_KEYS) ||
	    (seen & NHMEX_COUNTER_NEEDED) != NHMEX_COUNTER_NEEDED ||
	    v[NK_VALUE] > NHMEX_CTR_MASK)
		return -EINVAL;
	cmd->value = v[NK_VALUE];
	if (fixed) {
		cmd->ctr = NHMEX_CTR_FIXED;
		return ev->type == NHMEX_WBOX ? 0 : -EINVAL;
	}
	cmd->ctr = v[NK_CTR];
	return cmd->ctr < nhmex_box_nr_ctrs(ev->type) ? 0 : -EINVAL;
}

static void nhmex_apply(const void *arg_cmd, unsigned int kind)
{
	const struct nhmex_cmd *cmd = arg_cmd;
	struct sim_socket *s = &sim_sockets[cmd->pkg];
	struct nhmex_pkg *p = nhmex_pkg_of(s);
	unsigned long flags;
	u64 val = cmd->value;

	sim_lock(s, &flags);
	if (kind == NHMEX_CMD_INJECT)
		nhmex_inject(p, sim_clock_now(), &cmd->ev);
	else if (kind == NHMEX_CMD_COUNTER)
		nhmex_set_counter(p, sim_clock_now(), cmd->ev.type,
				  cmd->ev.idx, cmd->ctr, cmd->value);
	else
		nhmex_reg_access(p, sim_clock_now(), cmd->msr, &val, true);
	sim_unlock(s, flags);
}

#define NHMEX_CMD_FILE(_name, _kind) {					\
	.name = _name, .size = sizeof(struct nhmex_cmd),		\
	.parse = nhmex_parse, .apply = nhmex_apply, .kind = _kind,	\
}

static const struct sim_cmd_file nhmex_files[] = {
	NHMEX_CMD_FILE("inject", NHMEX_CMD_INJECT),
	NHMEX_CMD_FILE("counter", NHMEX_CMD_COUNTER),
	NHMEX_CMD_FILE("msr", NHMEX_CMD_MSR),
};

static void nhmex_show_ctr(struct seq_file *m, const struct nhmex_pkg *p,
			   const struct nhmex_box *b, const char *name,
			   unsigned int i)
{
	const struct nhmex_ctr *c = &b->ctr[i];

	seq_printf(m, "pkg%u %s ctr%u ctl=0x%016llx ctr=0x%012llx total=%llu counting=%d",
		   p->id, name, i, c->ctl, nhmex_ctr_read(p, c), c->total,
		   nhmex_ctr_counting(p, b, i));
	if (b->type == NHMEX_SBOX)
		seq_printf(m, " occ_reset=%d occ=%u", c->occ_reset, c->occ);
	seq_putc(m, '\n');
}

static void nhmex_show_box(struct seq_file *m, const struct nhmex_pkg *p,
			   const struct nhmex_box *b)
{
	const u64 *mm = b->mm, *sub = b->sub;
	char name[12];
	unsigned int i;

	if (nhmex_box_count(b->type) > 1)
		snprintf(name, sizeof(name), "%s%u", nhmex_box_name(b->type),
			 b->idx);
	else
		strscpy(name, nhmex_box_name(b->type), sizeof(name));

	/* The U-Box's box registers are the global ones. */
	if (b->type == NHMEX_UBOX)
		seq_printf(m, "pkg%u %s", p->id, name);
	else
		seq_printf(m, "pkg%u %s ctl=0x%08x status=0x%08x", p->id, name,
			   b->ctl, b->status);
	if (b->type == NHMEX_BBOX)
		seq_printf(m, " match=0x%016llx mask=0x%016llx",
			   mm[NHMEX_MM_MATCH], mm[NHMEX_MM_MASK]);
	if (b->type == NHMEX_SBOX)
		seq_printf(m, " summary=0x%08x mm_cfg=0x%016llx match=0x%016llx mask=0x%016llx",
			   nhmex_s_summary(p, b->idx), mm[NHMEX_MM_CFG],
			   mm[NHMEX_MM_MATCH], mm[NHMEX_MM_MASK]);
	if (b->type == NHMEX_MBOX)
		seq_printf(m, " dsp=0x%016llx iss=0x%016llx map=0x%016llx thr=0x%016llx pgt=0x%016llx pld=0x%016llx zdp=0x%016llx mm_cfg=0x%016llx addr_match=0x%016llx addr_mask=0x%016llx",
			   sub[NHMEX_M_DSP], sub[NHMEX_M_ISS],
			   sub[NHMEX_M_MAP], sub[NHMEX_M_MSC_THR],
			   sub[NHMEX_M_PGT], sub[NHMEX_M_PLD],
			   sub[NHMEX_M_ZDP], mm[NHMEX_MM_CFG],
			   mm[NHMEX_MM_MATCH], mm[NHMEX_MM_MASK]);
	seq_putc(m, '\n');
	for (i = 0; i < b->nr_ctrs; i++)
		nhmex_show_ctr(m, p, b, name, i);
}

/* @p is a snapshot of @s's registers; the PMI delivery counts are live. */
static void nhmex_show_pkg(struct seq_file *m, struct nhmex_pkg *p,
			   struct sim_socket *s)
{
	const struct nhmex_stats *st = &p->stats;
	enum nhmex_box_type t;
	unsigned int i;

	seq_printf(m, "pkg%u info sim_ns=%llu uclk_hz=%llu\n", p->id,
		   p->now_ns, p->uclk_hz);
	seq_printf(m, "pkg%u stats reads=%llu writes=%llu faults=%llu rsvd_writes=%llu gp_mm=%llu illegal_sel=%llu inject_lines=%llu inject_hits=%llu overflows=%llu freezes=%llu pmis=%llu dropped=%llu pmis_sent=%lld pmis_dropped=%lld nmi_busy=%lld live_writes=%llu\n",
		   p->id, st->reads, st->writes, st->faults, st->rsvd_writes,
		   st->gp_mm, st->illegal_sel, st->inject_lines,
		   st->inject_hits, st->overflows, st->freezes, st->pmis,
		   st->dropped, atomic64_read(&s->pmis_sent),
		   atomic64_read(&s->pmis_dropped),
		   atomic64_read(&s->nmi_busy), st->live_writes);
	seq_printf(m, "pkg%u global ctl=0x%08x status=0x%08x pmi_core_sel=0x%02x pmi_owed=%d frozen=%d freeze_pending=%d freeze_at=%llu\n",
		   p->id, p->u_ctl, nhmex_u_status(p),
		   (unsigned int)FIELD_GET(NHMEX_U_GCTL_CORE_SEL, p->u_ctl),
		   p->pmi_owed, p->frozen, p->freeze_pending,
		   p->freeze_pending ? p->freeze_at : 0);
	for (t = 0; t < NHMEX_NR_BOX_TYPES; t++)
		for (i = 0; i < nhmex_box_count(t); i++)
			nhmex_show_box(m, p, nhmex_box(p, t, i));
	seq_printf(m, "pkg%u wbox fixed ctl=0x%016llx ctr=0x%012llx total=%llu counting=%d\n",
		   p->id, p->wfixed.ctl, nhmex_ctr_read(p, &p->wfixed),
		   p->wfixed.total, nhmex_fixed_counting(p));
	for (i = 0; i < NHMEX_NR_RPORTS; i++) {
		const struct nhmex_rport *rp = &p->rport[i];

		seq_printf(m, "pkg%u rport%u iperf0=0x%08x iperf1=0x%08x qlx=0x%08x xbr1=0x%016llx,0x%016llx,0x%016llx xbr2=0x%016llx,0x%016llx,0x%016llx\n",
			   p->id, i, rp->iperf[0], rp->iperf[1], rp->qlx,
			   rp->xbr[0][NHMEX_MM_CFG], rp->xbr[0][NHMEX_MM_MATCH],
			   rp->xbr[0][NHMEX_MM_MASK], rp->xbr[1][NHMEX_MM_CFG],
			   rp->xbr[1][NHMEX_MM_MATCH], rp->xbr[1][NHMEX_MM_MASK]);
	}
}

/* Package @pkg, brought up to date, into @snap (a nhmex_pkg). */
static void nhmex_snapshot(unsigned int pkg, void *snap)
{
	struct sim_socket *s = &sim_sockets[pkg];
	unsigned long flags;

	sim_lock(s, &flags);
	nhmex_advance(nhmex_pkg_of(s), sim_clock_now());
	memcpy(snap, nhmex_pkg_of(s), sizeof(struct nhmex_pkg));
	sim_unlock(s, flags);
}

static void nhmex_state_pkg(struct seq_file *m, unsigned int pkg, void *snap,
			    void *arg)
{
	nhmex_show_pkg(m, snap, &sim_sockets[pkg]);
}

static int nhmex_state_show(struct seq_file *m, void *v)
{
	return sim_each_snapshot(m, sizeof(struct nhmex_pkg), nhmex_snapshot,
				 nhmex_state_pkg, NULL);
}
DEFINE_SHOW_ATTRIBUTE(nhmex_state);

static void nhmex_socket_reset_stats(struct sim_socket *s)
{
	nhmex_reset_stats(nhmex_pkg_of(s));
}

/* ---- audit: what the driver left behind ---------------------------------- */

/* One leftover line if @val is not 0. */
static unsigned int nhmex_audit_reg(struct seq_file *m, unsigned int pkg,
				    const char *where, const char *reg, u64 val)
{
	if (!val)
		return 0;
	seq_printf(m, "pkg%u %s %s=0x%016llx\n", pkg, where, reg, val);
	return 1;
}

static const char * const nhmex_mm_names[NHMEX_NR_MM] = {
	[NHMEX_MM_CFG] = "mm_cfg", [NHMEX_MM_MATCH] = "match",
	[NHMEX_MM_MASK] = "mask",
};

/* The timestamp is the M-Box's own; the rest are what events ask for. */
static const char * const nhmex_sub_names[NHMEX_M_NR_SUB] = {
	[NHMEX_M_DSP] = "dsp", [NHMEX_M_ISS] = "iss", [NHMEX_M_MAP] = "map",
	[NHMEX_M_MSC_THR] = "thr", [NHMEX_M_PGT] = "pgt",
	[NHMEX_M_PLD] = "pld", [NHMEX_M_ZDP] = "zdp",
};

/* Counters with en or pmi_en, then the box's match/mask and sub-controls. */
static unsigned int nhmex_audit_box(struct seq_file *m,
				    const struct nhmex_pkg *p,
				    const struct nhmex_box *b)
{
	u64 en, pmi_en;
	unsigned int i, n = 0;
	char name[12];

	if (nhmex_box_count(b->type) > 1)
		snprintf(name, sizeof(name), "%s%u", nhmex_box_name(b->type),
			 b->idx);
	else
		strscpy(name, nhmex_box_name(b->type), sizeof(name));
	en = nhmex_ctl_en_bits(b->type, &pmi_en);
	for (i = 0; i < b->nr_ctrs; i++) {
		u64 ctl = b->ctr[i].ctl;

		if (!(ctl & (en | pmi_en)))
			continue;
		seq_printf(m, "pkg%u %s ctr%u ctl=0x%016llx%s%s\n", p->id, name,
			   i, ctl, ctl & en ? " enabled" : "",
			   ctl & pmi_en ? " pmi_en" : "");
		n++;
	}
	if (b->type == NHMEX_BBOX || b->type == NHMEX_SBOX ||
	    b->type == NHMEX_MBOX) {
		/* The B-Box has no MM_CFG. */
		for (i = b->type == NHMEX_BBOX; i < NHMEX_NR_MM; i++)
			n += nhmex_audit_reg(m, p->id, name, nhmex_mm_names[i],
					     b->mm[i]);
	}
	if (b->type == NHMEX_MBOX)
		for (i = 0; i < NHMEX_M_NR_SUB; i++)
			if (nhmex_sub_names[i])
				n += nhmex_audit_reg(m, p->id, name,
						     nhmex_sub_names[i],
						     b->sub[i]);
	return n;
}

static unsigned int nhmex_audit_pkg(struct seq_file *m, struct nhmex_pkg *p)
{
	enum nhmex_box_type t;
	unsigned int i, j, n = 0;
	char where[8];

	if (p->pmi_owed || p->freeze_pending || p->frozen ||
	    (p->u_status & NHMEX_U_GSTS_PMI)) {
		seq_printf(m, "pkg%u global status=0x%08x frozen=%d freeze_pending=%d pmi_owed=%d\n",
			   p->id, nhmex_u_status(p), p->frozen,
			   p->freeze_pending, p->pmi_owed);
		n++;
	}
	for (t = 0; t < NHMEX_NR_BOX_TYPES; t++)
		for (i = 0; i < nhmex_box_count(t); i++)
			n += nhmex_audit_box(m, p, nhmex_box(p, t, i));
	if (p->wfixed.ctl & NHMEX_W_FIXED_CTL_EN) {
		seq_printf(m, "pkg%u wbox fixed ctl=0x%016llx enabled\n", p->id,
			   p->wfixed.ctl);
		n++;
	}
	for (i = 0; i < NHMEX_NR_RPORTS; i++) {
		const struct nhmex_rport *rp = &p->rport[i];
		char reg[12];

		snprintf(where, sizeof(where), "rport%u", i);
		n += nhmex_audit_reg(m, p->id, where, "iperf0", rp->iperf[0]);
		n += nhmex_audit_reg(m, p->id, where, "iperf1", rp->iperf[1]);
		n += nhmex_audit_reg(m, p->id, where, "qlx", rp->qlx);
		for (j = 0; j < NHMEX_R_NR_XBR * NHMEX_NR_MM; j++) {
			snprintf(reg, sizeof(reg), "xbr%u_%s",
				 j / NHMEX_NR_MM + 1,
				 nhmex_mm_names[j % NHMEX_NR_MM]);
			n += nhmex_audit_reg(m, p->id, where, reg,
					     rp->xbr[j / NHMEX_NR_MM][j % NHMEX_NR_MM]);
		}
	}
	return n;
}

/*
 * Reserved-bit writes include R controls with an illegal ev_sel; faults
 * include S MATCH/MASK writes the part refuses (gp_mm).
 */
static void nhmex_audit_one(struct seq_file *m, unsigned int pkg, void *snap,
			    void *arg)
{
	struct nhmex_pkg *p = snap;
	struct sim_audit *a = arg;

	a->leftovers += nhmex_audit_pkg(m, p);
	a->rsvd_writes += p->stats.rsvd_writes + p->stats.illegal_sel;
	a->faults += p->stats.faults + p->stats.gp_mm;
}

static int nhmex_audit(struct seq_file *m)
{
	struct sim_audit a = { };

	return sim_each_snapshot(m, sizeof(struct nhmex_pkg), nhmex_snapshot,
				 nhmex_audit_one, &a) ?: sim_audit_end(m, &a);
}

static void nhmex_debugfs_init(struct dentry *dir)
{
	sim_debugfs_cmd_files(dir, nhmex_files, ARRAY_SIZE(nhmex_files));
	debugfs_create_file("state", 0400, dir, NULL, &nhmex_state_fops);
}

const struct sim_model sim_nhmex_model = {
	.part		= "nhmex",
	.name		= "Xeon 7500 (Nehalem-EX)",
	.max_pkgs	= SIM_MAX_PKGS,
	.match		= nhmex_match,
	.init		= nhmex_init,
	.exit		= nhmex_exit,
	.access		= nhmex_access,
	.debugfs_init	= nhmex_debugfs_init,
	.clock_moved	= nhmex_clock_moved,
	.pmi_cores	= NHMEX_PMI_CORES,
	.locked		= nhmex_locked,
	.pmi_wanted	= nhmex_pmi_wanted,
	.pmi_due	= nhmex_pmi_due,
	.pmi_take	= nhmex_pmi_take,
	.audit		= nhmex_audit,
	.reset_stats	= nhmex_socket_reset_stats,
};
