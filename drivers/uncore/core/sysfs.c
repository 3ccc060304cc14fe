// SPDX-License-Identifier: GPL-2.0
/*
 * What each pmu shows in sysfs (/sys/bus/event_source/devices/<pmu>/):
 * format/ from the type's format table, events/ from its event table
 * (with perf's .scale and .unit files, and only the events the part has),
 * cpumask (one reading CPU per package) and the counter counts and widths.
 * The attributes are built once per type at load and shared by its pmus.
 *
 * Context: process context: allocation at module load, show() from sysfs
 * reads.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "internal.h"

/*
 * perf 6.1 opens and parses every alias file of every pmu when it starts,
 * whatever it is asked to count: with every manual event listed that took
 * it 4 to 6 times as long as with mainline's aliases (benchmarks.rst,
 * "perf start-up"). By default events/ lists mainline's aliases, each
 * type's clockticks and the few an event table marks %listed (what
 * tools/uncore-top reads, and JSON names whose JSON encoding is refused);
 * perf's JSON names most of the others on the Xeon E5 v4, and
 * all_aliases=Y lists every one.
 */
static bool all_aliases;
module_param(all_aliases, bool, 0444);
MODULE_PARM_DESC(all_aliases,
		 "List every manual event under events/; N (default): mainline's, clockticks and the tables' %listed ones");

/**
 * uncore_available() - does a condition of the avail column hold
 * @cond: the condition ("rev_e"), or NULL
 *
 * Context: any.
 *
 * Return: true if the platform's available() says so, or has none.
 */
bool uncore_available(const char *cond)
{
	return !cond || !uncore_plat || !uncore_plat->available ||
	       uncore_plat->available(cond);
}

static bool uncore_listed(const struct uncore_event_desc *ev)
{
	return (all_aliases || ev->compat) && uncore_available(ev->avail);
}

static ssize_t uncore_str_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  container_of(attr, struct uncore_str_attr, attr)->str);
}

static struct uncore_pmu *dev_to_uncore_pmu(struct device *dev)
{
	return to_uncore_pmu(dev_get_drvdata(dev));
}

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct uncore_pmu *upmu = dev_to_uncore_pmu(dev);
	cpumask_var_t mask;
	ssize_t ret;
	int pkg, cpu;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	/*
	 * A snapshot, with no lock: a reader of this file holds the pmu's
	 * sysfs active, which perf_pmu_unregister() waits for with perf's
	 * pmus_lock held; a CPU going offline waits for pmus_lock with the
	 * hotplug lock held for writing, and cpus_read_lock() here would wait
	 * for that writer. The values are CPU numbers and box pointers only
	 * compared with NULL, each read once.
	 */
	for (pkg = 0; pkg < uncore_max_pkgs; pkg++) {
		cpu = READ_ONCE(uncore_pkgs[pkg].cpu);
		if (READ_ONCE(upmu->boxes[pkg]) && cpu >= 0)
			cpumask_set_cpu(cpu, mask);
	}
	ret = cpumap_print_to_pagebuf(true, buf, mask);
	free_cpumask_var(mask);
	return ret;
}
static DEVICE_ATTR_RO(cpumask);

static ssize_t num_counters_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	const struct uncore_type *type = dev_to_uncore_pmu(dev)->type;

	return sysfs_emit(buf, "%d\n", type->num_counters);
}
static DEVICE_ATTR_RO(num_counters);

static ssize_t counter_width_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	const struct uncore_type *type = dev_to_uncore_pmu(dev)->type;

	return sysfs_emit(buf, "%d\n", type->ctr_bits);
}
static DEVICE_ATTR_RO(counter_width);

static ssize_t fixed_counter_width_show(struct device *dev,
					struct device_attribute *attr, char *buf)
{
	const struct uncore_type *type = dev_to_uncore_pmu(dev)->type;

	return sysfs_emit(buf, "%d\n", type->fixed_ctr_bits);
}
static DEVICE_ATTR_RO(fixed_counter_width);

static struct attribute *uncore_pmu_attrs[] = {
	&dev_attr_cpumask.attr,
	&dev_attr_num_counters.attr,
	&dev_attr_counter_width.attr,
	&dev_attr_fixed_counter_width.attr,
	NULL,
};

const struct attribute_group uncore_pmu_group = {
	.attrs = uncore_pmu_attrs,
};

/**
 * uncore_free_type_sysfs() - free what uncore_alloc_type_sysfs() made
 * @ts: it, or NULL
 *
 * Context: process context.
 */
void uncore_free_type_sysfs(struct uncore_type_sysfs *ts)
{
	if (!ts)
		return;
	kfree(ts->format_attrs);
	kfree(ts->event_attrs);
	kfree(ts->strs);
	kfree(ts->names);
	kfree(ts);
}

static void uncore_fill_str(struct uncore_str_attr *sa, struct attribute **slot,
			    const char *name, const char *str)
{
	sysfs_attr_init(&sa->attr.attr);
	sa->attr.attr.name = name;
	sa->attr.attr.mode = 0444;
	sa->attr.show = uncore_str_show;
	sa->str = str;
	*slot = &sa->attr.attr;
}

/* Length of "<name>.<suffix>" plus its NUL, 0 if the event has no @str. */
static size_t uncore_suffix_len(const char *name, const char *str,
				const char *suffix)
{
	return str ? strlen(name) + 1 + strlen(suffix) + 1 : 0;
}

/*
 * The events/ group: each alias, and perf's <alias>.scale and <alias>.unit
 * beside it where the event has them. Names with a suffix are built in
 * @ts->names, one allocation for the type.
 */
static int uncore_fill_events(struct uncore_type_sysfs *ts,
			      const struct uncore_event_desc *ev, int first)
{
	struct uncore_str_attr *sa = ts->strs + first;
	struct attribute **slot = ts->event_attrs;
	size_t len = 0;
	char *p;
	int i;

	for (i = 0; ev && ev[i].name; i++) {
		if (!uncore_listed(&ev[i]))
			continue;
		len += uncore_suffix_len(ev[i].name, ev[i].scale, "scale") +
		       uncore_suffix_len(ev[i].name, ev[i].unit, "unit");
	}
	ts->names = kzalloc(len + 1, GFP_KERNEL);
	if (!ts->names)
		return -ENOMEM;

	p = ts->names;
	for (i = 0; ev && ev[i].name; i++) {
		if (!uncore_listed(&ev[i]))
			continue;
		uncore_fill_str(sa++, slot++, ev[i].name, ev[i].config);
		if (ev[i].scale) {
			len = sprintf(p, "%s.scale", ev[i].name) + 1;
			uncore_fill_str(sa++, slot++, p, ev[i].scale);
			p += len;
		}
		if (ev[i].unit) {
			len = sprintf(p, "%s.unit", ev[i].name) + 1;
			uncore_fill_str(sa++, slot++, p, ev[i].unit);
			p += len;
		}
	}
	return 0;
}

/**
 * uncore_alloc_type_sysfs() - build a type's format/ and events/ groups
 * @type: the type
 *
 * Shared by the type's pmus; events/ lists the aliases all_aliases and the
 * platform's available() allow.
 *
 * Context: process context (module load).
 *
 * Return: the groups, NULL on allocation failure.
 */
struct uncore_type_sysfs *uncore_alloc_type_sysfs(const struct uncore_type *type)
{
	const struct uncore_event_desc *ev = type->events;
	struct uncore_type_sysfs *ts;
	int nf = 0, ne = 0, i;

	while (type->formats && type->formats[nf].name)
		nf++;
	for (i = 0; ev && ev[i].name; i++)
		if (uncore_listed(&ev[i]))
			ne += 1 + !!ev[i].scale + !!ev[i].unit;

	ts = kzalloc(sizeof(*ts), GFP_KERNEL);
	if (!ts)
		return NULL;
	ts->format_attrs = kcalloc(nf + 1, sizeof(*ts->format_attrs), GFP_KERNEL);
	ts->event_attrs = kcalloc(ne + 1, sizeof(*ts->event_attrs), GFP_KERNEL);
	ts->strs = kcalloc(nf + ne, sizeof(*ts->strs), GFP_KERNEL);
	if (!ts->format_attrs || !ts->event_attrs || (nf + ne && !ts->strs))
		goto fail;
	for (i = 0; i < nf; i++)
		uncore_fill_str(&ts->strs[i], &ts->format_attrs[i],
				type->formats[i].name, type->formats[i].spec);
	if (uncore_fill_events(ts, ev, nf))
		goto fail;
	ts->format.name = "format";
	ts->format.attrs = ts->format_attrs;
	ts->events.name = "events";
	ts->events.attrs = ts->event_attrs;
	return ts;

fail:
	uncore_free_type_sysfs(ts);
	return NULL;
}
