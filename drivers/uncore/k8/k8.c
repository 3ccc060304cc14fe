// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_pmu: the northbridge events of the AMD Athlon 64 and Opteron (K8,
 * CPUID family 0Fh) as one PMU per node, uncore_nb.
 *
 * BKDG 26094, chapter 10 (seed 004): a K8 core has four counters,
 * PerfEvtSel0-3 at C001_0000h and PerfCtr0-3 at C001_0004h (004:19, 44-46).
 * Event codes E0h-FFh count in the northbridge, which the cores of a node
 * share (004:38): DRAM controller, system request interface, crossbar and
 * HyperTransport links. There are no uncore counters: these events go
 * through the core counters, which the kernel's core PMU and its NMI
 * watchdog own.
 *
 * So uncore_nb counts nothing itself. Its event_init checks the event as
 * the BKDG allows it, places it on its node's reading CPU and hands it to
 * the core PMU as the raw event it is (&struct uncore_type.forward): the
 * core PMU's per-node owner table keeps two cores of a node off one
 * counter index for northbridge events, the watchdog and `perf stat -e
 * cycles` keep working, and multiplexing is perf's own. What that costs
 * (hotplug of the reading CPU, cgroups, the BKDG's stricter sibling rule,
 * a halted reading core) is in Documentation/uncore_pmu.rst, "The K8
 * northbridge".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <asm/processor.h>

#include "uncore.h"
#include "k8.h"

/* PerfEvtSel fields (004:50-72); bit 21 and bits 63:32 are not described. */
#define K8_EVENT		GENMASK_ULL(7, 0)
#define K8_UMASK		GENMASK_ULL(15, 8)
#define K8_EDGE			BIT_ULL(18)
#define K8_EN			BIT_ULL(22)
#define K8_INV			BIT_ULL(23)
#define K8_CMASK		GENMASK_ULL(31, 24)
/* CNT_MASK above 3 is reserved: at most 3 events occur per clock (004:72). */
#define K8_CMASK_MAX		3

/* Cycles not halted, the core event the probe asks the core PMU for. */
#define K8_CYCLES		0x76

/*
 * The revision, from CPUID's extended model (family 0Fh: Linux's x86_model
 * is extended model << 4 | model). Not in the seed, which points to the
 * Revision Guide 25759 (004:36) [EXT: Linux's amd64_edac.h K8_REV_D = 1,
 * K8_REV_E = 2, K8_REV_F = 4, and k8temp.c; libpfm4's amd64 revision
 * table]: 0 is revision B or C, 1 D, 2 and 3 E, 4 and later F and G.
 */
#define K8_EXT_MODEL_REV_D	1
#define K8_EXT_MODEL_REV_E	2

static unsigned int k8_ext_model(void)
{
	return boot_cpu_data.x86_model >> 4;
}

/*
 * The seed is the BKDG of revisions up to E; revisions F and G have
 * another (32559). "Revision E" is read as E and later, the events and
 * unit masks as the same on F and G: an assumption (uncore_pmu.rst).
 */
static bool k8_available(const char *cond)
{
	if (!strcmp(cond, "rev_d"))
		return k8_ext_model() >= K8_EXT_MODEL_REV_D;
	if (!strcmp(cond, "rev_e"))
		return k8_ext_model() >= K8_EXT_MODEL_REV_E;
	return false;
}

/**
 * struct k8_nb_event - what the BKDG allows of a northbridge event
 * @code: event select
 * @umasks: the unit mask bits its table lists; 0: it has no table and takes
 *	no unit mask (004:56)
 * @rev_d: unit mask bits that need revision D (the whole event's needs
 *	are in the alias table's avail column)
 */
struct k8_nb_event {
	u8 code;
	u8 umasks;
	u8 rev_d;
};

/* 10.2.1.7-10.2.1.9 (004:542-720): the listed unit masks of each code. */
static const struct k8_nb_event k8_nb_rules[] = {
	{ 0xe0, 0x07 },		/* DRAM accesses */
	{ 0xe1, 0x00 },		/* page table overflows */
	{ 0xe3, 0x07 },		/* turnarounds */
	{ 0xe4, 0x0f },		/* bypass counter saturation */
	{ 0xe5, 0x3c },		/* sized blocks, rev D (01h, 02h unlisted) */
	{ 0xe8, 0x80 },		/* ECC errors, rev E */
	{ 0xe9, 0xff },		/* CPU/IO requests, rev E: k8_e9_valid() */
	{ 0xea, 0x3d },		/* cache block commands, rev E (02h unlisted) */
	{ 0xeb, 0x7f },		/* sized commands */
	{ 0xec, 0x7f, 0x40 },	/* probe responses, upstream writes rev D */
	{ 0xee, 0x07 },		/* GART */
	{ 0xf6, 0x0f },		/* HT link 0 transmit; Nop (08h) at 004:721 */
	{ 0xf7, 0x0f },		/* HT link 1 */
	{ 0xf8, 0x0f },		/* HT link 2 */
};

/*
 * E9h's unit mask names a type (3:0), a target (5:4) and a source (7:6),
 * and only some paths exist (004:614-623): A8h, A4h, A2h, A1h (local to
 * local), 98h, 94h, 92h, 91h (local to remote), 64h, 61h (remote to
 * local). Valid values may be ORed (004:625): a mask is valid when it is
 * such an OR. At least one type, source and target bit alone would let
 * through paths the table says do not exist (68h: remote CPU to local
 * memory).
 */
static const u8 k8_e9_paths[] = {
	0xa8, 0xa4, 0xa2, 0xa1, 0x98, 0x94, 0x92, 0x91, 0x64, 0x61,
};

static bool k8_e9_valid(u8 umask)
{
	u8 covered = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(k8_e9_paths); i++)
		if (!(k8_e9_paths[i] & ~umask))
			covered |= k8_e9_paths[i];
	return umask && covered == umask;
}

static const struct k8_nb_event *k8_nb_find(u8 code)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(k8_nb_rules); i++)
		if (k8_nb_rules[i].code == code)
			return &k8_nb_rules[i];
	return NULL;
}

/*
 * The core PMU drops raw config bits it does not know and checks no
 * unit mask or CNT_MASK (arch/x86/events/amd/core.c): every rule of the
 * BKDG is checked here, before the event is handed on. The alias table's
 * avail column has refused whole events the revision lacks already.
 */
static int k8_nb_hw_config(const struct uncore_type *type,
			   struct perf_event *event, struct uncore_event *ue)
{
	u64 config = event->attr.config;
	u8 umask = FIELD_GET(K8_UMASK, config);
	const struct k8_nb_event *e;

	/* Codes below E0h are core events; the BKDG lists no other NB code. */
	e = k8_nb_find(FIELD_GET(K8_EVENT, config));
	if (!e)
		return -EINVAL;
	if (FIELD_GET(K8_CMASK, config) > K8_CMASK_MAX)
		return -EINVAL;
	if (e->code == 0xe9)
		return k8_e9_valid(umask) ? 0 : -EINVAL;
	/* An event with a unit mask table counts nothing without one. */
	if ((umask & ~e->umasks) || (e->umasks && !umask))
		return -EINVAL;
	if ((umask & e->rev_d) && k8_ext_model() < K8_EXT_MODEL_REV_D)
		return -EINVAL;
	return 0;
}

/*
 * The core PMU's raw format is PerfEvtSel's (event 7:0, umask 15:8, edge
 * 18, inv 23, cmask 31:24), as uncore_nb's is: the config goes unchanged.
 * The core PMU adds USR and OS (no exclude_* got here) and INT.
 */
static int k8_nb_forward(const struct uncore_type *type,
			 struct perf_event *event)
{
	event->attr.type = PERF_TYPE_RAW;
	return 0;
}

static const struct uncore_format_desc k8_nb_formats[] = {
	{ "event",	"config:0-7" },
	{ "umask",	"config:8-15" },
	{ "edge",	"config:18" },
	{ "inv",	"config:23" },
	{ "cmask",	"config:24-31" },
	{ }
};

/*
 * The layout the core validates with: INV inverts the CNT_MASK comparison
 * (004:70-72), so without a CNT_MASK it is undefined and refused. Nothing
 * here ever writes a register.
 */
static const struct uncore_ctl_layout k8_nb_ctl = {
	.en		= K8_EN,
	.thresh		= K8_CMASK,
	.need_thresh	= K8_INV,
};

/* No clock is given; K8 parts ran at up to 3.2 GHz [INF]. */
#define K8_MAX_HZ	3200000000ULL

const struct uncore_type k8_nb = {
	.name		= "nb",
	.num_boxes	= 1,
	.num_counters	= 4,
	.ctr_bits	= 48,
	.max_inc	= 3,
	.clock_hz	= K8_MAX_HZ,
	.ctl		= &k8_nb_ctl,
	.config_mask	= K8_EVENT | K8_UMASK | K8_EDGE | K8_INV | K8_CMASK,
	.constraints	= k8_nb_constraints,
	.avail		= k8_nb_avail,
	.formats	= k8_nb_formats,
	.events		= k8_nb_events,
	.hw_config	= k8_nb_hw_config,
	.forward	= k8_nb_forward,
};

static const struct uncore_type * const k8_types[] = {
	&k8_nb,
	NULL,
};

/*
 * The events need a core PMU to count on. A guest without one (QEMU under
 * TCG: "PMU not available due to virtualization") has none unless the
 * simulator's stand-in is loaded: ask for a disabled cycles event, which
 * any core PMU takes and none counts.
 */
static int k8_probe(void)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_RAW,
		.size		= sizeof(attr),
		.config		= K8_CYCLES,
		.disabled	= 1,
	};
	struct perf_event *ev;
	int cpu;

	cpus_read_lock();
	cpu = cpumask_first(cpu_online_mask);
	ev = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	cpus_read_unlock();
	if (IS_ERR(ev)) {
		pr_info("K8: no core PMU to count northbridge events on (%ld)\n",
			PTR_ERR(ev));
		return -ENODEV;
	}
	perf_event_release_kernel(ev);
	pr_info("K8 revision %s (CPUID family 0Fh model %02xh stepping %u)\n",
		k8_ext_model() >= K8_EXT_MODEL_REV_E ? "E or later" :
		k8_ext_model() >= K8_EXT_MODEL_REV_D ? "D" : "B or C",
		boot_cpu_data.x86_model, boot_cpu_data.x86_stepping);
	return 0;
}

const struct uncore_platform k8_platform = {
	.id		= "k8",
	.name		= "Athlon 64 / Opteron (K8) northbridge",
	.probe		= k8_probe,
	.types		= k8_types,
	.available	= k8_available,
};
