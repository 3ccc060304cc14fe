// SPDX-License-Identifier: GPL-2.0
/*
 * The Broadwell model's debugfs files in /sys/kernel/debug/uncore_sim/:
 * event injection ("inject"), counter preload ("counter") and MSR writes
 * ("msr"), in the core's command file grammar (debugfs.c), and the state
 * dump ("state"); the snapshot of a package the state and audit files
 * print from, and the reset of its statistics. The grammar is documented
 * in Documentation/simulator.rst. Process context; the package lock is
 * taken to apply a command or take a snapshot.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "sim.h"
#include "bdx.h"

enum sim_key {
	SIM_K_PKG,
	SIM_K_BOX,
	SIM_K_IDX,
	SIM_K_EVENT,
	SIM_K_UMASK,
	SIM_K_COUNT,
	SIM_K_INC,
	SIM_K_TID,
	SIM_K_STATE,
	SIM_K_OPC,
	SIM_K_NID,
	SIM_K_NC,
	SIM_K_ISOC,
	SIM_K_FREQ,
	SIM_K_CORES,
	SIM_K_ADDR,
	SIM_K_HOPC,
	SIM_K_TX,
	SIM_K_PKT0,
	SIM_K_PKT1,
	SIM_K_CTR,
	SIM_K_VALUE,
	SIM_K_MSR,
	SIM_K_NR,
};

static const struct {
	const char *name;
	u64 max;
} sim_keys[SIM_K_NR] = {
	[SIM_K_PKG]	= { "pkg",	SIM_MAX_PKGS - 1 },
	[SIM_K_BOX]	= { "box",	0 },
	[SIM_K_IDX]	= { "idx",	SIM_NR_CBO - 1 },
	/* Bit 8 is QPI's ev_sel_ext, as in the perf format (config:0-7,21) */
	[SIM_K_EVENT]	= { "event",	0x1ff },
	[SIM_K_UMASK]	= { "umask",	0xff },
	[SIM_K_COUNT]	= { "count",	U64_MAX },
	[SIM_K_INC]	= { "inc",	U64_MAX },
	[SIM_K_TID]	= { "tid",	0x3f },
	[SIM_K_STATE]	= { "state",	0x7f },
	[SIM_K_OPC]	= { "opc",	0x1ff },
	[SIM_K_NID]	= { "nid",	0xffff },
	[SIM_K_NC]	= { "nc",	1 },
	[SIM_K_ISOC]	= { "isoc",	1 },
	[SIM_K_FREQ]	= { "freq",	0xff },
	[SIM_K_CORES]	= { "cores",	0xff },
	[SIM_K_ADDR]	= { "addr",	GENMASK_ULL(45, 0) },
	[SIM_K_HOPC]	= { "hopc",	0x3f },
	[SIM_K_TX]	= { "tx",	1 },
	[SIM_K_PKT0]	= { "pkt0",	U32_MAX },
	[SIM_K_PKT1]	= { "pkt1",	U32_MAX },
	[SIM_K_CTR]	= { "ctr",	SIM_NR_CTRS - 1 },
	[SIM_K_VALUE]	= { "value",	U64_MAX },
	[SIM_K_MSR]	= { "msr",	U32_MAX },
};

#define SIM_INJECT_KEYS		(GENMASK(SIM_K_PKT1, SIM_K_PKG))
#define SIM_INJECT_NEEDED	(BIT(SIM_K_PKG) | BIT(SIM_K_BOX) | \
				 BIT(SIM_K_EVENT) | BIT(SIM_K_COUNT))
#define SIM_COUNTER_KEYS	(BIT(SIM_K_PKG) | BIT(SIM_K_BOX) | \
				 BIT(SIM_K_IDX) | BIT(SIM_K_CTR) | \
				 BIT(SIM_K_VALUE))
#define SIM_COUNTER_NEEDED	(BIT(SIM_K_PKG) | BIT(SIM_K_BOX) | \
				 BIT(SIM_K_CTR) | BIT(SIM_K_VALUE))
#define SIM_MSR_KEYS		(BIT(SIM_K_PKG) | BIT(SIM_K_MSR) | \
				 BIT(SIM_K_VALUE))

/* What a line written to a command file does. */
enum sim_cmd_kind {
	SIM_CMD_INJECT,
	SIM_CMD_COUNTER,
	SIM_CMD_MSR,
};

/* One parsed line of "inject", "counter" or "msr". */
struct sim_cmd {
	unsigned int pkg;
	struct sim_event ev;
	unsigned int ctr;
	u64 value;
	u32 msr;
};

static int sim_parse_box(const char *s, enum sim_box_type *type)
{
	enum sim_box_type t;

	for (t = 0; t < SIM_NR_BOX_TYPES; t++) {
		if (!strcmp(s, sim_box_name(t))) {
			*type = t;
			return 0;
		}
	}
	return -EINVAL;
}

/* Parses "key=value ..." with keys from @allowed into @v; box into @type. */
static int sim_parse_kv(char *line, unsigned long allowed,
			unsigned long needed, u64 *v, enum sim_box_type *type,
			unsigned long *seen)
{
	char *tok, *val;
	unsigned int k;
	int ret;

	*seen = 0;
	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		for (k = 0; k < SIM_K_NR; k++)
			if (!strcmp(tok, sim_keys[k].name))
				break;
		if (k == SIM_K_NR || !(allowed & BIT(k)) || (*seen & BIT(k)))
			return -EINVAL;
		*seen |= BIT(k);

		if (k == SIM_K_BOX) {
			ret = sim_parse_box(val, type);
		} else if (k == SIM_K_CTR && !strcmp(val, "fixed")) {
			v[k] = SIM_CTR_FIXED;
			ret = 0;
		} else {
			ret = kstrtou64(val, 0, &v[k]);
			if (!ret && v[k] > sim_keys[k].max)
				ret = -EINVAL;
		}
		if (ret)
			return -EINVAL;
	}
	if ((*seen & needed) != needed)
		return -EINVAL;
	if (v[SIM_K_PKG] >= sim_nr_pkgs)
		return -EINVAL;
	return 0;
}

/* Absent boxes are rejected up front; presence never changes. */
static const struct sim_box *sim_present_box(unsigned int pkg,
					     enum sim_box_type type,
					     unsigned int idx)
{
	struct sim_box *box = sim_pkg_box(&sim_bdx_pkgs[pkg], type, idx);

	return box && box->present ? box : NULL;
}

static int sim_parse_cmd(char *line, void *arg_cmd, unsigned int kind)
{
	struct sim_cmd *cmd = arg_cmd;
	struct sim_event *ev = &cmd->ev;
	const struct sim_box *box;
	u64 v[SIM_K_NR] = {
		[SIM_K_INC] = 1,
	};
	unsigned long seen;
	u64 prod;
	int ret;

	if (kind == SIM_CMD_COUNTER)
		ret = sim_parse_kv(line, SIM_COUNTER_KEYS, SIM_COUNTER_NEEDED,
				   v, &ev->type, &seen);
	else if (kind == SIM_CMD_MSR)
		ret = sim_parse_kv(line, SIM_MSR_KEYS, SIM_MSR_KEYS, v,
				   &ev->type, &seen);
	else
		ret = sim_parse_kv(line, SIM_INJECT_KEYS, SIM_INJECT_NEEDED,
				   v, &ev->type, &seen);
	if (ret)
		return ret;

	cmd->pkg = v[SIM_K_PKG];
	if (kind == SIM_CMD_MSR) {
		cmd->msr = v[SIM_K_MSR];
		cmd->value = v[SIM_K_VALUE];
		/* What exists never changes: no lock needed to ask. */
		return sim_msr_exists(&sim_bdx_pkgs[cmd->pkg], cmd->msr) ?
		       0 : -EINVAL;
	}
	ev->idx = v[SIM_K_IDX];
	box = sim_present_box(cmd->pkg, ev->type, ev->idx);
	if (!box)
		return -EINVAL;
	if (kind == SIM_CMD_COUNTER) {
		cmd->ctr = v[SIM_K_CTR];
		cmd->value = v[SIM_K_VALUE];
		if ((box->type == SIM_UBOX || box->type == SIM_IMC) &&
		    cmd->ctr == SIM_CTR_FIXED)
			return 0;
		return cmd->ctr < sim_box_nr_ctrs(box) ? 0 : -EINVAL;
	}

	ev->ev_sel = v[SIM_K_EVENT] & 0xff;
	ev->ext = v[SIM_K_EVENT] & BIT(8);
	if (ev->ext && box->type != SIM_QPI)
		return -EINVAL;
	ev->umask = v[SIM_K_UMASK];
	ev->count = v[SIM_K_COUNT];
	ev->inc = v[SIM_K_INC];
	ev->tid = seen & BIT(SIM_K_TID) ? (int)v[SIM_K_TID] : -1;
	ev->state = v[SIM_K_STATE];
	ev->opc = seen & BIT(SIM_K_OPC) ? (int)v[SIM_K_OPC] : -1;
	ev->nid = v[SIM_K_NID];
	ev->nc = v[SIM_K_NC];
	ev->isoc = v[SIM_K_ISOC];
	ev->freq = v[SIM_K_FREQ];
	ev->cores = v[SIM_K_CORES];
	ev->addr = v[SIM_K_ADDR];
	ev->hopc = seen & BIT(SIM_K_HOPC) ? (int)v[SIM_K_HOPC] : -1;
	ev->tx = v[SIM_K_TX];
	ev->pkt0 = v[SIM_K_PKT0];
	ev->pkt1 = v[SIM_K_PKT1];
	/* The unwrapped totals must stay exact. */
	if (check_mul_overflow(ev->count, max(ev->inc, ev->cores), &prod))
		return -EINVAL;
	return 0;
}

static void sim_apply_cmd(const void *arg_cmd, unsigned int kind)
{
	const struct sim_cmd *cmd = arg_cmd;
	struct sim_socket *s = &sim_sockets[cmd->pkg];
	unsigned long flags;
	u64 now = sim_clock_now();

	sim_lock(s, &flags);
	if (kind == SIM_CMD_COUNTER)
		sim_set_counter(sim_bdx_pkg(s), now, cmd->ev.type, cmd->ev.idx,
				cmd->ctr, cmd->value);
	else if (kind == SIM_CMD_MSR)
		sim_msr_write(sim_bdx_pkg(s), now, cmd->msr, cmd->value);
	else
		sim_inject(sim_bdx_pkg(s), now, &cmd->ev);
	sim_unlock(s, flags);
}

#define SIM_BDX_CMD_FILE(_name, _kind) {				\
	.name = _name, .size = sizeof(struct sim_cmd),			\
	.parse = sim_parse_cmd, .apply = sim_apply_cmd, .kind = _kind,	\
}

static const struct sim_cmd_file sim_bdx_files[] = {
	SIM_BDX_CMD_FILE("inject", SIM_CMD_INJECT),
	SIM_BDX_CMD_FILE("counter", SIM_CMD_COUNTER),
	SIM_BDX_CMD_FILE("msr", SIM_CMD_MSR),
};

static void sim_show_ctr(struct seq_file *m, const struct sim_pkg *pkg,
			 const struct sim_box *box, const char *name,
			 unsigned int i)
{
	const struct sim_ctr *c = &box->ctr[i];

	seq_printf(m, "pkg%u %s ctr%u ctl=0x%08x ctr=0x%012llx total=%llu counting=%d",
		   pkg->id, name, i, c->ctl, c->val, c->total,
		   sim_ctr_counting(pkg, box, c));
	if (box->type == SIM_SBO || box->type == SIM_R2PCIE ||
	    box->type == SIM_R3QPI)
		seq_printf(m, " latched=%d", c->latched);
	seq_putc(m, '\n');
}

static void sim_show_box(struct seq_file *m, const struct sim_pkg *pkg,
			 const struct sim_box *box)
{
	char name[12];
	unsigned int i;

	if (!box->present)
		return;
	if (sim_box_count(box->type) > 1)
		snprintf(name, sizeof(name), "%s%u", sim_box_name(box->type),
			 box->idx);
	else
		strscpy(name, sim_box_name(box->type), sizeof(name));

	seq_printf(m, "pkg%u %s status=0x%08x", pkg->id, name, box->status);
	if (box->type != SIM_UBOX)
		seq_printf(m, " frozen=%d", box->frozen);
	if (box->type == SIM_CBO)
		seq_printf(m, " filter0=0x%08x filter1=0x%08x",
			   box->filter[0], box->filter[1]);
	if (box->type == SIM_PCU)
		seq_printf(m, " filter=0x%08x", box->filter[0]);
	if (box->type == SIM_HA)
		seq_printf(m, " addrmatch0=0x%08x addrmatch1=0x%08x opcodematch=0x%08x",
			   box->filter[0], box->filter[1], box->filter[2]);
	if (box->type == SIM_QPI)
		seq_printf(m, " rx_match=0x%08x,0x%08x rx_mask=0x%08x,0x%08x tx_match=0x%08x,0x%08x tx_mask=0x%08x,0x%08x",
			   box->filter[SIM_QPI_RX_MATCH0],
			   box->filter[SIM_QPI_RX_MATCH1],
			   box->filter[SIM_QPI_RX_MASK0],
			   box->filter[SIM_QPI_RX_MASK1],
			   box->filter[SIM_QPI_TX_MATCH0],
			   box->filter[SIM_QPI_TX_MATCH1],
			   box->filter[SIM_QPI_TX_MASK0],
			   box->filter[SIM_QPI_TX_MASK1]);
	seq_putc(m, '\n');
	for (i = 0; i < sim_box_nr_ctrs(box); i++)
		sim_show_ctr(m, pkg, box, name, i);
	if (box->type == SIM_IMC)
		seq_printf(m, "pkg%u %s fixed ctl=0x%08x ctr=0x%012llx total=%llu\n",
			   pkg->id, name, box->fixed.ctl, box->fixed.val,
			   box->fixed.total);
}

/* @pkg is a snapshot of @s's; the PMI delivery counts are read live. */
static void sim_show_pkg(struct seq_file *m, const struct sim_pkg *pkg,
			 struct sim_socket *s)
{
	const struct sim_stats *st = &pkg->stats;
	unsigned int i, imc = 0;

	for (i = 0; i < SIM_NR_IMC; i++)
		imc |= pkg->imc[i].present << i;
	seq_printf(m, "pkg%u info nodeid=%u capid4=0x%08x capid5=0x%06x imc=0x%02x sim_ns=%llu uclk_hz=%llu pclk_hz=%llu dclk_hz=%llu qclk_hz=%llu\n",
		   pkg->id, pkg->nodeid, pkg->capid4, pkg->capid5, imc,
		   pkg->now_ns, pkg->uclk_hz, pkg->pclk_hz, pkg->dclk_hz,
		   pkg->qclk_hz);
	seq_printf(m, "pkg%u stats msr_reads=%llu msr_writes=%llu msr_faults=%llu pci_reads=%llu pci_writes=%llu rsvd_writes=%llu boxctl_no_must1=%llu overflows=%llu split_carries=%llu inject_lines=%llu inject_hits=%llu freezes=%llu pmis_sent=%lld pmis_dropped=%lld frozen_drops=%llu nmi_busy=%lld foreign_nmis=%lld frozen_ns=%llu frozen_max_ns=%llu live_writes=%llu\n",
		   pkg->id, st->msr_reads, st->msr_writes, st->msr_faults,
		   st->pci_reads, st->pci_writes, st->rsvd_writes,
		   st->boxctl_no_must1, st->overflows, st->split_carries,
		   st->inject_lines, st->inject_hits, st->freezes,
		   atomic64_read(&s->pmis_sent),
		   atomic64_read(&s->pmis_dropped), st->frozen_drops,
		   atomic64_read(&s->nmi_busy),
		   atomic64_read(&s->foreign_nmis), st->frozen_ns,
		   st->frozen_max_ns, st->live_writes);
	seq_printf(m, "pkg%u global ctl=0x%08x status=0x%09llx config=0x%08x frozen=%d freeze_pending=%d freeze_at=%llu pmi_owed=%d\n",
		   pkg->id, pkg->global_ctl, pkg->global_status,
		   pkg->global_config, pkg->global_frozen,
		   pkg->freeze_pending,
		   pkg->freeze_pending ? pkg->freeze_at : 0, pkg->pmi_pending);
	seq_printf(m, "pkg%u ubox fixed ctl=0x%08x ctr=0x%012llx total=%llu counting=%d\n",
		   pkg->id, pkg->fixed.ctl, pkg->fixed.val, pkg->fixed.total,
		   (pkg->fixed.ctl & SIM_FIXED_CTL_EN) && !pkg->global_frozen);
	sim_show_box(m, pkg, &pkg->ubox);
	for (i = 0; i < SIM_NR_CBO; i++)
		sim_show_box(m, pkg, &pkg->cbo[i]);
	for (i = 0; i < SIM_NR_SBO; i++)
		sim_show_box(m, pkg, &pkg->sbo[i]);
	sim_show_box(m, pkg, &pkg->pcu);
	for (i = 0; i < SIM_NR_HA; i++)
		sim_show_box(m, pkg, &pkg->ha[i]);
	for (i = 0; i < SIM_NR_IMC; i++)
		sim_show_box(m, pkg, &pkg->imc[i]);
	sim_show_box(m, pkg, &pkg->irp);
	for (i = 0; i < SIM_NR_QPI; i++)
		sim_show_box(m, pkg, &pkg->qpi[i]);
	sim_show_box(m, pkg, &pkg->r2pcie);
	for (i = 0; i < SIM_NR_R3QPI; i++)
		sim_show_box(m, pkg, &pkg->r3qpi[i]);
}

/**
 * sim_bdx_snapshot() - a copy of a package's state, for printing unlocked
 * @pkg: the package's number
 * @snap: where to copy it, a struct sim_pkg
 *
 * Broadwell package @pkg, brought up to date, into @snap (a sim_pkg).
 * Takes the package lock; for sim_each_snapshot().
 */
void sim_bdx_snapshot(unsigned int pkg, void *snap)
{
	struct sim_socket *s = &sim_sockets[pkg];
	u64 now = sim_clock_now();
	unsigned long flags;

	sim_lock(s, &flags);
	sim_pkg_advance(sim_bdx_pkg(s), now);
	memcpy(snap, sim_bdx_pkg(s), sizeof(struct sim_pkg));
	sim_unlock(s, flags);
}

static void sim_state_pkg(struct seq_file *m, unsigned int pkg, void *snap,
			  void *arg)
{
	sim_show_pkg(m, snap, &sim_sockets[pkg]);
}

static int sim_state_show(struct seq_file *m, void *v)
{
	return sim_each_snapshot(m, sizeof(struct sim_pkg), sim_bdx_snapshot,
				 sim_state_pkg, NULL);
}

static int sim_state_open(struct inode *inode, struct file *file)
{
	return single_open(file, sim_state_show, NULL);
}

static const struct file_operations sim_state_fops = {
	.owner		= THIS_MODULE,
	.open		= sim_state_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/**
 * sim_bdx_reset_stats() - a package's statistics back to 0
 * @s: the package, locked
 *
 * The Broadwell model's statistics (struct sim_model.reset_stats).
 */
void sim_bdx_reset_stats(struct sim_socket *s)
{
	sim_pkg_reset_stats(sim_bdx_pkg(s));
}

/**
 * sim_bdx_debugfs_init() - the Broadwell model's own debugfs files
 * @dir: the simulator's directory
 *
 * The Broadwell model's command and state files (&sim_model.debugfs_init).
 */
void sim_bdx_debugfs_init(struct dentry *dir)
{
	sim_debugfs_cmd_files(dir, sim_bdx_files, ARRAY_SIZE(sim_bdx_files));
	debugfs_create_file("state", 0400, dir, NULL, &sim_state_fops);
}
