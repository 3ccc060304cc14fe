// SPDX-License-Identifier: GPL-2.0
/*
 * Setting up and tearing down: a pmu per box index of each type and a
 * box per package, their registration with perf, PCI boxes arriving and
 * leaving with their devices, and the module-wide init and exit that
 * bring up the PMI path, the CPU hotplug state and debugfs in order.
 *
 * Context: process context throughout. uncore_pci_box_add() and
 * uncore_pci_box_remove() come from the platform's PCI driver, at module
 * load or at any later bind/unbind, concurrently with CPU hotplug and with
 * event_init; the locking rules in internal.h say how they keep out of
 * each other's way.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "internal.h"

const struct uncore_platform *uncore_plat;
struct uncore_pmu **uncore_pmus;
int uncore_n_pmus;
struct uncore_package *uncore_pkgs;
static enum cpuhp_state uncore_hp_state;

/* Locking rules: internal.h, above uncore_box_mutex. */
static DEFINE_MUTEX(uncore_pci_mutex);
/* Locking rules: internal.h. */
DEFINE_MUTEX(uncore_box_mutex);

static struct uncore_box *uncore_new_box(struct uncore_pmu *upmu, int pkg)
{
	struct uncore_box *box = kzalloc(sizeof(*box), GFP_KERNEL);

	if (!box)
		return NULL;
	box->pmu = upmu;
	box->pkg = pkg;
	box->cpu = -1;
	box->batch_cpu = -1;
	box->txn_cpu = -1;
	box->msr_base = upmu->type->box_offsets ?
			upmu->type->box_offsets[upmu->idx] :
			upmu->idx * upmu->type->box_stride;
	if (uncore_plat->pmi && upmu->type->pmi_mask)
		box->pmi_mask = upmu->type->pmi_mask(upmu->idx);
	INIT_LIST_HEAD(&box->pmi_node);
	kref_init(&box->ref);
	raw_spin_lock_init(&box->aux.lock);
	hrtimer_init(&box->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	box->hrtimer.function = uncore_poll;
	return box;
}

static void uncore_free_pmu(struct uncore_pmu *upmu)
{
	int pkg;

	if (!upmu)
		return;
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++)
		if (upmu->boxes[pkg])
			kref_put(&upmu->boxes[pkg]->ref, uncore_box_release);
	kfree(upmu->boxes);
	kfree(upmu);
}

/*
 * The pmu of box @idx of @type. MSR boxes are all known now; a PCI type's
 * pmu starts empty and is registered when its first box appears.
 */
static struct uncore_pmu *uncore_alloc_pmu(const struct uncore_type *type,
					   int idx,
					   const struct uncore_type_sysfs *ts)
{
	struct uncore_pmu *upmu;
	bool any = false;
	int pkg;

	upmu = kzalloc(sizeof(*upmu), GFP_KERNEL);
	if (!upmu)
		return ERR_PTR(-ENOMEM);
	upmu->boxes = kcalloc(uncore_max_pkgs, sizeof(*upmu->boxes), GFP_KERNEL);
	if (!upmu->boxes) {
		kfree(upmu);
		return ERR_PTR(-ENOMEM);
	}
	upmu->type = type;
	upmu->idx = idx;
	if (type->num_boxes > 1)
		snprintf(upmu->name, sizeof(upmu->name), "uncore_%s_%d",
			 type->name, idx);
	else
		snprintf(upmu->name, sizeof(upmu->name), "uncore_%s", type->name);

	for (pkg = 0; pkg < uncore_max_pkgs && !type->pci; pkg++) {
		if (type->present && !type->present(type, idx, pkg))
			continue;
		upmu->boxes[pkg] = uncore_new_box(upmu, pkg);
		if (!upmu->boxes[pkg]) {
			uncore_free_pmu(upmu);
			return ERR_PTR(-ENOMEM);
		}
		any = true;
	}
	if (!any && !type->pci) {
		uncore_free_pmu(upmu);
		return NULL;
	}

	upmu->attr_groups[0] = &ts->format;
	upmu->attr_groups[1] = &ts->events;
	upmu->attr_groups[2] = &uncore_pmu_group;
	uncore_pmu_setup(upmu);
	upmu->priv = (void *)ts;
	return upmu;
}

static void uncore_free_all(void)
{
	const struct uncore_type_sysfs *last = NULL;
	int i;

	for (i = 0; i < uncore_n_pmus; i++) {
		struct uncore_pmu *upmu = uncore_pmus[i];

		/* pmus of one type are consecutive and share the type's sysfs */
		if (upmu->priv != last) {
			last = upmu->priv;
			uncore_free_type_sysfs(upmu->priv);
		}
		uncore_free_pmu(upmu);
	}
	kfree(uncore_pmus);
	uncore_pmus = NULL;
	uncore_n_pmus = 0;
}

static int uncore_alloc_all(void)
{
	const struct uncore_type * const *tp;
	int max = 0, i;

	for (tp = uncore_plat->types; *tp; tp++)
		max += (*tp)->num_boxes;
	uncore_pmus = kcalloc(max, sizeof(*uncore_pmus), GFP_KERNEL);
	if (!uncore_pmus)
		return -ENOMEM;

	for (tp = uncore_plat->types; *tp; tp++) {
		struct uncore_type_sysfs *ts = uncore_alloc_type_sysfs(*tp);
		bool used = false;

		if (!ts)
			return -ENOMEM;
		for (i = 0; i < (*tp)->num_boxes; i++) {
			struct uncore_pmu *upmu = uncore_alloc_pmu(*tp, i, ts);

			if (IS_ERR(upmu)) {
				if (!used)
					uncore_free_type_sysfs(ts);
				return PTR_ERR(upmu);
			}
			if (!upmu)
				continue;
			uncore_pmus[uncore_n_pmus++] = upmu;
			used = true;
		}
		if (!used)
			uncore_free_type_sysfs(ts);
	}
	return 0;
}

static int uncore_register(struct uncore_pmu *upmu)
{
	int err = uncore_perf_pmu_register(&upmu->pmu, upmu->name);

	if (err == -EEXIST)
		pr_err("%s is registered already, by intel_uncore if it is loaded: "
		       UNCORE_INTEL_UNCORE_FIX "\n", upmu->name);
	else if (err)
		pr_err("cannot register %s: %d\n", upmu->name, err);
	else
		upmu->registered = true;
	return err;
}

static void uncore_unregister_all(void)
{
	int i;

	for (i = 0; i < uncore_n_pmus; i++) {
		if (!uncore_pmus[i]->registered)
			continue;
		uncore_perf_pmu_unregister(&uncore_pmus[i]->pmu);
		uncore_pmus[i]->registered = false;
	}
}

/**
 * uncore_find_pmu() - the pmu of a box index
 * @type: its type
 * @idx: the box index
 *
 * Context: process context, the pmus stable (load, unload, PCI probe).
 *
 * Return: the pmu, NULL if the type has none of that index.
 */
struct uncore_pmu *uncore_find_pmu(const struct uncore_type *type, int idx)
{
	int i;

	for (i = 0; i < uncore_n_pmus; i++)
		if (uncore_pmus[i]->type == type && uncore_pmus[i]->idx == idx)
			return uncore_pmus[i];
	return NULL;
}

static bool uncore_pmu_has_boxes(const struct uncore_pmu *upmu)
{
	int pkg;

	for (pkg = 0; pkg < uncore_max_pkgs; pkg++)
		if (upmu->boxes[pkg])
			return true;
	return false;
}

/**
 * uncore_pci_box_add() - a PCI box's device arrived
 * @type: its box type
 * @idx: box index within the type
 * @pkg: logical package, from the platform's bus mapping
 * @pdev: the PMON function (a reference is taken)
 * @aux_pdev: a second function the box needs, or NULL (reference taken)
 *
 * The box is reset and published; its pmu is registered if this is the
 * first box it has.
 *
 * Return: 0, -EBUSY if the package has this box already, or an errno.
 */
int uncore_pci_box_add(const struct uncore_type *type, int idx, int pkg,
		       struct pci_dev *pdev, struct pci_dev *aux_pdev)
{
	struct uncore_pmu *upmu = uncore_find_pmu(type, idx);
	struct uncore_box *box;
	int err = 0;

	if (WARN_ON_ONCE(!upmu || pkg < 0 || pkg >= uncore_max_pkgs))
		return -EINVAL;
	box = uncore_new_box(upmu, pkg);
	if (!box)
		return -ENOMEM;
	box->pdev = pci_dev_get(pdev);
	box->aux_pdev = pci_dev_get(aux_pdev);

	mutex_lock(&uncore_pci_mutex);
	cpus_read_lock();
	mutex_lock(&uncore_box_mutex);
	if (upmu->boxes[pkg]) {
		err = -EBUSY;
	} else {
		/* Config space is reachable from any CPU: reset it now. */
		box->cpu = uncore_pkgs[pkg].cpu;
		uncore_box_init(box);
		WRITE_ONCE(upmu->boxes[pkg], box);
	}
	mutex_unlock(&uncore_box_mutex);
	if (!err && !upmu->registered)
		err = uncore_register(upmu);
	if (err && err != -EBUSY) {
		mutex_lock(&uncore_box_mutex);
		WRITE_ONCE(upmu->boxes[pkg], NULL);
		mutex_unlock(&uncore_box_mutex);
	}
	cpus_read_unlock();
	mutex_unlock(&uncore_pci_mutex);

	if (err) {
		pci_dev_put(box->pdev);
		pci_dev_put(box->aux_pdev);
		kref_put(&box->ref, uncore_box_release);
	}
	return err;
}

/* On the box's CPU, IRQs off: every perf callback of the box runs there. */
static void uncore_box_kill(void *info)
{
	struct uncore_box *box = info;
	int i;

	for (i = 0; i < box->n_events; i++) {
		uncore_pmu_stop(box->events[i], PERF_EF_UPDATE);
		/* Their running time ends here, as a lost counter's does. */
		queue_work(system_wq, &to_uevent(box->events[i])->lost_work);
	}
	uncore_box_let_run(box);
	WRITE_ONCE(box->dead, true);
	hrtimer_try_to_cancel(&box->hrtimer);
}

/**
 * uncore_pci_box_remove() - a PCI box's device is going away
 * @pdev: its PMON function
 *
 * Events on the box are stopped and keep the counts read just now; from
 * then on nothing touches the device. The pmu is unregistered with its
 * last box, unless events are still open on it: perf 6.1 frees a pmu's
 * CPU contexts at unregistration, under any events still in them, so such
 * a pmu stays registered, boxless (new events get -ENODEV), until a box
 * returns or the module is unloaded.
 */
void uncore_pci_box_remove(struct pci_dev *pdev)
{
	struct uncore_box *box = NULL;
	struct uncore_pmu *upmu = NULL;
	bool unregister = false, wait = false;
	int i, pkg;

	mutex_lock(&uncore_pci_mutex);
	cpus_read_lock();
	mutex_lock(&uncore_box_mutex);
	for (i = 0; i < uncore_n_pmus && !box; i++) {
		for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
			struct uncore_box *b = uncore_pmus[i]->boxes[pkg];

			if (b && b->pdev == pdev) {
				box = b;
				upmu = uncore_pmus[i];
				break;
			}
		}
	}
	if (box) {
		if (box->cpu >= 0)
			smp_call_function_single(box->cpu, uncore_box_kill, box,
						 true);
		else
			WRITE_ONCE(box->dead, true);
		WRITE_ONCE(upmu->boxes[box->pkg], NULL);
		unregister = upmu->registered && !uncore_pmu_has_boxes(upmu) &&
			     !upmu->nr_events;
		/*
		 * From here hotplug leaves the pmu's (empty) contexts alone.
		 * An event may still be on its way out (see below) only if
		 * one was opened, and not while the module is going: every
		 * event holds a reference on it until perf is done with it.
		 */
		if (unregister) {
			upmu->registered = false;
			wait = upmu->used && THIS_MODULE->state != MODULE_STATE_GOING;
			upmu->used = false;
		}
	}
	mutex_unlock(&uncore_box_mutex);
	cpus_read_unlock();
	/*
	 * Not under cpus_read_lock(): unregistering waits for the pmu's sysfs
	 * readers, and cpumask_show() takes cpus_read_lock(), which a pending
	 * hotplug writer holds back: the three would wait in a cycle.
	 *
	 * perf frees the pmu's CPU contexts at unregistration: it must hold
	 * nothing of the pmu's events by then. nr_events dropped in their
	 * ->destroy(); uncore_wait_events_freed() waits for the rest.
	 */
	if (unregister) {
		if (wait)
			uncore_wait_events_freed();
		uncore_perf_pmu_unregister(&upmu->pmu);
	}
	mutex_unlock(&uncore_pci_mutex);

	if (!box)
		return;
	/* Dead: no path dereferences the devices any more. */
	pci_dev_put(box->pdev);
	pci_dev_put(box->aux_pdev);
	box->pdev = NULL;
	box->aux_pdev = NULL;
	kref_put(&box->ref, uncore_box_release);
}

/**
 * uncore_core_init() - register the pmus of a platform
 * @plat: the platform; its discover() has run
 *
 * Either every MSR pmu is registered or none is: a half-registered driver
 * would leave perf users guessing which boxes they can trust. PCI pmus are
 * registered as their boxes arrive, after this.
 *
 * Return: 0 or a negative errno.
 */
int uncore_core_init(const struct uncore_platform *plat)
{
	int err, i, pkg;

	uncore_plat = plat;
	uncore_pkgs = kcalloc(uncore_max_pkgs, sizeof(*uncore_pkgs), GFP_KERNEL);
	if (!uncore_pkgs)
		return -ENOMEM;
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
		uncore_pkgs[pkg].cpu = -1;
		uncore_pkgs[pkg].park = -1;
		uncore_pkgs[pkg].pmi.cpu = -1;
	}

	err = uncore_alloc_all();
	if (err)
		goto free;
	err = uncore_pmi_init();
	if (err)
		goto free;

	err = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "perf/uncore_pmu:online",
				uncore_cpu_online, uncore_cpu_offline);
	if (err < 0)
		goto free;
	uncore_hp_state = err;

	cpus_read_lock();
	for (i = 0; i < uncore_n_pmus; i++) {
		if (uncore_pmus[i]->type->pci)
			continue;
		err = uncore_register(uncore_pmus[i]);
		if (err)
			break;
	}
	cpus_read_unlock();
	if (err)
		goto unregister;

	uncore_debugfs_init();
	pr_info("%s: MSR access through %s\n", plat->name,
		uncore_access_backend());
	return 0;

unregister:
	uncore_unregister_all();
	uncore_exiting = true;
	cpuhp_remove_state(uncore_hp_state);
free:
	uncore_pmi_exit();
	uncore_free_all();
	kfree(uncore_pkgs);
	uncore_pkgs = NULL;
	return err;
}

/**
 * uncore_core_exit() - unregister everything uncore_core_init() set up
 *
 * The platform's PCI driver is gone by now, and with it the PCI boxes.
 */
void uncore_core_exit(void)
{
	uncore_debugfs_exit();
	uncore_unregister_all();
	uncore_exiting = true;
	cpuhp_remove_state(uncore_hp_state);
	uncore_pmi_exit();
	uncore_free_all();
	kfree(uncore_pkgs);
	uncore_pkgs = NULL;
}
