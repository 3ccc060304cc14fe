// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/uncore_pmu/: register accesses per box (and their
 * reset), which CPU reads each box and package, each package's PMI
 * routing and handler counts, samples and throttles per box, each CPU's
 * sample-pass time, the events on their way to a context, what of perf
 * the kernel it was built for has, and the open_delay_ms test hook.
 * Statistics for tests and benchmarks: read racily, but never from a box
 * or package that is being freed.
 *
 * Context: process context (debugfs file operations).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>

#include "internal.h"

static struct dentry *uncore_debugfs;

static int uncore_access_show(struct seq_file *m, void *v)
{
	int i, pkg;

	seq_printf(m, "# backend: %s\n", uncore_access_backend());
	seq_puts(m, "# pmu pkg msr_rd msr_wr pci_rd pci_wr errors\n");
	mutex_lock(&uncore_box_mutex);
	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_pmu *upmu = uncore_pmus[i];

		for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
			struct uncore_box *box = upmu->boxes[pkg];

			if (!box)
				continue;
			seq_printf(m, "%s %d %llu %llu %llu %llu %llu\n",
				   upmu->name, pkg, READ_ONCE(box->stats.msr_rd) +
				   atomic64_read(&box->stats.nmi_msr_rd),
				   READ_ONCE(box->stats.msr_wr),
				   READ_ONCE(box->stats.pci_rd),
				   READ_ONCE(box->stats.pci_wr),
				   READ_ONCE(box->stats.errors) +
				   atomic64_read(&box->stats.nmi_errors));
		}
	}
	mutex_unlock(&uncore_box_mutex);
	return 0;
}

/* Which CPU reads each box, how many events it has, how often it polls. */
static int uncore_boxes_show(struct seq_file *m, void *v)
{
	int i, pkg;

	seq_puts(m, "# pmu pkg cpu events poll_ns throttled\n");
	mutex_lock(&uncore_box_mutex);
	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_pmu *upmu = uncore_pmus[i];

		for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
			struct uncore_box *box = upmu->boxes[pkg];
			int n;

			if (!box)
				continue;
			n = READ_ONCE(box->n_events);
			seq_printf(m, "%s %d %d %d %llu %d\n", upmu->name, pkg,
				   READ_ONCE(box->cpu), n,
				   n ? READ_ONCE(box->poll_ns) : 0,
				   READ_ONCE(box->n_throttled));
		}
	}
	mutex_unlock(&uncore_box_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uncore_boxes);

/*
 * Each package's reading CPU, parking CPU, whether it is up, and what its
 * moves carried: counters, the longest one went unread, and those unread
 * for their wrap time (uncore_carry_done()).
 */
static int uncore_packages_show(struct seq_file *m, void *v)
{
	int pkg;

	seq_puts(m, "# pkg cpu park moving up carries carry_max_ns carry_late\n");
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
		struct uncore_package *p = &uncore_pkgs[pkg];

		seq_printf(m, "%d %d %d %d %d %llu %llu %llu\n", pkg,
			   READ_ONCE(p->cpu), READ_ONCE(p->park),
			   READ_ONCE(p->moving), READ_ONCE(p->up),
			   READ_ONCE(p->carries), READ_ONCE(p->carry_max_ns),
			   READ_ONCE(p->carry_late));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uncore_packages);

/* Each package's PMI routing and what its handler did. */
static int uncore_pmi_show(struct seq_file *m, void *v)
{
	int pkg;

	seq_puts(m, "# pkg cpu nmi handled periods owed_nmi owed late_nmi retries\n");
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
		struct uncore_pkg_pmi *p = &uncore_pkgs[pkg].pmi;

		seq_printf(m, "%d %d %lld %llu %llu %lld %d %lld %llu\n", pkg,
			   READ_ONCE(p->cpu), atomic64_read(&p->nmi),
			   READ_ONCE(p->handled), READ_ONCE(p->periods),
			   atomic64_read(&p->owed_nmi), atomic_read(&p->owed),
			   atomic64_read(&p->late_nmi), READ_ONCE(p->retries));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uncore_pmi);

/* Samples each box handed perf, by PMI or by its timer, and throttles. */
static int uncore_samples_show(struct seq_file *m, void *v)
{
	int i, pkg;

	seq_printf(m, "# throttle at %u samples per event per tick (max_sample_rate %u, HZ %d)\n",
		   uncore_tick_limit(), READ_ONCE(uncore_max_sample_rate), HZ);
	seq_puts(m, "# pmu pkg mode samples lost throttles over_budget\n");
	mutex_lock(&uncore_box_mutex);
	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_pmu *upmu = uncore_pmus[i];

		for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
			struct uncore_box *box = upmu->boxes[pkg];
			bool pmi;

			if (!box)
				continue;
			pmi = box->pmi_mask &&
			      uncore_pmi_routable(READ_ONCE(box->cpu));
			seq_printf(m, "%s %d %s %llu %llu %llu %llu\n",
				   upmu->name, pkg, pmi ? "pmi" : "timer",
				   READ_ONCE(box->samples),
				   READ_ONCE(box->lost),
				   READ_ONCE(box->throttles),
				   READ_ONCE(box->over_budget));
		}
	}
	mutex_unlock(&uncore_box_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uncore_samples);

static int uncore_access_open(struct inode *inode, struct file *file)
{
	return single_open(file, uncore_access_show, NULL);
}

/* Events on their way to perf's context: the CPU event_init gave each. */
static int uncore_opens_show(struct seq_file *m, void *v)
{
	struct uncore_open *o;
	int pkg;

	seq_puts(m, "# cpu pmu\n");
	spin_lock(&uncore_open_lock);
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++)
		if (uncore_pkgs[pkg].moving)
			seq_printf(m, "# package %d moving\n", pkg);
	list_for_each_entry(o, &uncore_opens, node) {
		if (!uncore_event_installed(o->event))
			seq_printf(m, "%d %s\n", o->cpu,
				   to_uncore_pmu(o->event->pmu)->name);
	}
	spin_unlock(&uncore_open_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uncore_opens);

/* Each CPU's sample passes: how many, the longest, and their time. */
static int uncore_budget_show(struct seq_file *m, void *v)
{
	int cpu;

	seq_printf(m, "# budget %u%% of every %llu ns per CPU\n",
		   READ_ONCE(uncore_max_cpu_percent), UNCORE_BUDGET_WINDOW_NS);
	seq_puts(m, "# cpu passes worst_ns total_ns\n");
	for_each_possible_cpu(cpu) {
		struct uncore_cpu_budget *b = per_cpu_ptr(&uncore_budget, cpu);
		u64 n = READ_ONCE(b->passes);

		if (n)
			seq_printf(m, "%d %llu %llu %llu\n", cpu, n,
				   READ_ONCE(b->worst), READ_ONCE(b->total));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uncore_budget);

static void uncore_reset_stats(void *info)
{
	struct uncore_box *box = info;

	memset(&box->stats, 0, offsetof(struct uncore_access_stats, nmi_msr_rd));
	atomic64_set(&box->stats.nmi_msr_rd, 0);
	atomic64_set(&box->stats.nmi_errors, 0);
}

/* Any write zeroes the counts, on each box's CPU so no increment races. */
static ssize_t uncore_access_write(struct file *file, const char __user *buf,
				   size_t len, loff_t *ppos)
{
	int i, pkg;

	cpus_read_lock();
	mutex_lock(&uncore_box_mutex);
	for (i = 0; i < uncore_n_pmus; i++) {
		for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
			struct uncore_box *box = uncore_pmus[i]->boxes[pkg];

			if (!box)
				continue;
			if (box->cpu >= 0)
				smp_call_function_single(box->cpu,
							 uncore_reset_stats,
							 box, 1);
			else
				uncore_reset_stats(box);
		}
	}
	mutex_unlock(&uncore_box_mutex);
	cpus_read_unlock();
	return len;
}

static const struct file_operations uncore_access_fops = {
	.owner = THIS_MODULE,
	.open = uncore_access_open,
	.read = seq_read,
	.write = uncore_access_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/*
 * What the compat probes found in the kernel the module was built for
 * (perf_compat.h, core/probes/), where tests expect what each kernel
 * shows: "filter_match yes" where perf passes a dead event over at
 * scheduling, "no" where it is disabled instead (uncore_park_event()).
 */
static int uncore_kernel_show(struct seq_file *m, void *v)
{
	seq_printf(m, "filter_match %s\npmu_ctx %s\n",
		   uncore_have_filter_match ? "yes" : "no",
		   uncore_have_pmu_ctx ? "yes" : "no");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uncore_kernel);

/**
 * uncore_debugfs_init() - create /sys/kernel/debug/uncore_pmu/ and its files
 */
void uncore_debugfs_init(void)
{
	uncore_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("access", 0600, uncore_debugfs, NULL,
			    &uncore_access_fops);
	debugfs_create_file("boxes", 0400, uncore_debugfs, NULL,
			    &uncore_boxes_fops);
	debugfs_create_file("packages", 0400, uncore_debugfs, NULL,
			    &uncore_packages_fops);
	debugfs_create_file("pmi", 0400, uncore_debugfs, NULL,
			    &uncore_pmi_fops);
	debugfs_create_file("samples", 0400, uncore_debugfs, NULL,
			    &uncore_samples_fops);
	debugfs_create_file("budget", 0400, uncore_debugfs, NULL,
			    &uncore_budget_fops);
	debugfs_create_file("opens", 0400, uncore_debugfs, NULL,
			    &uncore_opens_fops);
	debugfs_create_file("kernel", 0400, uncore_debugfs, NULL,
			    &uncore_kernel_fops);
	debugfs_create_u32("open_delay_ms", 0600, uncore_debugfs,
			   &uncore_open_delay_ms);
	debugfs_create_u32("commit_delay_ms", 0600, uncore_debugfs,
			   &uncore_commit_delay_ms);
	debugfs_create_u32("move_delay_ms", 0600, uncore_debugfs,
			   &uncore_move_delay_ms);
	if (uncore_plat->pmi) {
		debugfs_create_u32("pass_delay_ms", 0600, uncore_debugfs,
				   &uncore_pass_delay_ms);
		debugfs_create_u32("handover_delay_ms", 0600, uncore_debugfs,
				   &uncore_handover_delay_ms);
		debugfs_create_u32("forward_unreachable", 0600, uncore_debugfs,
				   &uncore_forward_unreachable);
		debugfs_create_u32("stale_delay_ms", 0600, uncore_debugfs,
				   &uncore_stale_delay_ms);
		debugfs_create_u32("stale_delay_type", 0600, uncore_debugfs,
				   &uncore_stale_delay_type);
	}
}

/**
 * uncore_debugfs_exit() - remove them
 */
void uncore_debugfs_exit(void)
{
	debugfs_remove_recursive(uncore_debugfs);
}
