// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_sim: the iFSB/L3 counters of the 64-bit Intel Xeon MP with up to
 * 8 MB L3 (NetBurst, family 0Fh model 03h/04h; SDM 18.20, seed 003).
 *
 * Eight 64-bit MSRs per physical package, 0x107CC-0x107D3, shared by
 * every logical CPU of it ("Shared" in the SDM's MSR table [EXT]; 003:7-12
 * says it only of the NetBurst core PMU, for the two threads of a core).
 * Slots 0-5 hold a 32-bit count in bits 31:0 and count while bits 63:32
 * are non-zero (003:33-35; EFSB's while a qualification bit is, [EXT]); a
 * write stores all 64 bits, the count included. A Saturate bit sticks the
 * count at 0xFFFFFFFF (p4mp.h). Slot 6 (CTL6) only controls slot 7
 * (CNTR7), which counts while CTL6's enable bit is set, bit 26 or 58 (the
 * digest's two readings of the SDM's "bit 26", [EXT]; parameter
 * p4mp_lat_bit), and is 64 bits wide as the SDM's prose says [EXT] or 32
 * as 003:27-29 lists it (parameter p4mp_cntr7_bits). Any other MSR
 * faults. There is no interrupt and no overflow flag: a count wraps at
 * 2^32 or 2^64.
 *
 * Occurrences come from debugfs, one at a time (count=) or as a rate per
 * second of sim time (rate=), which with sim time frozen and advanced in
 * steps wraps a counter as often as a test likes. Each counter also keeps
 * the unwrapped total it counted: the truth a test compares with.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <asm/processor.h>
#include <uncore_pmu/cpuid.h>

#include "p4mp.h"
#include "sim.h"

static unsigned int p4mp_lat_bit = 26;
module_param(p4mp_lat_bit, uint, 0444);
MODULE_PARM_DESC(p4mp_lat_bit,
		 "Xeon MP L3 model: the CTL6 bit that makes CNTR7 count, 26 or 58");

static unsigned int p4mp_cntr7_bits = 64;
module_param(p4mp_cntr7_bits, uint, 0444);
MODULE_PARM_DESC(p4mp_cntr7_bits,
		 "Xeon MP L3 model: CNTR7's width, 64 (the SDM's prose) or 32 (003:27-29)");

static struct p4mp_pkg *p4mp_pkgs;

/* Units as the driver names its PMUs; idx picks the MSR within one. */
static const struct {
	const char *name;
	unsigned int first;
	unsigned int n;
} p4mp_units[] = {
	{ "ibusq", 0, 2 },
	{ "isnpq", 2, 2 },
	{ "efsb", 4, 2 },
	{ "lat", P4MP_CNTR7, 1 },
};

static struct p4mp_pkg *p4mp_this_pkg(void)
{
	int pkg = sim_this_pkg();

	return pkg >= 0 ? &p4mp_pkgs[pkg] : NULL;
}

/*
 * The MSR seam, from the driver on any CPU of the package with IRQs off or
 * not; never from NMI on this part (it has no PMI), so a spinlock does.
 */
static int p4mp_access(u32 msr, u64 *val, bool write)
{
	struct p4mp_pkg *p = p4mp_this_pkg();
	unsigned long flags;
	int ret;

	if (!p) {
		if (!write)
			*val = 0;
		return -EIO;
	}
	raw_spin_lock_irqsave(&p->lock, flags);
	ret = p4mp_reg_access(p, sim_clock_now(), msr, val, write);
	raw_spin_unlock_irqrestore(&p->lock, flags);
	return ret;
}

/* A NetBurst part with an L3 (CPUID leaf 4), as the driver probes it. */
static bool p4mp_match(void)
{
	return boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
	       boot_cpu_data.x86 == 15 &&
	       (boot_cpu_data.x86_model == 3 || boot_cpu_data.x86_model == 4) &&
	       uncore_cpu_has_l3();
}

static int p4mp_init(u64 now)
{
	unsigned int i;

	if (p4mp_lat_bit != 26 && p4mp_lat_bit != 58) {
		pr_err("p4mp_lat_bit: 26 or 58\n");
		return -EINVAL;
	}
	if (p4mp_cntr7_bits != 32 && p4mp_cntr7_bits != 64) {
		pr_err("p4mp_cntr7_bits: 32 or 64\n");
		return -EINVAL;
	}
	p4mp_pkgs = kcalloc(sim_nr_pkgs, sizeof(*p4mp_pkgs), GFP_KERNEL);
	if (!p4mp_pkgs)
		return -ENOMEM;
	for (i = 0; i < sim_nr_pkgs; i++) {
		raw_spin_lock_init(&p4mp_pkgs[i].lock);
		p4mp_pkg_init(&p4mp_pkgs[i], p4mp_lat_bit, p4mp_cntr7_bits, now);
	}
	return 0;
}

static void p4mp_exit(void)
{
	kfree(p4mp_pkgs);
}

/* ---- debugfs ------------------------------------------------------------ */

/* What a file's lines do. */
enum p4mp_cmd_kind {
	P4MP_CMD_COUNTER,
	P4MP_CMD_INJECT,
	P4MP_CMD_MSR,
};

/**
 * struct p4mp_cmd - one parsed line of "inject", "counter" or "msr"
 * @pkg: package
 * @reg: inject, counter: register index (0-7)
 * @count: inject: occurrences
 * @rate: inject: occurrences per second from now on
 * @value: counter: the count to load; msr: the value written
 * @msr: msr: the MSR
 * @has_rate: the line set a rate rather than injecting a count
 */
struct p4mp_cmd {
	unsigned int pkg;
	unsigned int reg;
	u64 count;
	u64 rate;
	u64 value;
	u32 msr;
	bool has_rate;
};

/* rate * sim time / 1e9 must fit 64 bits (SIM_TIME_MAX_NS is 2^60). */
#define P4MP_MAX_RATE	10000000000ULL

/*
 * "pkg=N box=UNIT idx=I" and then count=N or rate=R (inject) or value=V
 * (counter); "pkg=N msr=M value=V" (msr). Every key once, nothing else.
 */
static int p4mp_parse(char *line, void *arg_cmd, unsigned int kind)
{
	struct p4mp_cmd *cmd = arg_cmd;
	u64 pkg = U64_MAX, idx = 0, num = 0, msr = U64_MAX;
	int unit = -1, seen_num = 0;
	bool inject = kind == P4MP_CMD_INJECT;
	char *tok, *val;
	unsigned int u;

	memset(cmd, 0, sizeof(*cmd));
	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "box") && kind != P4MP_CMD_MSR) {
			if (unit >= 0)
				return -EINVAL;
			for (u = 0; u < ARRAY_SIZE(p4mp_units); u++)
				if (!strcmp(val, p4mp_units[u].name))
					unit = u;
			if (unit < 0)
				return -EINVAL;
			continue;
		}
		if (!strcmp(tok, "pkg")) {
			if (pkg != U64_MAX || kstrtou64(val, 0, &pkg))
				return -EINVAL;
		} else if (!strcmp(tok, "idx") && kind != P4MP_CMD_MSR) {
			if (kstrtou64(val, 0, &idx))
				return -EINVAL;
		} else if (!strcmp(tok, "msr") && kind == P4MP_CMD_MSR) {
			if (msr != U64_MAX || kstrtou64(val, 0, &msr))
				return -EINVAL;
		} else if ((inject && (!strcmp(tok, "count") ||
				       !strcmp(tok, "rate"))) ||
			   (!inject && !strcmp(tok, "value"))) {
			if (seen_num++ || kstrtou64(val, 0, &num))
				return -EINVAL;
			cmd->has_rate = !strcmp(tok, "rate");
		} else {
			return -EINVAL;
		}
	}
	if (kind == P4MP_CMD_MSR) {
		if (pkg >= sim_nr_pkgs || !seen_num || msr > U32_MAX ||
		    p4mp_index(msr) < 0)
			return -EINVAL;
		cmd->pkg = pkg;
		cmd->msr = msr;
		cmd->value = num;
		return 0;
	}
	if (pkg >= sim_nr_pkgs || unit < 0 || !seen_num ||
	    idx >= p4mp_units[unit].n)
		return -EINVAL;
	cmd->pkg = pkg;
	cmd->reg = p4mp_units[unit].first + idx;
	if (!inject) {
		if (num > (cmd->reg == P4MP_CNTR7 ? p4mp_pkgs[pkg].cntr7_mask :
			    P4MP_COUNT))
			return -EINVAL;
		cmd->value = num;
	} else if (cmd->has_rate) {
		if (num > P4MP_MAX_RATE)
			return -EINVAL;
		cmd->rate = num;
	} else {
		cmd->count = num;
	}
	return 0;
}

static void p4mp_apply(const void *arg_cmd, unsigned int kind)
{
	const struct p4mp_cmd *cmd = arg_cmd;
	struct p4mp_pkg *p = &p4mp_pkgs[cmd->pkg];
	unsigned long flags;
	u64 val = cmd->value;

	raw_spin_lock_irqsave(&p->lock, flags);
	p4mp_advance(p, sim_clock_now());
	if (kind == P4MP_CMD_MSR) {
		/* As a CPU of the package would: another agent's write. */
		p4mp_reg_access(p, sim_clock_now(), cmd->msr, &val, true);
	} else if (kind == P4MP_CMD_COUNTER) {
		if (cmd->reg == P4MP_CNTR7)
			p->reg[cmd->reg] = cmd->value;
		else
			p->reg[cmd->reg] = (p->reg[cmd->reg] & ~P4MP_COUNT) |
					   cmd->value;
	} else if (cmd->has_rate) {
		p->rate[cmd->reg] = cmd->rate;
		p->frac[cmd->reg] = 0;
	} else if (!p4mp_add(p, cmd->reg, cmd->count)) {
		p->dropped += cmd->count;
	}
	raw_spin_unlock_irqrestore(&p->lock, flags);
}

#define P4MP_CMD_FILE(_name, _kind) {					\
	.name = _name, .size = sizeof(struct p4mp_cmd),			\
	.parse = p4mp_parse, .apply = p4mp_apply, .kind = _kind,	\
}

static const struct sim_cmd_file p4mp_files[] = {
	P4MP_CMD_FILE("inject", P4MP_CMD_INJECT),
	P4MP_CMD_FILE("counter", P4MP_CMD_COUNTER),
	P4MP_CMD_FILE("msr", P4MP_CMD_MSR),
};

/* Package @pkg, brought up to date, into @snap (a p4mp_pkg). */
static void p4mp_snapshot(unsigned int pkg, void *snap)
{
	struct p4mp_pkg *p = &p4mp_pkgs[pkg];
	unsigned long flags;

	raw_spin_lock_irqsave(&p->lock, flags);
	p4mp_advance(p, sim_clock_now());
	memcpy(snap, p, sizeof(*p));
	raw_spin_unlock_irqrestore(&p->lock, flags);
}

/*
 * Per package a line of access counts, then per register its MSR, value,
 * whether it counts, its unwrapped total and its rate.
 */
static void p4mp_state_pkg(struct seq_file *m, unsigned int pkg, void *snap,
			   void *arg)
{
	const struct p4mp_pkg *p = snap;
	unsigned int i;

	seq_printf(m, "pkg %u reads=%llu writes=%llu faults=%llu dropped=%llu\n",
		   pkg, p->reads, p->writes, p->faults, p->dropped);
	for (i = 0; i < P4MP_NR_MSRS; i++)
		seq_printf(m, "  msr=0x%x val=0x%016llx counting=%d total=%llu rate=%llu\n",
			   P4MP_MSR_FIRST + i, p->reg[i], p4mp_counting(p, i),
			   p->total[i], p->rate[i]);
}

static int p4mp_state_show(struct seq_file *m, void *v)
{
	return sim_each_snapshot(m, sizeof(struct p4mp_pkg), p4mp_snapshot,
				 p4mp_state_pkg, NULL);
}
DEFINE_SHOW_ATTRIBUTE(p4mp_state);

/*
 * What the driver left behind: a counter that counts (a slot's control
 * half not 0, CNTR7 with CTL6's enable bit). The model has no reserved
 * bits; faults are accesses to MSRs the part does not have.
 */
static void p4mp_audit_pkg(struct seq_file *m, unsigned int pkg, void *snap,
			   void *arg)
{
	const struct p4mp_pkg *p = snap;
	struct sim_audit *a = arg;
	unsigned int i, u;

	a->faults += p->faults;
	for (u = 0; u < ARRAY_SIZE(p4mp_units); u++) {
		for (i = 0; i < p4mp_units[u].n; i++) {
			unsigned int r = p4mp_units[u].first + i;

			if (!p4mp_counting(p, r))
				continue;
			seq_printf(m, "pkg%u %s%u msr=0x%x val=0x%016llx ctl6=0x%016llx enabled\n",
				   pkg, p4mp_units[u].name, i,
				   P4MP_MSR_FIRST + r, p->reg[r],
				   p->reg[P4MP_CTL6]);
			a->leftovers++;
		}
	}
}

static int p4mp_audit(struct seq_file *m)
{
	struct sim_audit a = { };

	return sim_each_snapshot(m, sizeof(struct p4mp_pkg), p4mp_snapshot,
				 p4mp_audit_pkg, &a) ?: sim_audit_end(m, &a);
}

static void p4mp_debugfs_init(struct dentry *dir)
{
	sim_debugfs_cmd_files(dir, p4mp_files, ARRAY_SIZE(p4mp_files));
	debugfs_create_file("state", 0400, dir, NULL, &p4mp_state_fops);
}

const struct sim_model sim_p4mp_model = {
	.part		= "p4mp",
	.name		= "64-bit Xeon MP with L3 (NetBurst)",
	.max_pkgs	= SIM_MAX_PKGS,
	.match		= p4mp_match,
	.init		= p4mp_init,
	.exit		= p4mp_exit,
	.access		= p4mp_access,
	.debugfs_init	= p4mp_debugfs_init,
	.audit		= p4mp_audit,
};
