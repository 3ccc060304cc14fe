// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_sim: the performance counters of the AMD K8 (Athlon 64 /
 * Opteron, CPUID family 0Fh; BKDG chapter 10, seed 004), with the
 * Northbridge event slots its cores share.
 *
 * Every core has four 48-bit counters, PerfCtr0-3, each with its
 * PerfEvtSel (004:9, 19, 44-46); a node is a package (sim "pkg"), and
 * each CPU of it one core (K8 has no SMT). An NB event (E0h-FFh)
 * selected on index i of any core goes to the node's one NB slot of
 * index i, last writer wins, and every core counting NB on i counts what
 * the slot selects (004:38; digest §6, [INF]). A carry out of bit 47 with
 * INT asks for a PMI to that core, which pmi.c delivers as an NMI; there
 * is no overflow status (digest §5). Any other MSR faults (-EIO).
 * The registers are in k8_regs.c; here the locking (socket.c's package
 * locks, safe in NMI context), the map from CPUs to cores, the MSR seam,
 * the hooks for PMI delivery and debugfs.
 *
 * Occurrences come from debugfs, as does whether a core is halted (the
 * guest's own idle state is not followed). Each counter keeps the
 * unwrapped total it counted: the truth a test compares with.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <asm/processor.h>

#include "k8.h"
#include "sim.h"

/*
 * pmi.c names the target of a PMI by its core ID (topology_core_id())
 * within the package, as a u32 mask: a core whose ID is 32 or more gets
 * none (pmis_dropped).
 */
#define K8_PMI_CORES		32

/**
 * struct k8_sim_node - a node's registers and the CPUs of its cores
 * @regs: the register model
 * @nr_cores: cores modelled, positions 0 to @nr_cores - 1
 * @cpu: the Linux CPU at each position
 * @core_id: its topology_core_id(), which pmi.c delivers PMIs by
 */
struct k8_sim_node {
	struct k8_node regs;
	unsigned int nr_cores;
	unsigned int cpu[K8_MAX_CORES];
	unsigned int core_id[K8_MAX_CORES];
};

/**
 * struct k8_cpu - where a CPU's counters are
 * @node: its package
 * @core: its position in the node; -1 if it is not modelled
 */
struct k8_cpu {
	int node;
	int core;
};

/*
 * Node n's registers; sim_sockets[n] has the lock that serialises them
 * (taken through sim_lock() by every accessor) and its PMI machinery.
 */
static struct k8_sim_node *k8_nodes;
/* Per possible CPU, set at load and never changed. */
static struct k8_cpu *k8_cpus;

static struct k8_node *k8_node_of(const struct sim_socket *s)
{
	return &k8_nodes[s->id].regs;
}

/* The calling CPU's position in node @pkg; K8_MAX_CORES for none. */
static unsigned int k8_this_core(int pkg)
{
	const struct k8_cpu *kc = &k8_cpus[smp_processor_id()];

	return kc->node == pkg && kc->core >= 0 ? kc->core : K8_MAX_CORES;
}

/*
 * The MSR seam, on the CPU whose counters are meant (they are per core),
 * in NMI context too. -EBUSY: an NMI interrupted this CPU inside the
 * simulator (see sim_nmi_busy()). A CPU the model does not keep faults,
 * counted in its node's faults.
 */
static int k8_access(u32 msr, u64 *val, bool write)
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
	ret = k8_reg_access(k8_node_of(s), k8_this_core(pkg), msr, val, write);
	sim_unlock(s, flags);
	return ret;
}

/* PMI delivery (pmi.c): wanted, and due at once, while one is owed. */
static bool k8_pmi_wanted(const struct sim_socket *s)
{
	return k8_pmi_owed(k8_node_of(s));
}

static u64 k8_pmi_due(struct sim_socket *s, u64 now)
{
	return k8_pmi_owed(k8_node_of(s)) ? now : U64_MAX;
}

/*
 * The owed PMIs, to the cores' IDs. K8 has no wake-on-PMI control; an
 * NMI wakes a halted core [INF]. A core whose ID does not fit the mask
 * gets none.
 */
static bool k8_pmi_take(struct sim_socket *s, u64 now, u32 *cores,
			bool *wake)
{
	const struct k8_sim_node *kn = &k8_nodes[s->id];
	unsigned long owed = k8_take_pmi(k8_node_of(s));
	unsigned int j;
	u32 mask = 0;

	for_each_set_bit(j, &owed, K8_MAX_CORES) {
		if (kn->core_id[j] < K8_PMI_CORES)
			mask |= BIT(kn->core_id[j]);
		else
			atomic64_inc(&s->pmis_dropped);
	}
	*cores = mask;
	*wake = true;
	return mask != 0;
}

/* K8 is AMD family 0Fh (digest §1, [EXT]). */
static bool k8_match(void)
{
	return boot_cpu_data.x86_vendor == X86_VENDOR_AMD &&
	       boot_cpu_data.x86 == 0xf;
}

/*
 * A core's position in its node is its CPU's rank by number among the
 * node's present CPUs at load: dense whatever the core IDs are (the test
 * guests' are sparse, 0 and 19). CPUs past K8_MAX_CORES in a node, and
 * CPUs not present at load, are not modelled.
 */
static void k8_map_cpus(void)
{
	unsigned int cpu, j;

	for_each_possible_cpu(cpu) {
		k8_cpus[cpu].node = -1;
		k8_cpus[cpu].core = -1;
	}
	for_each_present_cpu(cpu) {
		unsigned int pkg = topology_physical_package_id(cpu);
		struct k8_sim_node *kn;

		if (pkg >= sim_nr_pkgs)
			continue;
		kn = &k8_nodes[pkg];
		k8_cpus[cpu].node = pkg;
		if (kn->nr_cores == K8_MAX_CORES) {
			pr_warn("CPU %u: node %u has more than %d cores, not modelled\n",
				cpu, pkg, K8_MAX_CORES);
			continue;
		}
		/* pmi.c sends a core's PMI to its lowest-numbered CPU. */
		for (j = 0; j < kn->nr_cores; j++)
			if (kn->core_id[j] == topology_core_id(cpu))
				pr_warn("CPUs %u and %u share core ID %u: PMIs go to the first\n",
					kn->cpu[j], cpu, kn->core_id[j]);
		j = kn->nr_cores++;
		kn->cpu[j] = cpu;
		kn->core_id[j] = topology_core_id(cpu);
		k8_cpus[cpu].core = j;
		k8_core_add(&kn->regs, j);
	}
}

static int k8_init(u64 now)
{
	unsigned int i;
	int ret;

	k8_nodes = kcalloc(sim_nr_pkgs, sizeof(*k8_nodes), GFP_KERNEL);
	k8_cpus = kcalloc(nr_cpu_ids, sizeof(*k8_cpus), GFP_KERNEL);
	if (!k8_nodes || !k8_cpus) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0; i < sim_nr_pkgs; i++)
		k8_node_init(&k8_nodes[i].regs, i);
	k8_map_cpus();
	ret = sim_pmi_init();
	if (ret)
		goto err;
	/* Last: once registered, events may count on the model. */
	ret = k8_pmu_init();
	if (ret)
		goto pmi;
	return 0;
pmi:
	sim_pmi_exit();
err:
	kfree(k8_cpus);
	kfree(k8_nodes);
	return ret;
}

/* No hook runs, and nothing is delivered, once sim_pmi_exit() returns. */
static void k8_exit(void)
{
	k8_pmu_exit();
	sim_pmi_exit();
	kfree(k8_cpus);
	kfree(k8_nodes);
}

/* ---- debugfs ------------------------------------------------------------ */

enum k8_key {
	K8K_PKG,
	K8K_CPU,
	K8K_EVENT,
	K8K_UMASK,
	K8K_COUNT,
	K8K_INC,
	K8K_CTR,
	K8K_VALUE,
	K8K_MSR,
	K8K_HALTED,
	K8K_NR,
};

static const struct {
	const char *name;
	u64 max;
} k8_keys[K8K_NR] = {
	[K8K_PKG]	= { "pkg",	SIM_MAX_PKGS - 1 },
	[K8K_CPU]	= { "cpu",	INT_MAX },
	[K8K_EVENT]	= { "event",	0xff },
	[K8K_UMASK]	= { "umask",	0xff },
	[K8K_COUNT]	= { "count",	U64_MAX },
	[K8K_INC]	= { "inc",	K8_MAX_INC },
	[K8K_CTR]	= { "ctr",	K8_NR_CTRS - 1 },
	[K8K_VALUE]	= { "value",	U64_MAX },
	[K8K_MSR]	= { "msr",	U32_MAX },
	[K8K_HALTED]	= { "halted",	1 },
};

#define K8K(k)			BIT(K8K_##k)
#define K8_INJECT_NB_KEYS	(K8K(PKG) | K8K(EVENT) | K8K(UMASK) | \
				 K8K(COUNT) | K8K(INC))
#define K8_INJECT_NB_NEEDED	(K8K(PKG) | K8K(EVENT) | K8K(COUNT))
#define K8_INJECT_CORE_KEYS	(K8K(CPU) | K8K(EVENT) | K8K(UMASK) | \
				 K8K(COUNT) | K8K(INC))
#define K8_INJECT_CORE_NEEDED	(K8K(CPU) | K8K(EVENT) | K8K(COUNT))
#define K8_COUNTER_KEYS		(K8K(CPU) | K8K(CTR) | K8K(VALUE))
#define K8_MSR_KEYS		(K8K(CPU) | K8K(MSR) | K8K(VALUE))
#define K8_HALT_KEYS		(K8K(CPU) | K8K(HALTED))

enum k8_cmd_kind {
	K8_CMD_INJECT,
	K8_CMD_COUNTER,
	K8_CMD_MSR,
	K8_CMD_HALT,
};

/**
 * struct k8_cmd - one parsed line of "inject", "counter", "msr" or "halt"
 * @pkg: the node
 * @ev: inject: the occurrence; every other command: @ev.core is the core
 * @ctr: counter: the counter index
 * @value: counter, msr: the value
 * @msr: msr: the MSR
 * @halted: halt: the core's new state
 */
struct k8_cmd {
	unsigned int pkg;
	struct k8_event ev;
	unsigned int ctr;
	u64 value;
	u32 msr;
	bool halted;
};

/* "key=value ..." into @v, each key once, within the keys' limits. */
static int k8_parse_kv(char *line, u64 *v, unsigned long *seen)
{
	char *tok, *val;
	unsigned int k;

	*seen = 0;
	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		for (k = 0; k < K8K_NR; k++)
			if (!strcmp(tok, k8_keys[k].name))
				break;
		if (k == K8K_NR || (*seen & BIT(k)))
			return -EINVAL;
		*seen |= BIT(k);
		if (kstrtou64(val, 0, &v[k]) || v[k] > k8_keys[k].max)
			return -EINVAL;
	}
	return 0;
}

/* The keys a command takes and needs; an inject line by pkg or cpu. */
static void k8_cmd_keys(unsigned int kind, unsigned long seen,
			unsigned long *keys, unsigned long *needed)
{
	switch (kind) {
	case K8_CMD_INJECT:
		if (seen & K8K(PKG)) {
			*keys = K8_INJECT_NB_KEYS;
			*needed = K8_INJECT_NB_NEEDED;
		} else {
			*keys = K8_INJECT_CORE_KEYS;
			*needed = K8_INJECT_CORE_NEEDED;
		}
		break;
	case K8_CMD_COUNTER:
		*keys = K8_COUNTER_KEYS;
		*needed = K8_COUNTER_KEYS;
		break;
	case K8_CMD_MSR:
		*keys = K8_MSR_KEYS;
		*needed = K8_MSR_KEYS;
		break;
	default:
		*keys = K8_HALT_KEYS;
		*needed = K8_HALT_KEYS;
		break;
	}
}

static int k8_parse(char *line, void *arg_cmd, unsigned int kind)
{
	u64 v[K8K_NR] = { [K8K_INC] = 1 };
	struct k8_cmd *cmd = arg_cmd;
	struct k8_event *ev = &cmd->ev;
	unsigned long seen, keys, needed;
	u64 prod;

	memset(cmd, 0, sizeof(*cmd));
	if (k8_parse_kv(line, v, &seen))
		return -EINVAL;
	k8_cmd_keys(kind, seen, &keys, &needed);
	if ((seen & ~keys) || (seen & needed) != needed)
		return -EINVAL;
	if (seen & K8K(CPU)) {
		/* A CPU the model keeps; what it keeps never changes. */
		if (v[K8K_CPU] >= nr_cpu_ids || k8_cpus[v[K8K_CPU]].core < 0)
			return -EINVAL;
		cmd->pkg = k8_cpus[v[K8K_CPU]].node;
		ev->core = k8_cpus[v[K8K_CPU]].core;
	} else {
		if (v[K8K_PKG] >= sim_nr_pkgs)
			return -EINVAL;
		cmd->pkg = v[K8K_PKG];
	}

	switch (kind) {
	case K8_CMD_INJECT:
		ev->event = v[K8K_EVENT];
		ev->umask = v[K8K_UMASK];
		ev->count = v[K8K_COUNT];
		ev->inc = v[K8K_INC];
		/* By pkg an NB event, by cpu a core event. */
		if (k8_is_nb_event(ev->event) != !!(seen & K8K(PKG)))
			return -EINVAL;
		if (ev->event == K8_EV_E9 && !k8_e9_occurrence_valid(ev->umask))
			return -EINVAL;
		/* The unwrapped totals must stay exact. */
		if (check_mul_overflow(ev->count, ev->inc, &prod))
			return -EINVAL;
		return 0;
	case K8_CMD_COUNTER:
		cmd->ctr = v[K8K_CTR];
		cmd->value = v[K8K_VALUE];
		return cmd->value <= K8_CTR_MASK ? 0 : -EINVAL;
	case K8_CMD_MSR:
		cmd->msr = v[K8K_MSR];
		cmd->value = v[K8K_VALUE];
		return k8_msr_exists(cmd->msr) ? 0 : -EINVAL;
	default:
		cmd->halted = v[K8K_HALTED];
		return 0;
	}
}

static void k8_apply(const void *arg_cmd, unsigned int kind)
{
	const struct k8_cmd *cmd = arg_cmd;
	struct sim_socket *s = &sim_sockets[cmd->pkg];
	struct k8_node *n = k8_node_of(s);
	unsigned int core = cmd->ev.core;
	unsigned long flags;
	u64 val = cmd->value;

	sim_lock(s, &flags);
	switch (kind) {
	case K8_CMD_INJECT:
		k8_inject(n, &cmd->ev);
		break;
	case K8_CMD_COUNTER:
		k8_set_counter(n, core, cmd->ctr, cmd->value);
		break;
	case K8_CMD_MSR:
		k8_reg_access(n, core, cmd->msr, &val, true);
		break;
	default:
		k8_set_halted(n, core, cmd->halted);
		break;
	}
	sim_unlock(s, flags);
}

#define K8_CMD_FILE(_name, _kind) {					\
	.name = _name, .size = sizeof(struct k8_cmd),			\
	.parse = k8_parse, .apply = k8_apply, .kind = _kind,		\
}

static const struct sim_cmd_file k8_files[] = {
	K8_CMD_FILE("inject", K8_CMD_INJECT),
	K8_CMD_FILE("counter", K8_CMD_COUNTER),
	K8_CMD_FILE("msr", K8_CMD_MSR),
	K8_CMD_FILE("halt", K8_CMD_HALT),
};

/* @n is a snapshot of @s's registers; the PMI delivery counts are live. */
static void k8_show_node(struct seq_file *m, const struct k8_node *n,
			 const struct k8_sim_node *kn, struct sim_socket *s)
{
	const struct k8_stats *st = &n->stats;
	unsigned int i, j;

	seq_printf(m, "pkg%u stats reads=%llu writes=%llu faults=%llu rsvd_writes=%llu nb_clobbers=%llu sibling_conflicts=%llu one_write_enables=%llu false_edges=%llu inject_lines=%llu inject_hits=%llu dropped=%llu overflows=%llu pmis=%llu pmis_sent=%lld pmis_dropped=%lld nmi_busy=%lld\n",
		   n->id, st->reads, st->writes, st->faults, st->rsvd_writes,
		   st->nb_clobbers, st->sibling_conflicts,
		   st->one_write_enables, st->false_edges, st->inject_lines,
		   st->inject_hits, st->dropped, st->overflows, st->pmis,
		   atomic64_read(&s->pmis_sent),
		   atomic64_read(&s->pmis_dropped),
		   atomic64_read(&s->nmi_busy));
	for (i = 0; i < K8_NR_CTRS; i++) {
		const struct k8_nb_slot *sl = &n->slot[i];

		seq_printf(m, "pkg%u nb%u event=0x%02x umask=0x%02x sel=0x%016llx writer=",
			   n->id, i, (unsigned int)FIELD_GET(K8_SEL_EVENT, sl->sel),
			   (unsigned int)FIELD_GET(K8_SEL_UMASK, sl->sel),
			   sl->sel);
		if (sl->writer >= 0)
			seq_printf(m, "cpu%u\n", kn->cpu[sl->writer]);
		else
			seq_puts(m, "none\n");
	}
	for (j = 0; j < kn->nr_cores; j++) {
		const struct k8_core *c = &n->core[j];
		unsigned int cpu = kn->cpu[j];

		seq_printf(m, "cpu%u pkg%u core=%u halted=%d pmi_owed=%d\n",
			   cpu, n->id, j, c->halted, c->pmi_owed);
		for (i = 0; i < K8_NR_CTRS; i++)
			seq_printf(m, "cpu%u ctr%u sel=0x%016llx ctr=0x%012llx total=%llu counting=%d\n",
				   cpu, i, c->ctr[i].sel, c->ctr[i].val,
				   c->ctr[i].total, k8_ctr_counting(n, j, i));
	}
}

/* Node @pkg into @snap (a k8_node); it has no clock of its own. */
static void k8_snapshot(unsigned int pkg, void *snap)
{
	struct sim_socket *s = &sim_sockets[pkg];
	unsigned long flags;

	sim_lock(s, &flags);
	memcpy(snap, k8_node_of(s), sizeof(struct k8_node));
	sim_unlock(s, flags);
}

static void k8_state_node(struct seq_file *m, unsigned int pkg, void *snap,
			  void *arg)
{
	k8_show_node(m, snap, &k8_nodes[pkg], &sim_sockets[pkg]);
}

static int k8_state_show(struct seq_file *m, void *v)
{
	return sim_each_snapshot(m, sizeof(struct k8_node), k8_snapshot,
				 k8_state_node, NULL);
}
DEFINE_SHOW_ATTRIBUTE(k8_state);

static void k8_socket_reset_stats(struct sim_socket *s)
{
	k8_reset_stats(k8_node_of(s));
}

/*
 * What the driver left behind: a core's counter with EN or INT. The NB
 * slots keep the last NB selector written, EN or not, so they are not
 * leftovers. Writes of bits nobody may set include NB events of two
 * cores put on one counter index (nb_clobbers).
 */
static void k8_audit_node(struct seq_file *m, unsigned int i, void *snap,
			  void *arg)
{
	const struct k8_node *n = snap;
	struct sim_audit *a = arg;
	unsigned int j, c;

	a->rsvd_writes += n->stats.rsvd_writes + n->stats.nb_clobbers;
	a->faults += n->stats.faults;
	for (j = 0; j < k8_nodes[i].nr_cores; j++) {
		for (c = 0; c < K8_NR_CTRS; c++) {
			u64 sel = n->core[j].ctr[c].sel;

			if (!(sel & (K8_SEL_EN | K8_SEL_INT)))
				continue;
			seq_printf(m, "pkg%u cpu%u ctr%u sel=0x%016llx%s%s\n",
				   i, k8_nodes[i].cpu[j], c, sel,
				   sel & K8_SEL_EN ? " enabled" : "",
				   sel & K8_SEL_INT ? " int" : "");
			a->leftovers++;
		}
	}
}

static int k8_audit(struct seq_file *m)
{
	struct sim_audit a = { };

	return sim_each_snapshot(m, sizeof(struct k8_node), k8_snapshot,
				 k8_audit_node, &a) ?: sim_audit_end(m, &a);
}

static void k8_debugfs_init(struct dentry *dir)
{
	sim_debugfs_cmd_files(dir, k8_files, ARRAY_SIZE(k8_files));
	debugfs_create_file("state", 0400, dir, NULL, &k8_state_fops);
}

const struct sim_model sim_k8_model = {
	.part		= "k8",
	.name		= "Athlon 64 / Opteron (K8)",
	.max_pkgs	= SIM_MAX_PKGS,
	.match		= k8_match,
	.init		= k8_init,
	.exit		= k8_exit,
	.access		= k8_access,
	.debugfs_init	= k8_debugfs_init,
	.pmi_cores	= K8_PMI_CORES,
	.pmi_wanted	= k8_pmi_wanted,
	.pmi_due	= k8_pmi_due,
	.pmi_take	= k8_pmi_take,
	.audit		= k8_audit,
	.reset_stats	= k8_socket_reset_stats,
};
