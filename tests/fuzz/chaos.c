// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_fuzz's operations on the machine, run by the main process while
 * the workers work the events: the simulator's injections (occurrences,
 * bursts of them, counters preloaded near their wrap, overflow storms
 * over every box of a package, sim time advanced), CPU hotplug of the
 * PMUs' reading CPUs, PCI unbind and rebind of the boxes' devices and
 * writes of the driver's writable module parameters, values in and out
 * of range. At the end everything is put back: CPUs online, devices
 * bound, parameters as they were, K8 cores running, Xeon MP rates 0.
 *
 * The injections are a per-part table of templates, keyed by the PMU's
 * stem ("cbox" of uncore_cbox_3), in the grammar of
 * Documentation/simulator.rst. In a template: %P the package (one whose
 * reading CPU the PMU's cpumask lists), %I the PMU's index, %Q a port of
 * the R-Box half %I, %E and %U the event and umask of one of the PMU's
 * aliases (or random), %N a count (small to a wrap of 48 bits), %R an
 * increment, %J an E9h path, %Z a CPU of the package, %rB a random value
 * of B bits, %cN one of 0..N-1, %WB a value near the wrap of B bits; a
 * token starting with '?' is optional.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

#define PCI_DRV		"/sys/bus/pci/drivers/uncore_pmu/"
#define PARAMS		"/sys/module/uncore_pmu/parameters/"
#define CPU_DIR		"/sys/devices/system/cpu/"
#define MAX_DEVS	96
#define MAX_UNBOUND	4
#define MAX_PARAMS	16
#define SIM_WRITE_MAX	4000	/* debugfs takes a page per write */

enum tpl_kind {
	T_INJECT,
	T_COUNTER,
	T_RATE,
	T_NR,
};

struct tpl {
	const char *part;
	const char *stem;
	enum tpl_kind kind;
	const char *line;
};

#define BDX_EV	"event=%E ?umask=%U count=%N ?inc=%R"

static const struct tpl tpls[] = {
	/* Broadwell-EP/EX: every box kind, its filters and match keys optional. */
	{ "bdx", "ubox", T_INJECT, "pkg=%P box=ubox " BDX_EV },
	{ "bdx", "cbox", T_INJECT, "pkg=%P box=cbox idx=%I " BDX_EV
	  " ?tid=%r6 ?state=%r7 ?opc=%r9 ?nid=%r16 ?nc=%r1 ?isoc=%r1" },
	{ "bdx", "sbox", T_INJECT, "pkg=%P box=sbox idx=%I " BDX_EV },
	{ "bdx", "pcu", T_INJECT, "pkg=%P box=pcu " BDX_EV " ?freq=%r8 ?cores=%r8" },
	{ "bdx", "ha", T_INJECT, "pkg=%P box=ha idx=%I " BDX_EV " ?addr=%r46 ?hopc=%r6" },
	{ "bdx", "imc", T_INJECT, "pkg=%P box=imc idx=%I " BDX_EV },
	{ "bdx", "irp", T_INJECT, "pkg=%P box=irp " BDX_EV },
	{ "bdx", "qpi", T_INJECT, "pkg=%P box=qpi idx=%I " BDX_EV
	  " ?tx=%r1 ?pkt0=%r32 ?pkt1=%r32" },
	{ "bdx", "r2pcie", T_INJECT, "pkg=%P box=r2pcie " BDX_EV },
	{ "bdx", "r3qpi", T_INJECT, "pkg=%P box=r3qpi idx=%I " BDX_EV },
	{ "bdx", "ubox", T_COUNTER, "pkg=%P box=ubox ctr=%c2 value=%W48" },
	{ "bdx", "ubox", T_COUNTER, "pkg=%P box=ubox ctr=fixed value=%W48" },
	{ "bdx", "cbox", T_COUNTER, "pkg=%P box=cbox idx=%I ctr=%c4 value=%W48" },
	{ "bdx", "sbox", T_COUNTER, "pkg=%P box=sbox idx=%I ctr=%c4 value=%W48" },
	{ "bdx", "pcu", T_COUNTER, "pkg=%P box=pcu ctr=%c4 value=%W48" },
	{ "bdx", "ha", T_COUNTER, "pkg=%P box=ha idx=%I ctr=%c4 value=%W48" },
	{ "bdx", "imc", T_COUNTER, "pkg=%P box=imc idx=%I ctr=%c4 value=%W48" },
	{ "bdx", "imc", T_COUNTER, "pkg=%P box=imc idx=%I ctr=fixed value=%W48" },
	{ "bdx", "irp", T_COUNTER, "pkg=%P box=irp ctr=%c4 value=%W48" },
	{ "bdx", "qpi", T_COUNTER, "pkg=%P box=qpi idx=%I ctr=%c4 value=%W48" },
	{ "bdx", "r2pcie", T_COUNTER, "pkg=%P box=r2pcie ctr=%c4 value=%W48" },
	{ "bdx", "r3qpi", T_COUNTER, "pkg=%P box=r3qpi idx=%I ctr=%c3 value=%W48" },

	/* Xeon 7500: each box's own keys. */
	{ "nhmex", "ubox", T_INJECT, "pkg=%P box=ubox event=%E count=%N ?inc=%R" },
	{ "nhmex", "cbox", T_INJECT, "pkg=%P box=cbox idx=%I " BDX_EV },
	{ "nhmex", "bbox", T_INJECT,
	  "pkg=%P box=bbox idx=%I ctr=%c4 event=%r5 ?pkt=%r64 count=%N ?inc=%R" },
	{ "nhmex", "sbox", T_INJECT, "pkg=%P box=sbox idx=%I " BDX_EV " ?pkt=%r64" },
	{ "nhmex", "sbox", T_INJECT,
	  "pkg=%P box=sbox idx=%I event=%E ?umask=%U enq=%r7 ?deq=%r7 count=%N" },
	{ "nhmex", "mbox", T_INJECT,
	  "pkg=%P box=mbox idx=%I sel=%r5 ?dsp=%r64 ?iss=%r64 ?map=%r64 ?thr=%r64 ?pgt=%r64 ?pld=%r64 ?fvc=%r3 ?addr=%r34 count=%N ?inc=%R" },
	{ "nhmex", "mbox", T_INJECT, "pkg=%P box=mbox idx=%I sel=%r3 flag=1 count=%N ?inc=%R" },
	{ "nhmex", "rbox", T_INJECT, "pkg=%P box=rbox port=%Q iperf=%r32 count=%N ?inc=%R" },
	{ "nhmex", "rbox", T_INJECT, "pkg=%P box=rbox port=%Q qlx=%r8 count=%N ?inc=%R" },
	{ "nhmex", "rbox", T_INJECT, "pkg=%P box=rbox port=%Q xbr=%r64 count=%N ?inc=%R" },
	{ "nhmex", "wbox", T_INJECT, "pkg=%P box=wbox " BDX_EV },
	{ "nhmex", "ubox", T_COUNTER, "pkg=%P box=ubox ctr=0 value=%W48" },
	{ "nhmex", "cbox", T_COUNTER, "pkg=%P box=cbox idx=%I ctr=%c6 value=%W48" },
	{ "nhmex", "bbox", T_COUNTER, "pkg=%P box=bbox idx=%I ctr=%c4 value=%W48" },
	{ "nhmex", "sbox", T_COUNTER, "pkg=%P box=sbox idx=%I ctr=%c4 value=%W48" },
	{ "nhmex", "mbox", T_COUNTER, "pkg=%P box=mbox idx=%I ctr=%c6 value=%W48" },
	{ "nhmex", "rbox", T_COUNTER, "pkg=%P box=rbox idx=%I ctr=%c8 value=%W48" },
	{ "nhmex", "wbox", T_COUNTER, "pkg=%P box=wbox ctr=%c4 value=%W48" },
	{ "nhmex", "wbox", T_COUNTER, "pkg=%P box=wbox ctr=fixed value=%W48" },

	/* Xeon MP with L3: two counters a unit, the 64-bit latency counter. */
	{ "p4mp", "ibusq", T_INJECT, "pkg=%P box=ibusq idx=%c2 count=%N" },
	{ "p4mp", "isnpq", T_INJECT, "pkg=%P box=isnpq idx=%c2 count=%N" },
	{ "p4mp", "efsb", T_INJECT, "pkg=%P box=efsb idx=%c2 count=%N" },
	{ "p4mp", "ibusq_lat", T_INJECT, "pkg=%P box=lat count=%N" },
	{ "p4mp", "ibusq", T_RATE, "pkg=%P box=ibusq idx=%c2 rate=%r30" },
	{ "p4mp", "isnpq", T_RATE, "pkg=%P box=isnpq idx=%c2 rate=%r30" },
	{ "p4mp", "efsb", T_RATE, "pkg=%P box=efsb idx=%c2 rate=%r30" },
	{ "p4mp", "ibusq_lat", T_RATE, "pkg=%P box=lat rate=%r30" },
	{ "p4mp", "ibusq", T_COUNTER, "pkg=%P box=ibusq idx=%c2 value=%W32" },
	{ "p4mp", "isnpq", T_COUNTER, "pkg=%P box=isnpq idx=%c2 value=%W32" },
	{ "p4mp", "efsb", T_COUNTER, "pkg=%P box=efsb idx=%c2 value=%W32" },
	{ "p4mp", "ibusq_lat", T_COUNTER, "pkg=%P box=lat value=%W64" },

	/* K8: node events, E9h's paths, a core's counters. */
	{ "k8", "nb", T_INJECT, "pkg=%P event=%E ?umask=%U count=%N ?inc=%c4" },
	{ "k8", "nb", T_INJECT, "pkg=%P event=0xe9 umask=%J count=%N ?inc=%c4" },
	{ "k8", "nb", T_COUNTER, "cpu=%Z ctr=%c4 value=%W48" },
};

static const char * const tpl_files[T_NR] = { "inject", "counter", "inject" };

/* Per kind, the (PMU, template) pairs of this part. */
static struct {
	int pmu;
	int tpl;
} pairs[T_NR][MAX_PMUS * 4];
static int npairs[T_NR];

static bool has_sim;
static bool cpu_online_file[MAX_CPUS];
static bool offline[MAX_CPUS];
static int noffline;
static char devs[MAX_DEVS][32];
static bool unbound[MAX_DEVS];
static int ndevs, nunbound;
static struct {
	char name[64];
	char orig[64];
} params[MAX_PARAMS];
static int nparams;
static bool halted[MAX_CPUS];
static bool rates_set;

void chaos_init(void)
{
	struct stat stb;
	char path[256];
	char **names;
	int i, k, n;
	size_t t;

	has_sim = cfg.inject && !access(SIM_DIR "inject", W_OK);
	for (i = 0; i < npmus; i++) {
		for (t = 0; t < ARRAY_SIZE(tpls); t++) {
			k = tpls[t].kind;
			if (strcmp(tpls[t].part, cfg.part) || strcmp(tpls[t].stem, pmus[i].stem) ||
			    npairs[k] >= MAX_PMUS * 4)
				continue;
			pairs[k][npairs[k]].pmu = i;
			pairs[k][npairs[k]].tpl = t;
			npairs[k]++;
		}
	}
	for (i = 0; i < ncpus; i++) {
		snprintf(path, sizeof(path), CPU_DIR "cpu%d/online", i);
		cpu_online_file[i] = cfg.hotplug && !access(path, W_OK);
	}
	n = 0;
	names = cfg.unbind ? list_dir(PCI_DRV, &n) : NULL;
	for (i = 0; names && i < n && ndevs < MAX_DEVS; i++)
		if (strchr(names[i], ':') && strchr(names[i], '.'))
			snprintf(devs[ndevs++], sizeof(devs[0]), "%.31s", names[i]);
	free_list(names, n);
	n = 0;
	names = cfg.params ? list_dir(PARAMS, &n) : NULL;
	for (i = 0; names && i < n && nparams < MAX_PARAMS; i++) {
		snprintf(path, sizeof(path), PARAMS "%.63s", names[i]);
		if (stat(path, &stb) || !(stb.st_mode & 0200))
			continue;
		snprintf(params[nparams].name, sizeof(params[0].name), "%.63s", names[i]);
		if (read_file(path, params[nparams].orig, sizeof(params[0].orig)) < 0)
			continue;
		params[nparams].orig[strcspn(params[nparams].orig, "\n")] = '\0';
		nparams++;
	}
	free_list(names, n);
	for (i = n = 0; i < ncpus; i++)
		n += cpu_online_file[i];
	printf("uncore_fuzz: chaos: simulator %s (%d inject, %d counter, %d rate templates), %d hotpluggable CPUs, %d PCI devices, %d writable parameters\n",
	       has_sim ? "yes" : "no", npairs[T_INJECT], npairs[T_COUNTER], npairs[T_RATE], n,
	       ndevs, nparams);
}

/* ---- templates ------------------------------------------------------------ */

static uint64_t gen_count(struct rng *o, bool storm)
{
	if (storm)
		return (1ULL << 47) + below(o, 1ULL << 47);
	switch (below(o, 10)) {
	case 0: case 1: case 2: case 3:
		return 1 + below(o, 100);
	case 4: case 5:
		return 100 + below(o, 1000000);
	case 6:
		return (1ULL << 20) + below(o, 1ULL << 32);
	case 7:
		return (1ULL << 32) - 8 + below(o, 16);
	case 8:
		return (1ULL << 40) + below(o, 1ULL << 47);
	default:
		return (1ULL << 47) + below(o, 1ULL << 47);
	}
}

/* Near the wrap of @bits: 2^bits - 1, a little below it, or anywhere. */
static uint64_t gen_wrap(struct rng *o, unsigned int bits)
{
	uint64_t top = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;

	switch (below(o, 4)) {
	case 0:
		return top;
	case 1:
	case 2:
		return top - below(o, 1ULL << (1 + below(o, 24)));
	default:
		return rnd(o) & top;
	}
}

/* A package whose reading CPU @pmu's cpumask lists; now and then any. */
static int gen_pkg(struct rng *o, int pmu)
{
	int cpu = pick_cpu(o, sh->cpumask[pmu]);

	if (chance(o, 5) || cpu < 0 || pkg_of[cpu] < 0)
		return below(o, npkgs);
	return pkg_of[cpu];
}

static int cpu_of_pkg(struct rng *o, int pkg)
{
	uint64_t mask = 0;
	int cpu;

	for (cpu = 0; cpu < ncpus; cpu++)
		if (pkg_of[cpu] == pkg)
			mask |= 1ULL << cpu;
	cpu = pick_cpu(o, mask);
	return cpu < 0 ? 0 : cpu;
}

/* Expands template @t for @pmu on package @pkg into @out. */
static void expand(struct rng *o, const struct tpl *t, int pmu, int pkg, bool storm, char *out,
		   size_t len)
{
	static const unsigned int e9[] = {
		0xa8, 0xa4, 0xa2, 0xa1, 0x98, 0x94, 0x92, 0x91, 0x64, 0x61,
	};
	static const uint64_t incs[] = { 0, 1, 1, 2, 3, 20, 255 };
	const struct pmu *p = &pmus[pmu];
	const struct alias *a = p->na && chance(o, 70) ? &p->a[below(o, p->na)] : NULL;
	const char *s = t->line;
	size_t n = 0;
	bool keep = true;
	char *end;

	out[0] = '\0';
	while (*s && n + 32 < len) {
		uint64_t v = 0;
		unsigned long arg;
		char c;

		if (s == t->line || s[-1] == ' ') {
			keep = true;
			if (*s == '?') {
				keep = chance(o, 30);
				s++;
			}
		}
		if (*s != '%') {
			if (keep)
				out[n++] = *s;
			s++;
			continue;
		}
		c = s[1];
		s += 2;
		arg = strtoul(s, &end, 10);
		if (strchr("rcW", c))
			s = end;
		switch (c) {
		case 'P':
			v = pkg;
			break;
		case 'I':
			v = p->idx < 0 ? 0 : p->idx;
			break;
		case 'Q':
			v = (p->idx < 0 ? 0 : p->idx) * 4 + below(o, 4);
			break;
		case 'E':
			v = a && a->event >= 0 ? (uint64_t)a->event : rnd_bits(o, 8);
			break;
		case 'U':
			v = a && a->umask >= 0 ? (uint64_t)a->umask : rnd_bits(o, 8);
			break;
		case 'N':
			v = gen_count(o, storm);
			break;
		case 'R':
			v = incs[below(o, ARRAY_SIZE(incs))];
			break;
		case 'J':
			v = e9[below(o, ARRAY_SIZE(e9))];
			break;
		case 'Z':
			v = cpu_of_pkg(o, pkg);
			break;
		case 'r':
			v = rnd_bits(o, arg);
			break;
		case 'c':
			v = below(o, arg);
			break;
		case 'W':
			v = gen_wrap(o, arg);
			break;
		}
		if (keep)
			n += snprintf(out + n, len - n, c == 'P' || c == 'I' || c == 'Q' ||
				      c == 'Z' || c == 'c' ? "%llu" : "0x%llx",
				      (unsigned long long)v);
	}
	/* An optional last token left a trailing space. */
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

/* One line of kind @k for a random PMU of the part; false if it has none. */
static bool gen_line(struct rng *o, enum tpl_kind k, int pkg, bool storm, char *out, size_t len,
		     int *pmu)
{
	int i;

	if (!npairs[k])
		return false;
	i = below(o, npairs[k]);
	*pmu = pairs[k][i].pmu;
	expand(o, &tpls[pairs[k][i].tpl], *pmu, pkg < 0 ? gen_pkg(o, *pmu) : pkg, storm,
	       out, len);
	return true;
}

static int sim_write(const char *file, const char *buf)
{
	char path[128];

	snprintf(path, sizeof(path), SIM_DIR "%s", file);
	return write_file(path, buf);
}

/* ---- operations ----------------------------------------------------------- */

static void result(struct ctx *c, enum op_kind k, int err, const char *what)
{
	c->st->tries[k]++;
	c->st->c[C_SYSCALLS]++;
	if (err)
		c->st->c[C_ERRORS]++;
	else
		c->st->ok[k]++;
	logop(c, "%s = %s%s", what, err ? "-" : "0", err ? err_name(-err) : "");
}

static void ch_line(struct ctx *c, struct rng *o, enum tpl_kind k, enum op_kind op)
{
	char line[512], what[600];
	int pmu, err;

	if (!has_sim || !gen_line(o, k, -1, false, line, sizeof(line), &pmu)) {
		logop(c, "chaos %s: nothing to do", tpl_files[k]);
		return;
	}
	op_begin(c, "sim %s %s", tpl_files[k], line);
	err = sim_write(tpl_files[k], line);
	op_end(c);
	if (k == T_RATE && !err)
		rates_set = true;
	snprintf(what, sizeof(what), "sim %s (%s) %s", tpl_files[k], pmus[pmu].name, line);
	result(c, op, err, what);
}

static void ch_inject(struct ctx *c, struct rng *o)
{
	ch_line(c, o, T_INJECT, K_INJECT);
}

static void ch_preload(struct ctx *c, struct rng *o)
{
	ch_line(c, o, T_COUNTER, K_PRELOAD);
}

static void ch_rate(struct ctx *c, struct rng *o)
{
	ch_line(c, o, T_RATE, K_RATE);
}

static bool on_pkg(uint64_t mask, int pkg)
{
	int cpu;

	for (cpu = 0; cpu < ncpus; cpu++)
		if ((mask >> cpu & 1) && pkg_of[cpu] == pkg)
			return true;
	return false;
}

/*
 * Several lines in one write: a burst of occurrences on random boxes, or a
 * storm, every box of one package counting past 2^47 at once.
 */
static void ch_many(struct ctx *c, struct rng *o, bool storm)
{
	char buf[SIM_WRITE_MAX + 512], line[512];
	int i, n = storm ? 4 * npmus : 2 + (int)below(o, 11);
	int pkg = storm ? (int)below(o, npkgs) : -1;
	size_t len = 0;
	int pmu, err, lines = 0;

	buf[0] = '\0';
	for (i = 0; has_sim && i < n; i++) {
		if (!gen_line(o, T_INJECT, pkg, storm, line, sizeof(line), &pmu))
			break;
		/* A storm only on boxes the package has (the cpumask says). */
		if (storm && !on_pkg(sh->cpumask[pmu], pkg))
			continue;
		if (len + strlen(line) + 2 > SIM_WRITE_MAX)
			break;
		len += snprintf(buf + len, sizeof(buf) - len, "%s\n", line);
		lines++;
	}
	if (!lines) {
		logop(c, "chaos %s: nothing to do", storm ? "storm" : "burst");
		return;
	}
	if (storm)
		kmsg("chaos #%llu sim storm of %d lines on package %d", (unsigned long long)c->nop,
		     lines, pkg);
	op_begin(c, "sim inject %d lines", lines);
	err = sim_write("inject", buf);
	op_end(c);
	snprintf(line, sizeof(line), "sim %s of %d lines, pkg %d", storm ? "storm" : "burst",
		 lines, pkg);
	result(c, storm ? K_STORM : K_BURST, err, line);
	logop(c, "  lines: %.*s", (int)(len > 600 ? 600 : len), buf);
}

static void ch_burst(struct ctx *c, struct rng *o)
{
	ch_many(c, o, false);
}

static void ch_storm(struct ctx *c, struct rng *o)
{
	ch_many(c, o, true);
}

/* Sim time jumps: clock-driven counters count it all at once. */
static void ch_clock(struct ctx *c, struct rng *o)
{
	static const uint64_t ns[] = { 1000, 100000, 10000000, 1000000000 };
	char buf[64];
	int err;

	if (!has_sim) {
		logop(c, "chaos clock: no simulator");
		return;
	}
	snprintf(buf, sizeof(buf), "advance %llu", (unsigned long long)ns[below(o, 4)]);
	kmsg("chaos #%llu sim clock %s", (unsigned long long)c->nop, buf);
	op_begin(c, "sim clock %s", buf);
	err = sim_write("clock", buf);
	op_end(c);
	result(c, K_CLOCK, err, buf);
}

static int set_online(struct ctx *c, int cpu, int on)
{
	char path[128], what[64];
	int err;

	snprintf(path, sizeof(path), CPU_DIR "cpu%d/online", cpu);
	snprintf(what, sizeof(what), "cpu%d online=%d", cpu, on);
	kmsg("chaos #%llu %s", (unsigned long long)c->nop, what);
	op_begin(c, "%s", what);
	err = write_file(path, on ? "1" : "0");
	op_end(c);
	result(c, on ? K_ONLINE : K_OFFLINE, err, what);
	if (!err) {
		offline[cpu] = !on;
		noffline += on ? -1 : 1;
	}
	refresh_pmus();
	return err;
}

/* A reading CPU (from a cpumask) goes offline; at most half of them at once. */
static void ch_offline(struct ctx *c, struct rng *o)
{
	int cpu = chance(o, 80) ? pick_cpu(o, sh->cpumask[below(o, npmus)]) : (int)below(o, ncpus);

	if (cpu < 0 || !cpu_online_file[cpu] || offline[cpu] || noffline + 1 > ncpus / 2) {
		logop(c, "chaos offline cpu%d: not now", cpu);
		return;
	}
	set_online(c, cpu, 0);
}

static void ch_online(struct ctx *c, struct rng *o)
{
	uint64_t mask = 0;
	int cpu;

	for (cpu = 0; cpu < ncpus; cpu++)
		if (offline[cpu])
			mask |= 1ULL << cpu;
	cpu = pick_cpu(o, mask);
	if (cpu < 0) {
		logop(c, "chaos online: none offline");
		return;
	}
	set_online(c, cpu, 1);
}

static int set_bound(struct ctx *c, int i, bool bind)
{
	char what[96];
	int err;

	snprintf(what, sizeof(what), "pci %s %s", bind ? "bind" : "unbind", devs[i]);
	kmsg("chaos #%llu %s", (unsigned long long)c->nop, what);
	op_begin(c, "%s", what);
	err = write_file(bind ? PCI_DRV "bind" : PCI_DRV "unbind", devs[i]);
	op_end(c);
	result(c, bind ? K_REBIND : K_UNBIND, err, what);
	if (!err) {
		unbound[i] = !bind;
		nunbound += bind ? -1 : 1;
	}
	refresh_pmus();
	return err;
}

static void ch_unbind(struct ctx *c, struct rng *o)
{
	int i = below(o, ndevs ? ndevs : 1);

	if (!ndevs || unbound[i] || nunbound >= MAX_UNBOUND) {
		logop(c, "chaos unbind: not now");
		return;
	}
	set_bound(c, i, false);
}

static void ch_rebind(struct ctx *c, struct rng *o)
{
	int i, k = below(o, nunbound ? nunbound : 1);

	for (i = 0; i < ndevs; i++)
		if (unbound[i] && k-- == 0)
			break;
	if (i == ndevs) {
		logop(c, "chaos rebind: none unbound");
		return;
	}
	set_bound(c, i, true);
}

static void ch_param(struct ctx *c, struct rng *o)
{
	static const char * const vals[] = {
		"0", "1", "2", "10", "25", "50", "99", "100", "101", "1000", "100000",
		"1000000", "4294967295", "4294967296", "-1", "abc", "", " 7 ",
	};
	char path[160], what[160];
	const char *v;
	int i, err;

	if (!nparams) {
		logop(c, "chaos param: none writable");
		return;
	}
	i = below(o, nparams);
	v = chance(o, 20) ? params[i].orig : vals[below(o, ARRAY_SIZE(vals))];
	snprintf(path, sizeof(path), PARAMS "%s", params[i].name);
	snprintf(what, sizeof(what), "param %s=\"%s\"", params[i].name, v);
	kmsg("chaos #%llu %s", (unsigned long long)c->nop, what);
	op_begin(c, "%s", what);
	err = write_file(path, v);
	op_end(c);
	result(c, K_PARAM, err, what);
}

/* K8: a core halts (its counters stop, northbridge events too) or runs. */
static void ch_halt(struct ctx *c, struct rng *o)
{
	int cpu = below(o, ncpus), on = chance(o, 50), err;
	char buf[64];

	if (!has_sim || strcmp(cfg.part, "k8")) {
		logop(c, "chaos halt: not a K8");
		return;
	}
	snprintf(buf, sizeof(buf), "cpu=%d halted=%d", cpu, on);
	op_begin(c, "sim halt %s", buf);
	err = sim_write("halt", buf);
	op_end(c);
	if (!err)
		halted[cpu] = on;
	result(c, K_HALT, err, buf);
}

static const struct {
	void (*fn)(struct ctx *c, struct rng *o);
	unsigned int weight;
} chaos_ops[] = {
	{ ch_inject, 36 }, { ch_burst, 10 }, { ch_preload, 14 }, { ch_storm, 3 },
	{ ch_clock, 5 }, { ch_offline, 7 }, { ch_online, 7 }, { ch_unbind, 4 },
	{ ch_rebind, 4 }, { ch_param, 6 }, { ch_halt, 2 }, { ch_rate, 2 },
};

void chaos_step(struct ctx *c, struct rng *o)
{
	unsigned int k = below(o, 100), i;

	for (i = 0; k >= chaos_ops[i].weight; i++)
		k -= chaos_ops[i].weight;
	chaos_ops[i].fn(c, o);
}

static void failed(struct ctx *c, const char *what, int err)
{
	c->st->c[C_CLEANUP_FAILED]++;
	fprintf(stderr, "uncore_fuzz: cleanup: %s failed: %s\n", what, err_name(-err));
	logop(c, "cleanup: %s failed: %s", what, err_name(-err));
}

/* Everything back as it was; what cannot be is counted and said. */
void chaos_cleanup(struct ctx *c)
{
	static const char * const units[] = { "ibusq", "isnpq", "efsb" };
	char buf[256];
	int i, try, err, p, u, x;

	for (i = 0; i < ncpus; i++) {
		for (try = 0, err = 0; offline[i] && try < 10; try++) {
			err = set_online(c, i, 1);
			if (err)
				msleep(200);
		}
		if (offline[i]) {
			snprintf(buf, sizeof(buf), "cpu%d online", i);
			failed(c, buf, err);
		}
	}
	for (i = 0; i < ndevs; i++) {
		if (unbound[i] && set_bound(c, i, true)) {
			snprintf(buf, sizeof(buf), "bind %s", devs[i]);
			failed(c, buf, -EIO);
		}
	}
	for (i = 0; i < nparams; i++) {
		snprintf(buf, sizeof(buf), PARAMS "%.63s", params[i].name);
		err = write_file(buf, params[i].orig);
		logop(c, "cleanup: param %s=%s = %s", params[i].name, params[i].orig,
		      err ? err_name(-err) : "0");
		if (err)
			failed(c, buf, err);
	}
	for (i = 0; i < ncpus; i++) {
		if (!halted[i])
			continue;
		snprintf(buf, sizeof(buf), "cpu=%d halted=0", i);
		err = sim_write("halt", buf);
		logop(c, "cleanup: sim halt %s = %s", buf, err ? err_name(-err) : "0");
		if (err)
			failed(c, buf, err);
	}
	for (p = 0; rates_set && p < npkgs; p++) {
		for (u = 0; u < 4; u++) {
			for (x = 0; x < (u < 3 ? 2 : 1); x++) {
				if (u < 3)
					snprintf(buf, sizeof(buf), "pkg=%d box=%s idx=%d rate=0", p,
						 units[u], x);
				else
					snprintf(buf, sizeof(buf), "pkg=%d box=lat rate=0", p);
				err = sim_write("inject", buf);
				if (err)
					failed(c, buf, err);
			}
		}
	}
	refresh_pmus();
}
