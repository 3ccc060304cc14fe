// SPDX-License-Identifier: GPL-2.0
/*
 * Faults on request, for the tests of what the driver does when the
 * hardware misbehaves (Documentation/simulator.rst, "Faults"): an MSR that
 * raises #GP on a box that exists, a PCI box whose config reads return all
 * ones (a device gone from under the driver), a box whose counters stop
 * (a flag of the box in the model, set and cleared under its lock),
 * and an unrelated NMI at a chosen register access, e.g. in the middle of
 * the driver's overflow sequence. Boxes are the model's: it names them,
 * and stops them, through &sim_model.box_faults.
 *
 * Rules are set from process context (debugfs) and looked at from any
 * context the driver reaches the simulator in, NMI included: a rule is
 * filled in while disarmed and published with a release store, and the
 * lookups take no lock.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "sim.h"

#define SIM_NR_FAULTS	8

enum sim_fault_kind {
	SIM_FAULT_GP,
	SIM_FAULT_GONE,
	SIM_FAULT_STOP,
	SIM_FAULT_NMI,
	SIM_FAULT_NR,
};

static const char * const sim_fault_names[SIM_FAULT_NR] = {
	[SIM_FAULT_GP]		= "gp",
	[SIM_FAULT_GONE]	= "gone",
	[SIM_FAULT_STOP]	= "stop",
	[SIM_FAULT_NMI]		= "nmi",
};

/*
 * One rule. @armed is written last when a rule is set and first when it is
 * cleared; the rest is only read after an acquire of @armed.
 */
struct sim_fault {
	bool armed;
	u8 kind;
	u8 pkg;
	u8 box_type;
	u8 idx;
	bool has_box;
	bool locked;
	bool reads;
	bool writes;
	u32 lo;
	u32 hi;
	u32 count;
	int cpu;
	atomic_t countdown;
	atomic64_t hits;
};

static struct sim_fault sim_faults[SIM_NR_FAULTS];
static DEFINE_MUTEX(sim_fault_mutex);

static bool sim_fault_on(const struct sim_fault *f, unsigned int kind, int pkg)
{
	/* Pairs with the release in sim_fault_write(): the rule is whole. */
	return smp_load_acquire(&f->armed) && f->kind == kind && f->pkg == pkg;
}

/**
 * sim_fault_msr() - apply the MSR rules to an access
 * @pkg: package of the accessing CPU
 * @msr: register
 * @write: a write
 *
 * Called by the MSR seam before the model sees the access, in whatever
 * context the driver made it (NMI included). An "nmi" rule whose countdown
 * ends here raises its NMIs on this CPU: they arrive as soon as the CPU
 * can take them, right away outside NMI context, after the current
 * handler otherwise.
 *
 * Return: true if the access raises #GP (the backend returns -EIO).
 */
bool sim_fault_msr(int pkg, u32 msr, bool write)
{
	bool gp = false;
	int i;

	for (i = 0; i < SIM_NR_FAULTS; i++) {
		struct sim_fault *f = &sim_faults[i];

		/* Pairs with the release in sim_fault_write(). */
		if (!smp_load_acquire(&f->armed) || f->pkg != pkg ||
		    msr < f->lo || msr > f->hi)
			continue;
		if (f->kind == SIM_FAULT_GP && (write ? f->writes : f->reads)) {
			atomic64_inc(&f->hits);
			gp = true;
		} else if (f->kind == SIM_FAULT_NMI && !f->locked &&
			   atomic_dec_return(&f->countdown) == 0) {
			atomic64_inc(&f->hits);
			sim_foreign_nmi_on(smp_processor_id(), f->count);
		}
	}
	return gp;
}

/* Raise rule @f's NMIs on this CPU, inside the access, and wait for them. */
static void sim_fault_nmi_inside(struct sim_fault *f)
{
	atomic64_inc(&f->hits);
	sim_foreign_nmi_on(smp_processor_id(), f->count);
	sim_foreign_nmi_wait();
}

/**
 * sim_fault_msr_locked() - apply the "nmi ... locked" MSR rules to an access
 * @pkg: package of the accessing CPU
 * @msr: register
 *
 * Called by a model's MSR accessor with the package's lock held: a rule
 * whose countdown ends here raises its NMIs on this CPU and waits until
 * they came, so that they interrupt the access. An MSR access the NMI
 * handler makes then finds the package busy (sim_nmi_busy()); on the part
 * an MSR read never waits, so this is the simulator's own answer, which
 * the driver must not take for a fault of the box.
 */
void sim_fault_msr_locked(int pkg, u32 msr)
{
	int i;

	if (in_nmi())
		return;
	for (i = 0; i < SIM_NR_FAULTS; i++) {
		struct sim_fault *f = &sim_faults[i];

		if (sim_fault_on(f, SIM_FAULT_NMI, pkg) && f->locked &&
		    msr >= f->lo && msr <= f->hi &&
		    atomic_dec_return(&f->countdown) == 0)
			sim_fault_nmi_inside(f);
	}
}

/**
 * sim_fault_pci_nmi() - apply the "nmi" rules of PCI boxes to a config access
 * @pkg: package
 * @type: the kind of the box the function belongs to (&sim_box_faults)
 * @idx: the box's instance
 *
 * Called by the model's PCI config accessors with the package's lock held,
 * where a real config access holds the kernel's pci_config_lock: a rule
 * whose countdown ends here raises its NMIs on this CPU and waits until
 * they came, so that they interrupt the access. A handler that makes a
 * config access from NMI context then finds the package busy
 * (sim_nmi_busy()), as it would find the lock held on the part.
 */
void sim_fault_pci_nmi(int pkg, unsigned int type, unsigned int idx)
{
	int i;

	if (in_nmi())
		return;
	for (i = 0; i < SIM_NR_FAULTS; i++) {
		struct sim_fault *f = &sim_faults[i];

		if (sim_fault_on(f, SIM_FAULT_NMI, pkg) && f->has_box &&
		    f->box_type == type && f->idx == idx &&
		    atomic_dec_return(&f->countdown) == 0)
			sim_fault_nmi_inside(f);
	}
}

/**
 * sim_fault_pci_gone() - is a PCI box's function gone?
 * @pkg: package
 * @type: the kind of the box the function belongs to (&sim_box_faults)
 * @idx: the box's instance
 *
 * Called by the model's PCI config accessors, in any context (NMI
 * included).
 *
 * Return: true if its config reads are to return all ones and its writes
 * to go nowhere.
 */
bool sim_fault_pci_gone(int pkg, unsigned int type, unsigned int idx)
{
	int i;

	for (i = 0; i < SIM_NR_FAULTS; i++) {
		struct sim_fault *f = &sim_faults[i];

		if (sim_fault_on(f, SIM_FAULT_GONE, pkg) &&
		    f->box_type == type && f->idx == idx) {
			atomic64_inc(&f->hits);
			return true;
		}
	}
	return false;
}

/* Set or clear a "stop" rule's box's flag, under its package's lock. */
static void sim_fault_stop(const struct sim_fault *f, bool on)
{
	struct sim_socket *s = &sim_sockets[f->pkg];
	unsigned long flags;

	sim_lock(s, &flags);
	sim_model->box_faults->stop(s, f->box_type, f->idx, on);
	sim_unlock(s, flags);
}

/* "key=value" into *@val, at most @max; -EINVAL otherwise. */
static int sim_fault_u32(const char *s, const char *key, u32 max, u32 *val)
{
	size_t n = strlen(key);

	if (strncmp(s, key, n) || s[n] != '=')
		return -ENOENT;
	if (kstrtou32(s + n + 1, 0, val) || *val > max)
		return -EINVAL;
	return 0;
}

/* A box kind by name: the model's (&sim_model.box_faults), if it has any. */
static int sim_fault_box(const char *name, struct sim_fault *f)
{
	const struct sim_box_faults *bf = sim_model->box_faults;
	unsigned int t;

	for (t = 0; bf && t < bf->nr_types; t++) {
		if (!strcmp(name, bf->name(t))) {
			f->box_type = t;
			return 0;
		}
	}
	return -EINVAL;
}

/* "msr=LO" or "msr=LO-HI". */
static int sim_fault_range(char *s, struct sim_fault *f)
{
	char *dash = strchr(s, '-');

	if (dash)
		*dash++ = '\0';
	if (kstrtou32(s, 0, &f->lo))
		return -EINVAL;
	f->hi = f->lo;
	if (dash && (kstrtou32(dash, 0, &f->hi) || f->hi < f->lo))
		return -EINVAL;
	return 0;
}

/*
 * One command: KIND key=value...; see Documentation/simulator.rst. Fills
 * @f, unarmed.
 */
static int sim_fault_parse(char *line, struct sim_fault *f)
{
	bool has_pkg = false, has_box = false, has_msr = false;
	char *word, *kind = strsep(&line, " \t");
	u32 v;
	int k;

	for (k = 0; k < SIM_FAULT_NR; k++)
		if (!strcmp(kind, sim_fault_names[k]))
			break;
	if (k == SIM_FAULT_NR)
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->kind = k;
	f->reads = true;
	f->writes = true;
	f->count = 1;
	f->cpu = -1;
	atomic_set(&f->countdown, 1);
	while ((word = strsep(&line, " \t"))) {
		if (!*word)
			continue;
		if (!sim_fault_u32(word, "pkg", sim_nr_pkgs - 1, &v)) {
			f->pkg = v;
			has_pkg = true;
		} else if (!strncmp(word, "box=", 4)) {
			if (sim_fault_box(word + 4, f))
				return -EINVAL;
			has_box = true;
			f->has_box = true;
		} else if (!sim_fault_u32(word, "idx", 255, &v)) {
			f->idx = v;
		} else if (!strncmp(word, "msr=", 4)) {
			if (sim_fault_range(word + 4, f))
				return -EINVAL;
			has_msr = true;
		} else if (!strcmp(word, "locked")) {
			f->locked = true;
		} else if (!strcmp(word, "access=r")) {
			f->writes = false;
		} else if (!strcmp(word, "access=w")) {
			f->reads = false;
		} else if (!strcmp(word, "access=rw")) {
			continue;
		} else if (!sim_fault_u32(word, "nth", INT_MAX, &v) && v) {
			atomic_set(&f->countdown, v);
		} else if (!sim_fault_u32(word, "count", 16, &v) && v) {
			f->count = v;
		} else if (!sim_fault_u32(word, "cpu", nr_cpu_ids - 1, &v)) {
			f->cpu = v;
		} else {
			return -EINVAL;
		}
	}
	/* "nmi cpu=C": raised at once, no rule; every other one a rule. */
	if (f->cpu >= 0)
		return k == SIM_FAULT_NMI && !has_pkg && !has_msr && !has_box &&
		       sim_model->pmi_take ? 0 : -EINVAL;
	if (!has_pkg)
		return -EINVAL;
	switch (k) {
	case SIM_FAULT_GP:
		return has_msr ? 0 : -EINVAL;
	case SIM_FAULT_NMI:
		/*
		 * Only a model that raises NMIs has the handler claiming them.
		 * At an MSR, or at a PCI box's config accesses.
		 */
		if (!sim_model->pmi_take || has_msr == has_box ||
		    (f->locked && !has_msr))
			return -EINVAL;
		if (has_box &&
		    (f->idx >= sim_model->box_faults->count(f->box_type) ||
		     !sim_model->box_faults->is_pci(f->box_type)))
			return -EINVAL;
		return 0;
	default:
		/* Boxes by name: a model's with box faults (sim_fault_box()). */
		if (!has_box ||
		    f->idx >= sim_model->box_faults->count(f->box_type))
			return -EINVAL;
		if (k == SIM_FAULT_GONE &&
		    !sim_model->box_faults->is_pci(f->box_type))
			return -EINVAL;
		return 0;
	}
}

static void sim_fault_clear_all(void)
{
	int i;

	for (i = 0; i < SIM_NR_FAULTS; i++) {
		if (READ_ONCE(sim_faults[i].armed) &&
		    sim_faults[i].kind == SIM_FAULT_STOP)
			sim_fault_stop(&sim_faults[i], false);
		WRITE_ONCE(sim_faults[i].armed, false);
	}
	/* Lookups in flight (IRQs or preemption off) finish with old rules. */
	synchronize_rcu();
}

static ssize_t sim_fault_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	struct sim_fault f;
	char *buf, *line;
	ssize_t ret = len;
	int i;

	buf = sim_copy_in(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	line = strim(buf);
	mutex_lock(&sim_fault_mutex);
	if (!strcmp(line, "clear")) {
		sim_fault_clear_all();
		goto out;
	}
	if (strchr(line, '\n') || sim_fault_parse(line, &f)) {
		ret = -EINVAL;
		goto out;
	}
	if (f.cpu >= 0) {
		/*
		 * Not cpus_read_lock(): a test sends to a CPU in the middle
		 * of a hotplug operation. With preemption off here, the CPU
		 * cannot get past stop_machine() to offline meanwhile.
		 */
		preempt_disable();
		if (cpu_online(f.cpu))
			sim_foreign_nmi_on(f.cpu, f.count);
		else
			ret = -EINVAL;
		preempt_enable();
		goto out;
	}
	for (i = 0; i < SIM_NR_FAULTS; i++)
		if (!READ_ONCE(sim_faults[i].armed))
			break;
	if (i == SIM_NR_FAULTS) {
		ret = -ENOSPC;
		goto out;
	}
	/* A slot unarmed since the last clear has no reader left. */
	sim_faults[i] = f;
	/* The rule's fields before its flag: lookups take no lock. */
	smp_store_release(&sim_faults[i].armed, true);
	if (f.kind == SIM_FAULT_STOP)
		sim_fault_stop(&sim_faults[i], true);
out:
	mutex_unlock(&sim_fault_mutex);
	kfree(buf);
	return ret;
}

static int sim_fault_show(struct seq_file *m, void *v)
{
	int i;

	mutex_lock(&sim_fault_mutex);
	for (i = 0; i < SIM_NR_FAULTS; i++) {
		const struct sim_fault *f = &sim_faults[i];

		if (!READ_ONCE(f->armed))
			continue;
		seq_printf(m, "%s pkg=%u", sim_fault_names[f->kind], f->pkg);
		if (f->has_box)
			seq_printf(m, " box=%s idx=%u",
				   sim_model->box_faults->name(f->box_type),
				   f->idx);
		else
			seq_printf(m, " msr=0x%x-0x%x", f->lo, f->hi);
		if (f->kind == SIM_FAULT_GP)
			seq_printf(m, " access=%s%s", f->reads ? "r" : "",
				   f->writes ? "w" : "");
		seq_printf(m, " hits=%lld\n", atomic64_read(&f->hits));
	}
	mutex_unlock(&sim_fault_mutex);
	return 0;
}

static int sim_fault_open(struct inode *inode, struct file *file)
{
	return single_open(file, sim_fault_show, NULL);
}

static const struct file_operations sim_fault_fops = {
	.owner		= THIS_MODULE,
	.open		= sim_fault_open,
	.read		= seq_read,
	.write		= sim_fault_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/**
 * sim_fault_debugfs_init() - add the "fault" file
 * @dir: the simulator's debugfs directory
 */
void sim_fault_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("fault", 0600, dir, NULL, &sim_fault_fops);
}

/** sim_fault_exit() - disarm every rule: the module is going */
void sim_fault_exit(void)
{
	mutex_lock(&sim_fault_mutex);
	sim_fault_clear_all();
	mutex_unlock(&sim_fault_mutex);
}
