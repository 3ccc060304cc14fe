// SPDX-License-Identifier: GPL-2.0
/*
 * Test interface of the simulator in /sys/kernel/debug/uncore_sim/, the
 * files every model has: sim clock control, the part modelled, faults
 * (fault.c), and audit and reset_stats through the model's hooks; and the
 * line grammar of command files, which each model's own files (its
 * &sim_model.debugfs_init) use. The grammar is documented in
 * Documentation/simulator.rst. Process context.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sim.h"

static struct dentry *sim_dir;

/*
 * A debugfs write of commands, one per line. Every line is parsed before
 * any is applied: a bad line changes nothing. Returns @len, -EINVAL for a
 * bad line, or another error.
 */
static ssize_t sim_cmd_lines(const char __user *ubuf, size_t len,
			     const struct sim_cmd_file *cf)
{
	size_t size = cf->size;
	unsigned int n = 0, i;
	char *buf, *cur, *line;
	ssize_t ret = len;
	char *cmds;

	buf = sim_copy_in(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	for (cur = buf; *cur; cur++)
		n += *cur == '\n';
	cmds = kcalloc(n + 1, size, GFP_KERNEL);
	if (!cmds) {
		kfree(buf);
		return -ENOMEM;
	}

	n = 0;
	cur = buf;
	while ((line = strsep(&cur, "\n"))) {
		line = strim(line);
		if (!*line)
			continue;
		if (cf->parse(line, cmds + n * size, cf->kind)) {
			ret = -EINVAL;
			goto out;
		}
		n++;
	}
	for (i = 0; i < n; i++)
		cf->apply(cmds + i * size, cf->kind);
out:
	kfree(cmds);
	kfree(buf);
	return ret;
}

static ssize_t sim_cmd_file_write(struct file *file, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	const struct sim_cmd_file *cf = file->private_data;

	return sim_cmd_lines(ubuf, len, cf);
}

static const struct file_operations sim_cmd_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= sim_cmd_file_write,
	.llseek	= noop_llseek,
};

/**
 * sim_debugfs_cmd_files() - write-only debugfs files of commands
 * @dir: where
 * @cf: one per file: its name, how its lines are parsed and applied; must
 *	outlive the files
 * @n: how many
 *
 * A write is one or more lines; every line is parsed before any is
 * applied, so a bad line (-EINVAL) changes nothing.
 */
void sim_debugfs_cmd_files(struct dentry *dir, const struct sim_cmd_file *cf,
			   unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		debugfs_create_file(cf[i].name, 0200, dir, (void *)&cf[i],
				    &sim_cmd_fops);
}

static int sim_clock_show(struct seq_file *m, void *v)
{
	seq_printf(m, "sim_ns=%llu frozen=%d pci_tick=%llu\n", sim_clock_now(),
		   sim_clock_frozen(), sim_pci_get_tick());
	return 0;
}

static int sim_clock_open(struct inode *inode, struct file *file)
{
	return single_open(file, sim_clock_show, NULL);
}

static ssize_t sim_clock_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	char *buf, *cmd;
	u64 ns;
	int ret = 0;

	buf = sim_copy_in(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	cmd = strim(buf);
	if (!strcmp(cmd, "freeze")) {
		sim_clock_freeze();
	} else if (!strcmp(cmd, "run")) {
		sim_clock_run();
	} else if (str_has_prefix(cmd, "advance ")) {
		ret = kstrtou64(skip_spaces(cmd + strlen("advance ")), 0, &ns);
		if (!ret)
			ret = sim_clock_advance(ns);
	} else if (str_has_prefix(cmd, "pci_tick ")) {
		ret = kstrtou64(skip_spaces(cmd + strlen("pci_tick ")), 0, &ns);
		if (!ret && ns > NSEC_PER_SEC)
			ret = -ERANGE;
		if (!ret)
			sim_pci_set_tick(ns);
	} else {
		ret = -EINVAL;
	}
	kfree(buf);
	if (ret)
		return ret;
	/* Sim time moved differently: e.g. re-time pending freezes. */
	if (sim_model->clock_moved)
		sim_model->clock_moved();
	return len;
}

static const struct file_operations sim_clock_fops = {
	.owner		= THIS_MODULE,
	.open		= sim_clock_open,
	.read		= seq_read,
	.write		= sim_clock_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* Every package's statistics, the model's and its socket's, back to 0. */
static ssize_t sim_reset_stats_write(struct file *file,
				     const char __user *ubuf, size_t len,
				     loff_t *ppos)
{
	unsigned long flags;
	unsigned int p;

	for (p = 0; p < sim_nr_pkgs; p++) {
		struct sim_socket *s = &sim_sockets[p];

		sim_lock(s, &flags);
		sim_model->reset_stats(s);
		sim_unlock(s, flags);
		atomic64_set(&s->pmis_sent, 0);
		atomic64_set(&s->pmis_dropped, 0);
		atomic64_set(&s->foreign_nmis, 0);
		atomic64_set(&s->nmi_busy, 0);
	}
	return len;
}

static const struct file_operations sim_reset_stats_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= sim_reset_stats_write,
	.llseek	= noop_llseek,
};

static int sim_part_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", sim_model->part);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_part);

static int sim_audit_show(struct seq_file *m, void *v)
{
	return sim_model->audit(m);
}
DEFINE_SHOW_ATTRIBUTE(sim_audit);

/**
 * sim_each_snapshot() - print from a copy of each package's state
 * @m: where to print
 * @size: the size of one copy
 * @take: copy package @pkg, brought up to date, into @snap under its lock
 * @use: print from the copy, unlocked, with @arg
 * @arg: for @use
 *
 * The state and audit files of every model: the machine waits for a copy
 * only, never for the printing. In process context.
 *
 * Return: 0, or -ENOMEM.
 */
int sim_each_snapshot(struct seq_file *m, size_t size,
		      void (*take)(unsigned int pkg, void *snap),
		      void (*use)(struct seq_file *m, unsigned int pkg,
				  void *snap, void *arg),
		      void *arg)
{
	unsigned int p;
	void *snap;

	snap = kmalloc(size, GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	for (p = 0; p < sim_nr_pkgs; p++) {
		take(p, snap);
		use(m, p, snap, arg);
	}
	kfree(snap);
	return 0;
}

/**
 * sim_audit_end() - the last line of debugfs "audit"
 * @m: where to print
 * @a: the totals over every package
 *
 * Return: 0, for a show function to return.
 */
int sim_audit_end(struct seq_file *m, const struct sim_audit *a)
{
	seq_printf(m, "leftovers %u rsvd_writes %llu faults %llu\n",
		   a->leftovers, a->rsvd_writes, a->faults);
	return 0;
}

/**
 * sim_debugfs_init() - the simulator's debugfs directory and files
 *
 * Context: at load, once the model's &sim_model.init has succeeded. Every
 * model's files: sim time and which part it is; then its own.
 */
void sim_debugfs_init(void)
{
	sim_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("clock", 0600, sim_dir, NULL, &sim_clock_fops);
	debugfs_create_file("part", 0400, sim_dir, NULL, &sim_part_fops);
	sim_fault_debugfs_init(sim_dir);
	sim_model->debugfs_init(sim_dir);
	if (sim_model->audit)
		debugfs_create_file("audit", 0400, sim_dir, NULL,
				    &sim_audit_fops);
	if (sim_model->reset_stats)
		debugfs_create_file("reset_stats", 0200, sim_dir, NULL,
				    &sim_reset_stats_fops);
}

/** sim_debugfs_exit() - remove every file: the module is going */
void sim_debugfs_exit(void)
{
	debugfs_remove_recursive(sim_dir);
}
