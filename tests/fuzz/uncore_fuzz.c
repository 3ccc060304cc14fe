// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_fuzz: a seeded fuzzer of the uncore PMUs of the part under test
 * (Documentation/fuzzing.rst).
 *
 *	uncore_fuzz [--seed N] [--seconds N] [--ops N] [--log FILE]
 *		    [--procs N] [--threads N] [--slots N] [--grace N]
 *		    [--no-chaos] [--no-inject] [--no-hotplug] [--no-unbind]
 *		    [--no-params] [--part NAME] [--log-max MB] [--pause MS]
 *
 * It finds every /sys/bus/event_source/devices/uncore_* PMU, its type,
 * format, cpumask and events, then runs --procs processes, each of
 * --threads threads (the workers), which open events (configs mostly inside
 * the format, some outside it; odd sample_type, read_format, periods and
 * flags; groups of mixed PMUs), and work them with ioctls, read(), mmap
 * and draining the ring buffers, poll, fcntl, fork and close in any
 * order; beside them the main process (chaos.c) injects into the
 * simulator, takes reading CPUs offline and back, unbinds and rebinds
 * PCI boxes and writes the driver's module parameters. Each operation is
 * one line of --log; the same seed and options give the same operations.
 * At the end it prints a table of what it did.
 *
 * Exit status: 0; 1 bad usage or nothing to fuzz; 2 a malformed ring
 * buffer record or read(); 3 an operation stuck for --grace seconds (its
 * kernel stack is printed); 4 the machine could not be put back (a CPU
 * that stays offline, a box that stays unbound).
 *
 * Built static (tools/vm/build-helpers.sh), run in the guest as root.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

struct cfg cfg = {
	.procs = 2,
	.threads = 2,
	.slots = 16,
	.grace = 120,
	.log_max_mb = 256,
	.chaos = true,
	.inject = true,
	.hotplug = true,
	.unbind = true,
	.params = true,
};

struct pmu *pmus;
int npmus;
struct shared *sh;
int ncpus;
int npkgs;
int pkg_of[MAX_CPUS];
uint64_t deadline_ns;
static uint64_t start_ns;
static int nworkers;
static char cmdline[512];

/* ---- PRNG ---------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1342543de82ef95ULL);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rnd(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

/* Uniform in [0, n); 0 for n = 0. */
uint64_t below(struct rng *r, uint64_t n)
{
	return n ? rnd(r) % n : 0;
}

bool chance(struct rng *r, unsigned int pct)
{
	return below(r, 100) < pct;
}

/* A value of @bits bits, biased to the edges: 0, 1, all ones, one bit. */
uint64_t rnd_bits(struct rng *r, unsigned int bits)
{
	uint64_t mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;

	switch (below(r, 8)) {
	case 0:
		return 0;
	case 1:
		return 1 & mask;
	case 2:
		return mask;
	case 3:
		return bits ? (1ULL << below(r, bits)) & mask : 0;
	default:
		return rnd(r) & mask;
	}
}

/* ---- small helpers ------------------------------------------------------- */

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static const struct {
	int err;
	const char *name;
} errnames[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" },
	{ EINTR, "EINTR" }, { EIO, "EIO" }, { ENXIO, "ENXIO" },
	{ E2BIG, "E2BIG" }, { EBADF, "EBADF" }, { EAGAIN, "EAGAIN" },
	{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" }, { EFAULT, "EFAULT" },
	{ EBUSY, "EBUSY" }, { EEXIST, "EEXIST" }, { ENODEV, "ENODEV" },
	{ EINVAL, "EINVAL" }, { EMFILE, "EMFILE" }, { ENOTTY, "ENOTTY" },
	{ ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" },
	{ EOPNOTSUPP, "EOPNOTSUPP" }, { EOVERFLOW, "EOVERFLOW" },
	{ 524, "ENOTSUPP" },	/* the kernel's own, seen by userspace */
};

const char *err_name(int err)
{
	static __thread char buf[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errnames); i++)
		if (errnames[i].err == err)
			return errnames[i].name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

/* Writes @buf (one write(2)) to @path: 0 or -errno. */
int write_file(const char *path, const char *buf)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, strlen(buf));
	err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

/* Reads @path into @buf, NUL-terminated: its length or -errno. */
int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return got;
}

/* A line in the kernel log, to place a report among our operations. */
void kmsg(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "uncore-fuzz: ");
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	write_file("/dev/kmsg", buf);
}

/* "0-2,5" as a mask of CPUs below MAX_CPUS. */
uint64_t parse_cpulist(const char *s)
{
	uint64_t mask = 0;
	char *end;
	long a, b;

	while (*s) {
		a = strtol(s, &end, 10);
		if (end == s)
			break;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			s = end;
		}
		for (; a <= b && a < MAX_CPUS; a++)
			if (a >= 0)
				mask |= 1ULL << a;
		if (*s == ',')
			s++;
		else
			break;
	}
	return mask;
}

/* The k-th set CPU of @mask, k drawn from @r; -1 for an empty mask. */
int pick_cpu(struct rng *r, uint64_t mask)
{
	int n = __builtin_popcountll(mask), k, cpu;

	k = below(r, n ? n : 1);
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if ((mask >> cpu) & 1 && k-- == 0)
			return cpu;
	return -1;
}

bool should_stop(struct ctx *c)
{
	if (sh->stop)
		return true;
	if (c->nop >= c->quota)
		return true;
	return deadline_ns && now_ns() >= deadline_ns;
}

/* ---- the log ------------------------------------------------------------- */

static int log_open(void)
{
	return cfg.log ? open(cfg.log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
}

/*
 * One line: milliseconds since the start, participant and operation
 * number, the thread, then the operation and its result. One write(2) to
 * an O_APPEND file, so lines of several writers never mix.
 */
void logop(struct ctx *c, const char *fmt, ...)
{
	uint64_t t = (now_ns() - start_ns) / 1000000;
	char buf[1024];
	va_list ap;
	int n;

	if (!cfg.log)
		return;
	if (c->log_gen != sh->log_gen) {
		if (c->logfd >= 0)
			close(c->logfd);
		c->log_gen = sh->log_gen;
		c->logfd = log_open();
	}
	if (c->logfd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%llu.%03llu w%02d #%llu %d ",
		     (unsigned long long)t / 1000, (unsigned long long)t % 1000,
		     c->id, (unsigned long long)c->nop, (int)syscall(SYS_gettid));
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(c->logfd, buf, n) < 0)
		c->logfd = -1;
}

/* What the watchdog shows if this operation never returns. */
void op_begin(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->ps->op, sizeof(c->ps->op), fmt, ap);
	va_end(ap);
	__atomic_store_n(&c->ps->start_ns, now_ns(), __ATOMIC_RELEASE);
}

void op_end(struct ctx *c)
{
	__atomic_store_n(&c->ps->start_ns, 0, __ATOMIC_RELEASE);
}

/* The main process keeps the log under --log-max: two halves, FILE.1 older. */
static void log_rotate(void)
{
	char old[512];
	struct stat stb;

	if (!cfg.log || stat(cfg.log, &stb) ||
	    (uint64_t)stb.st_size < (uint64_t)cfg.log_max_mb << 19)
		return;
	snprintf(old, sizeof(old), "%s.1", cfg.log);
	if (!rename(cfg.log, old))
		__atomic_add_fetch(&sh->log_gen, 1, __ATOMIC_SEQ_CST);
}

/* ---- discovery ----------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* Sorted names of @dir's entries that do not start with '.', or NULL. */
char **list_dir(const char *dir, int *n)
{
	char **names = NULL;
	struct dirent *de;
	int cap = 0;
	DIR *d;

	*n = 0;
	d = opendir(dir);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				exit(1);
		}
		names[(*n)++] = strdup(de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), cmp_str);
	return names;
}

void free_list(char **names, int n)
{
	if (!names)
		return;
	while (n--)
		free(names[n]);
	free(names);
}

/* "config1:0-7,21" */
static bool parse_format(struct field *f, const char *spec)
{
	const char *s = spec;
	char *end;
	long a, b;

	if (strncmp(s, "config", 6))
		return false;
	s += 6;
	f->word = 0;
	if (*s >= '1' && *s <= '2')
		f->word = *s++ - '0';
	if (*s++ != ':')
		return false;
	f->nr = 0;
	f->width = 0;
	while (*s && f->nr < 8) {
		a = strtol(s, &end, 10);
		if (end == s || a < 0 || a > 63)
			return false;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			s = end;
		}
		if (b < a || b > 63)
			return false;
		f->lo[f->nr] = a;
		f->hi[f->nr] = b;
		f->width += b - a + 1;
		f->nr++;
		if (*s != ',')
			break;
		s++;
	}
	return f->nr > 0;
}

/* Puts @v into @f's bits of @cfg (the low bits first, range by range). */
static void field_put(const struct field *f, uint64_t *cfgw, uint64_t v)
{
	int i;

	for (i = 0; i < f->nr; i++) {
		int w = f->hi[i] - f->lo[i] + 1;
		uint64_t m = w == 64 ? ~0ULL : (1ULL << w) - 1;

		cfgw[f->word] &= ~(m << f->lo[i]);
		cfgw[f->word] |= (v & m) << f->lo[i];
		v = w == 64 ? 0 : v >> w;
	}
}

static const struct field *find_field(const struct pmu *p, const char *name)
{
	int i;

	for (i = 0; i < p->nf; i++)
		if (!strcmp(p->f[i].name, name))
			return &p->f[i];
	return NULL;
}

/* "event=0x35,umask=0x8,filter_opc=0x182": false for a term not in the format. */
static bool parse_alias(const struct pmu *p, struct alias *a, char *s)
{
	char *tok, *save = NULL, *eq;
	const struct field *f;
	uint64_t v;

	memset(a, 0, sizeof(*a));
	a->event = -1;
	a->umask = -1;
	for (tok = strtok_r(s, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save)) {
		while (*tok == ' ')
			tok++;
		if (!*tok)
			continue;
		eq = strchr(tok, '=');
		v = 1;
		if (eq) {
			*eq = '\0';
			v = strtoull(eq + 1, NULL, 0);
		}
		f = find_field(p, tok);
		if (!f)
			return false;
		field_put(f, a->cfg, v);
		if (!strcmp(tok, "event"))
			a->event = v;
		else if (!strcmp(tok, "umask"))
			a->umask = v;
	}
	return true;
}

static void discover_pmu(struct pmu *p)
{
	char dir[256], path[512], buf[512];
	char **names;
	int n, i, step;
	char *us;

	snprintf(dir, sizeof(dir), PMUS_DIR "%s/format", p->name);
	names = list_dir(dir, &n);
	for (i = 0; i < n && p->nf < MAX_FIELDS; i++) {
		struct field *f = &p->f[p->nf];
		int r;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (read_file(path, buf, sizeof(buf)) <= 0 || !parse_format(f, buf))
			continue;
		snprintf(f->name, sizeof(f->name), "%s", names[i]);
		for (r = 0; r < f->nr; r++) {
			int w = f->hi[r] - f->lo[r] + 1;

			p->used[f->word] |= (w == 64 ? ~0ULL : (1ULL << w) - 1) << f->lo[r];
		}
		p->nf++;
	}
	free_list(names, n);

	/* Aliases spread over the list (debug kernels make each read slow). */
	snprintf(dir, sizeof(dir), PMUS_DIR "%s/events", p->name);
	names = list_dir(dir, &n);
	step = n > MAX_ALIASES ? n / MAX_ALIASES : 1;
	for (i = 0; i < n && p->na < MAX_ALIASES; i += step) {
		if (strchr(names[i], '.'))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (read_file(path, buf, sizeof(buf)) <= 0)
			continue;
		if (parse_alias(p, &p->a[p->na], buf))
			p->na++;
	}
	free_list(names, n);

	/* "uncore_cbox_3": stem "cbox", index 3; "uncore_ibusq_lat": no index. */
	snprintf(p->stem, sizeof(p->stem), "%s", p->name + strlen("uncore_"));
	p->idx = -1;
	us = strrchr(p->stem, '_');
	if (us && us[1] && strspn(us + 1, "0123456789") == strlen(us + 1)) {
		p->idx = atoi(us + 1);
		*us = '\0';
	}
}

static void discover(void)
{
	char path[256], buf[64];
	char **names;
	int n, i, cpu;

	names = list_dir(PMUS_DIR, &n);
	pmus = calloc(MAX_PMUS, sizeof(*pmus));
	if (!pmus)
		exit(1);
	for (i = 0; i < n && npmus < MAX_PMUS; i++) {
		if (strncmp(names[i], "uncore_", 7))
			continue;
		snprintf(pmus[npmus].name, sizeof(pmus[npmus].name), "%s", names[i]);
		discover_pmu(&pmus[npmus]);
		npmus++;
	}
	free_list(names, n);

	/* CPUs and their packages, while all are online (the test's start). */
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		if (read_file(path, buf, sizeof(buf)) <= 0) {
			pkg_of[cpu] = -1;
			continue;
		}
		pkg_of[cpu] = atoi(buf);
		ncpus = cpu + 1;
		if (pkg_of[cpu] + 1 > npkgs)
			npkgs = pkg_of[cpu] + 1;
	}
	if (!cfg.part[0] && read_file(SIM_DIR "part", buf, sizeof(buf)) > 0)
		sscanf(buf, "%15s", cfg.part);
}

/* Types and cpumasks now: PMUs come and go with PCI boxes and CPUs. */
void refresh_pmus(void)
{
	char path[256], buf[512];
	int i;

	for (i = 0; i < npmus; i++) {
		snprintf(path, sizeof(path), PMUS_DIR "%s/type", pmus[i].name);
		sh->type[i] = read_file(path, buf, sizeof(buf)) > 0 ? atoi(buf) : -1;
		snprintf(path, sizeof(path), PMUS_DIR "%s/cpumask", pmus[i].name);
		sh->cpumask[i] = read_file(path, buf, sizeof(buf)) > 0 ? parse_cpulist(buf) : 0;
	}
}

/* ---- workers: events ----------------------------------------------------- */

/**
 * struct slot - an event a worker process holds
 * @mu: taken for mmap, draining, munmap and read (which validates against
 *	@read_format); other syscalls on @fd race with everything, on purpose
 * @fd: the event, -1 if none
 * @pmu: index in pmus[], -1 for a software event
 * @read_format: as opened
 * @sample_type: as opened
 * @map: its ring buffer, NULL if none (may outlive @fd)
 * @maplen: its length
 * @ro: mapped read-only (overwrite mode): not drained
 * @backward: the event writes its ring backward (write_backward): its
 *	data_head runs down from 0, and is only followed, not parsed
 * @mixed: another event's output may go to @map (SET_OUTPUT)
 * @desc: PMU and config, for the log
 */
struct slot {
	pthread_mutex_t mu;
	int fd;
	int pmu;
	uint64_t read_format;
	uint64_t sample_type;
	void *map;
	size_t maplen;
	bool ro;
	bool backward;
	bool mixed;
	char desc[64];
};

/* One worker process: its threads share the slots. */
struct proc {
	struct slot slot[MAX_SLOTS];
	pthread_mutex_t child_mu;
	pid_t child[32];
	int nchild;
};

struct worker {
	struct ctx c;
	struct proc *p;
	pthread_t thread;
};

static volatile sig_atomic_t sig_io, sig_trap;
static long page_size;

static void on_signal(int sig)
{
	if (sig == SIGIO)
		sig_io++;
	else
		sig_trap++;
}

static long perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group, unsigned long fl)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group, fl);
}

/* Periods and frequencies; a sane attr takes one of the first SANE_*. */
static const uint64_t periods[] = {
	1, 2, 3, 10, 100, 1000, 4096, 100000, 1000000, 1ULL << 31, 1ULL << 32,
	(1ULL << 47) - 1, 1ULL << 47, (1ULL << 48) - 1, 1ULL << 48, 1ULL << 62,
	(1ULL << 63) - 1, 1ULL << 63, ~0ULL,
};

#define SANE_PERIODS	15

static const uint64_t freqs[] = {
	1, 10, 100, 1000, 4000, 100000, 1000000, 1ULL << 31, ~0ULL,
};

#define SANE_FREQS	5

static const int clockids[] = {
	CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_REALTIME, CLOCK_BOOTTIME,
	CLOCK_TAI, 1234,
};

/*
 * A config for @p: from an alias (now and then with a field changed),
 * from random field values, or outside the format (a reserved bit, random
 * words); a wild attr goes outside more often.
 */
static void gen_config(struct rng *o, const struct pmu *p, uint64_t *cfgw, const char **how,
		       bool wild)
{
	unsigned int mode = below(o, 100);
	int i, w, bit;

	if (!wild)
		mode = mode < 70 ? 0 : mode < 90 ? 50 : mode < 97 ? 85 : 95;
	memset(cfgw, 0, 3 * sizeof(*cfgw));
	if (mode < 45 && p->na) {
		const struct alias *a = &p->a[below(o, p->na)];

		memcpy(cfgw, a->cfg, sizeof(a->cfg));
		*how = "alias";
		/* Now and then one field of it changed. */
		if (p->nf && chance(o, 20)) {
			const struct field *f = &p->f[below(o, p->nf)];

			field_put(f, cfgw, rnd_bits(o, f->width));
			*how = "alias+field";
		}
	} else if (mode < 80) {
		for (i = 0; i < p->nf; i++)
			if (chance(o, 50))
				field_put(&p->f[i], cfgw, rnd_bits(o, p->f[i].width));
		*how = "fields";
	} else if (mode < 93) {
		/* Every reserved bit, one at a time, over many opens. */
		if (p->na)
			memcpy(cfgw, p->a[below(o, p->na)].cfg, 3 * sizeof(*cfgw));
		w = below(o, 3);
		if (~p->used[w]) {
			do
				bit = below(o, 64);
			while ((p->used[w] >> bit) & 1);
			cfgw[w] |= 1ULL << bit;
		}
		*how = "reserved";
	} else {
		for (i = 0; i < 3; i++)
			cfgw[i] = chance(o, 50) ? rnd(o) : 0;
		*how = "random";
	}
}

/* Sample fields every PMU can give: a sane attr picks among these. */
static const uint64_t sane_sample[] = {
	PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR,
	PERF_SAMPLE_READ, PERF_SAMPLE_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD,
	PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_IDENTIFIER,
};

/* The flags of a wild attr: each bit now and then, exclusions included. */
static void wild_bits(struct rng *o, struct perf_event_attr *a)
{
	a->disabled = chance(o, 45);
	a->inherit = chance(o, 8);
	a->pinned = chance(o, 5);
	a->exclusive = chance(o, 5);
	a->exclude_user = chance(o, 4);
	a->exclude_kernel = chance(o, 4);
	a->exclude_hv = chance(o, 4);
	a->exclude_idle = chance(o, 4);
	a->exclude_host = chance(o, 3);
	a->exclude_guest = chance(o, 3);
	a->mmap = chance(o, 5);
	a->comm = chance(o, 5);
	a->task = chance(o, 5);
	a->inherit_stat = chance(o, 3);
	a->enable_on_exec = chance(o, 4);
	a->watermark = chance(o, 10);
	a->precise_ip = chance(o, 10) ? below(o, 4) : 0;
	a->mmap_data = chance(o, 3);
	a->sample_id_all = chance(o, 30);
	a->exclude_callchain_kernel = chance(o, 3);
	a->exclude_callchain_user = chance(o, 3);
	a->mmap2 = chance(o, 3);
	a->comm_exec = chance(o, 3);
	a->use_clockid = chance(o, 5);
	a->context_switch = chance(o, 3);
	a->write_backward = chance(o, 4);
	a->namespaces = chance(o, 2);
	a->ksymbol = chance(o, 2);
	a->bpf_event = chance(o, 2);
	a->aux_output = chance(o, 2);
	a->cgroup = chance(o, 2);
	a->text_poke = chance(o, 2);
	a->build_id = chance(o, 2);
	a->inherit_thread = chance(o, 2);
	a->remove_on_exec = chance(o, 3);
	a->sigtrap = chance(o, 2);
	if (a->sigtrap)
		a->sig_data = rnd(o);
	if (a->use_clockid)
		a->clockid = clockids[below(o, ARRAY_SIZE(clockids))];
	if (a->watermark)
		a->wakeup_watermark = rnd_bits(o, 20);
	else
		a->wakeup_events = rnd_bits(o, 4);
	if (chance(o, 2))
		a->aux_watermark = rnd_bits(o, 32);
	if (chance(o, 5))
		a->sample_max_stack = below(o, 200);
	if (a->sample_type & PERF_SAMPLE_BRANCH_STACK)
		a->branch_sample_type = rnd_bits(o, 19);
	if (a->sample_type & PERF_SAMPLE_REGS_USER)
		a->sample_regs_user = rnd_bits(o, 24);
	if (a->sample_type & PERF_SAMPLE_REGS_INTR)
		a->sample_regs_intr = rnd_bits(o, 24);
	if (a->sample_type & PERF_SAMPLE_STACK_USER)
		a->sample_stack_user = chance(o, 50) ? 8 * below(o, 1024) : rnd_bits(o, 32);
}

/*
 * An attr, with the PMU index (-1: software), cpu, pid and flags; @buf is
 * big enough for sizes past struct perf_event_attr. Half of them are
 * sane (what perf stat and perf record would ask: only the config may be
 * wrong), the rest wild: any sample_type and read_format bit, any flag,
 * odd sizes, CPUs outside the cpumask, per-task events.
 */
static void gen_attr(struct rng *o, char *buf, size_t buflen, int *pmu, int *cpu, pid_t *pid,
		     unsigned long *flags, char *desc, size_t dlen)
{
	struct perf_event_attr *a = (struct perf_event_attr *)buf;
	bool wild = chance(o, 50);
	const char *how = "";
	uint64_t mask, bits, cfgw[3];
	int i, n;

	memset(buf, 0, buflen);
	a->size = sizeof(*a);
	*pmu = -1;
	if (chance(o, 6)) {
		static const uint64_t sw[] = {
			PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK,
			PERF_COUNT_SW_DUMMY, PERF_COUNT_SW_CONTEXT_SWITCHES,
		};

		a->type = PERF_TYPE_SOFTWARE;
		a->config = sw[below(o, 4)];
		how = "software";
		mask = (1ULL << ncpus) - 1;
	} else {
		const struct pmu *p;

		*pmu = below(o, npmus);
		p = &pmus[*pmu];
		a->type = sh->type[*pmu];
		gen_config(o, p, cfgw, &how, wild);
		a->config = cfgw[0];
		a->config1 = cfgw[1];
		a->config2 = cfgw[2];
		/* Another PMU's type, raw, or nobody's. */
		switch (wild ? below(o, 25) : 25) {
		case 0:
			a->type = sh->type[below(o, npmus)];
			how = "other-type";
			break;
		case 1:
			/*
			 * Not on the K8: its core PMU there is the
			 * simulator's stand-in, which writes a raw config
			 * as the real one would, reserved bits and
			 * northbridge indexes of the sibling core included
			 * (uncore_pmu.rst, "The K8 northbridge"), and the
			 * audit cannot tell those writes from the driver's.
			 */
			if (!strncmp(cfg.part, "k8", 2))
				break;
			a->type = PERF_TYPE_RAW;
			how = "raw";
			break;
		case 2:
			a->type = 0x7fff0000 + below(o, 16);
			how = "no-type";
			break;
		}
		mask = sh->cpumask[*pmu];
	}

	/* Sampling: periods, frequencies, their extremes; software rarely. */
	n = below(o, 100);
	if (n < 40 && !(a->type == PERF_TYPE_SOFTWARE && n > 5)) {
		a->sample_period = wild && chance(o, 20) ? rnd(o) :
				   periods[below(o, wild ? ARRAY_SIZE(periods) : SANE_PERIODS)];
	} else if (n < 50 && a->type != PERF_TYPE_SOFTWARE) {
		a->freq = 1;
		a->sample_freq = freqs[below(o, wild ? ARRAY_SIZE(freqs) : SANE_FREQS)];
	}
	if (a->sample_period || a->freq || chance(o, 20)) {
		for (i = 0; i < (int)ARRAY_SIZE(sane_sample); i++)
			if (chance(o, 40))
				a->sample_type |= sane_sample[i];
		for (i = 0; wild && i < 25; i++)
			if (chance(o, 12))
				a->sample_type |= 1ULL << i;
		if (wild && chance(o, 4))
			a->sample_type |= 1ULL << (25 + below(o, 39));
	}
	for (i = 0; i < 5; i++)
		if (chance(o, 35))
			a->read_format |= 1ULL << i;
	if (wild && chance(o, 5))
		a->read_format |= 1ULL << (5 + below(o, 59));
	if (wild) {
		wild_bits(o, a);
	} else {
		a->disabled = chance(o, 30);
		a->sample_id_all = chance(o, 30);
		a->wakeup_events = below(o, 3);
	}

	/* The attr's size: current, the first ABI, longer with a 0 or non-0 tail. */
	switch (wild ? below(o, 12) : 12) {
	case 0:
		a->size = PERF_ATTR_SIZE_VER0;
		break;
	case 1:
		a->size = sizeof(*a) + 8;
		break;
	case 2:
		a->size = sizeof(*a) + 16;
		buf[sizeof(*a) + below(o, 16)] = 1;
		break;
	case 3:
		a->size = below(o, sizeof(*a));
		break;
	}

	/* Mostly a CPU of the cpumask; sometimes another, none, or none that exists. */
	n = wild ? below(o, 100) : below(o, 90);
	if (n < 78)
		*cpu = pick_cpu(o, mask);
	else if (n < 90)
		*cpu = below(o, ncpus);
	else if (n < 94)
		*cpu = -1;
	else
		*cpu = chance(o, 50) ? ncpus + (int)below(o, 4) : 1024 + (int)below(o, 8192);
	n = wild ? below(o, 100) : 0;
	*pid = n < 80 ? -1 : n < 90 ? 0 : (pid_t)syscall(SYS_gettid);
	n = wild ? below(o, 100) : 0;
	*flags = n < 70 ? PERF_FLAG_FD_CLOEXEC : n < 80 ? 0 : n < 88 ?
		 PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_CLOEXEC : n < 95 ?
		 PERF_FLAG_FD_OUTPUT : rnd_bits(o, 8);

	memcpy(&bits, (char *)&a->read_format + sizeof(a->read_format), sizeof(bits));
	snprintf(desc, dlen, "%s %s type=%d cfg=0x%llx,0x%llx,0x%llx (%s) period=%s%llu st=0x%llx rf=0x%llx bits=0x%llx size=%u cpu=%d pid=%d",
		 wild ? "wild" : "sane", *pmu >= 0 ? pmus[*pmu].name : "software",
		 (int)a->type, (unsigned long long)a->config,
		 (unsigned long long)a->config1, (unsigned long long)a->config2, how,
		 a->freq ? "freq:" : "", (unsigned long long)a->sample_period,
		 (unsigned long long)a->sample_type, (unsigned long long)a->read_format,
		 (unsigned long long)bits, a->size, *cpu, (int)*pid);
}

static void slot_clear(struct slot *s)
{
	if (s->map)
		munmap(s->map, s->maplen);
	s->map = NULL;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

enum slot_want {
	SW_EMPTY,	/* no event, no ring */
	SW_EVENT,	/* an event */
	SW_RING,	/* a ring buffer */
};

/*
 * A slot of the kind wanted if there is one (the k-th of them, k drawn
 * anyway), else any: most operations then work an event rather than fail
 * on an empty slot, and the draws do not depend on what is open.
 */
static int pick_slot(struct proc *p, struct rng *o, enum slot_want want)
{
	int k = below(o, cfg.slots), n = 0, i;
	bool match[MAX_SLOTS];

	for (i = 0; i < (int)cfg.slots; i++) {
		const struct slot *s = &p->slot[i];
		int fd = __atomic_load_n(&s->fd, __ATOMIC_RELAXED);

		match[i] = want == SW_EMPTY ? fd < 0 && !s->map :
			   want == SW_EVENT ? fd >= 0 : !!s->map;
		n += match[i];
	}
	if (!n)
		return k;
	k %= n;
	for (i = 0; i < (int)cfg.slots; i++)
		if (match[i] && k-- == 0)
			return i;
	return 0;
}

static void note(struct ctx *c, enum op_kind k, long ret)
{
	c->st->tries[k]++;
	c->st->c[C_SYSCALLS]++;
	if (ret < 0)
		c->st->c[C_ERRORS]++;
	else
		c->st->ok[k]++;
}

/* A syscall's result for the log: its value, or -ENAME from errno. */
static const char *res(long r)
{
	static __thread char buf[32];

	if (r < 0)
		snprintf(buf, sizeof(buf), "-%s", err_name(errno));
	else
		snprintf(buf, sizeof(buf), "%ld", r);
	return buf;
}

static const int open_errnos[] = OPEN_ERRNOS;

static int open_errno_index(int err)
{
	int i;

	for (i = 0; i < NR_OPEN_ERR - 1; i++)
		if (open_errnos[i] == err)
			break;
	return i;
}

static void op_open(struct worker *w, struct rng *o)
{
	char buf[sizeof(struct perf_event_attr) + 64], desc[400];
	struct perf_event_attr *a = (struct perf_event_attr *)buf;
	struct ctx *c = &w->c;
	int si = pick_slot(w->p, o, chance(o, 70) ? SW_EMPTY : SW_EVENT), gi = -1, group = -1;
	int cpu, pmu;
	struct slot *s = &w->p->slot[si];
	unsigned long flags;
	pid_t pid;
	long fd;

	gen_attr(o, buf, sizeof(buf), &pmu, &cpu, &pid, &flags, desc, sizeof(desc));
	if (chance(o, 25)) {
		gi = pick_slot(w->p, o, SW_EVENT);
		group = __atomic_load_n(&w->p->slot[gi].fd, __ATOMIC_RELAXED);
	}
	pthread_mutex_lock(&s->mu);
	slot_clear(s);
	op_begin(c, "perf_event_open %s group=%d", desc, group);
	fd = perf_open(a, pid, cpu, group, flags);
	op_end(c);
	if (pmu >= 0) {
		c->st->opens[pmu]++;
		c->st->open_ok[pmu] += fd >= 0;
		c->st->c[C_SYSCALLS]++;
		c->st->c[C_ERRORS] += fd < 0;
		if (fd < 0)
			c->st->open_err[open_errno_index(errno)]++;
	} else {
		note(c, K_OPEN_SW, fd);
	}
	logop(c, "open slot=%d %s group=%d(slot %d) flags=0x%lx = %s", si, desc, group, gi, flags,
	      res(fd));
	if (fd >= 0) {
		s->fd = fd;
		s->pmu = pmu;
		s->read_format = a->read_format;
		s->sample_type = a->sample_type;
		s->backward = a->write_backward;
		s->mixed = false;
		snprintf(s->desc, sizeof(s->desc), "%s",
			 pmu >= 0 ? pmus[pmu].name : "software");
		/* FD_OUTPUT may send its samples to the group's buffer. */
		if (group >= 0 && (flags & PERF_FLAG_FD_OUTPUT))
			w->p->slot[gi].mixed = true;
	}
	pthread_mutex_unlock(&s->mu);
}

static void op_close(struct worker *w, struct rng *o)
{
	struct ctx *c = &w->c;
	int si = pick_slot(w->p, o, SW_EVENT), fd, r;
	struct slot *s = &w->p->slot[si];

	pthread_mutex_lock(&s->mu);
	fd = s->fd;
	s->fd = -1;
	pthread_mutex_unlock(&s->mu);
	if (fd < 0) {
		logop(c, "close slot=%d: empty", si);
		return;
	}
	op_begin(c, "close fd=%d (%s)", fd, s->desc);
	r = close(fd);
	op_end(c);
	note(c, K_CLOSE, r);
	logop(c, "close slot=%d fd=%d (%s) = %s", si, fd, s->desc, res(r));
}

static const char * const filters[] = {
	"", "cpu == 0", "common_pid != 0 && (", "((((((((((", "0", "event == 0x35",
	"filter aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
};

static void op_ioctl(struct worker *w, struct rng *o)
{
	static const char * const names[] = {
		"ENABLE", "DISABLE", "RESET", "REFRESH", "PERIOD", "SET_OUTPUT",
		"SET_FILTER", "ID", "PAUSE_OUTPUT", "SET_BPF", "MODIFY_ATTRIBUTES",
		"BOGUS",
	};
	struct ctx *c = &w->c;
	int si = pick_slot(w->p, o, SW_EVENT), kind = below(o, 12), oi = -1, fd;
	struct slot *s = &w->p->slot[si];
	struct perf_event_attr attr;
	unsigned long req = 0, arg = 0;
	char what[96] = "";
	uint64_t v = 0;
	long r;

	fd = __atomic_load_n(&s->fd, __ATOMIC_RELAXED);
	switch (kind) {
	case 0:
	case 1:
	case 2:
		req = kind == 0 ? PERF_EVENT_IOC_ENABLE : kind == 1 ?
		      PERF_EVENT_IOC_DISABLE : PERF_EVENT_IOC_RESET;
		arg = chance(o, 25) ? PERF_IOC_FLAG_GROUP : chance(o, 5) ? rnd(o) : 0;
		snprintf(what, sizeof(what), "0x%lx", arg);
		break;
	case 3: {
		static const int refresh[] = { 0, 1, 2, 5, 1000, -1, 1 << 30 };

		req = PERF_EVENT_IOC_REFRESH;
		arg = refresh[below(o, 7)];
		snprintf(what, sizeof(what), "%d", (int)arg);
		break;
	}
	case 4:
		req = PERF_EVENT_IOC_PERIOD;
		v = chance(o, 25) ? rnd(o) : periods[below(o, ARRAY_SIZE(periods))];
		arg = chance(o, 3) ? 0 : (unsigned long)&v;
		snprintf(what, sizeof(what), "%llu%s", (unsigned long long)v, arg ? "" : " (NULL)");
		break;
	case 5:
		req = PERF_EVENT_IOC_SET_OUTPUT;
		oi = chance(o, 20) ? -1 : pick_slot(w->p, o, chance(o, 50) ? SW_RING : SW_EVENT);
		arg = oi < 0 ? (unsigned long)-1 : (unsigned long)(long)
		      __atomic_load_n(&w->p->slot[oi].fd, __ATOMIC_RELAXED);
		snprintf(what, sizeof(what), "fd %d (slot %d)", (int)arg, oi);
		break;
	case 6:
		req = PERF_EVENT_IOC_SET_FILTER;
		arg = (unsigned long)filters[below(o, ARRAY_SIZE(filters))];
		snprintf(what, sizeof(what), "\"%.40s\"", (char *)arg);
		break;
	case 7:
		req = PERF_EVENT_IOC_ID;
		arg = chance(o, 5) ? 0 : (unsigned long)&v;
		break;
	case 8:
		req = PERF_EVENT_IOC_PAUSE_OUTPUT;
		arg = below(o, 2);
		snprintf(what, sizeof(what), "%lu", arg);
		break;
	case 9:
		req = PERF_EVENT_IOC_SET_BPF;
		arg = chance(o, 50) ? (unsigned long)-1 : below(o, 64);
		snprintf(what, sizeof(what), "%d", (int)arg);
		break;
	case 10:
		req = PERF_EVENT_IOC_MODIFY_ATTRIBUTES;
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_BREAKPOINT;
		arg = (unsigned long)&attr;
		break;
	default:
		req = _IO('$', 12 + below(o, 16));
		arg = rnd(o);
		snprintf(what, sizeof(what), "cmd 0x%lx", req);
		break;
	}
	op_begin(c, "ioctl fd=%d (%s) %s %s", fd, s->desc, names[kind], what);
	r = ioctl(fd, req, arg);
	op_end(c);
	note(c, K_IOC_ENABLE + kind, r);
	if (kind == 5 && r == 0 && oi >= 0)
		w->p->slot[oi].mixed = true;
	logop(c, "ioctl slot=%d fd=%d (%s) %s %s = %s", si, fd, s->desc, names[kind], what,
	      res(r));
}

/* read(): the size read_format says, and time_running <= time_enabled. */
static void op_read(struct worker *w, struct rng *o)
{
	static const size_t small[] = { 0, 1, 7, 8, 16, 24 };
	struct ctx *c = &w->c;
	int si = pick_slot(w->p, o, SW_EVENT), k = below(o, 10);
	struct slot *s = &w->p->slot[si];
	uint64_t buf[512], rf, nr = 1, want, te = 0, tr = 0;
	size_t len = k < 8 ? sizeof(buf) : small[below(o, 6)];
	const char *bad = NULL;
	ssize_t n;
	int idx;

	pthread_mutex_lock(&s->mu);
	if (s->fd < 0) {
		pthread_mutex_unlock(&s->mu);
		logop(c, "read slot=%d: empty", si);
		return;
	}
	rf = s->read_format;
	op_begin(c, "read fd=%d (%s) len=%zu", s->fd, s->desc, len);
	n = read(s->fd, buf, len);
	op_end(c);
	note(c, K_READ, n);
	if (n > 0 && !(rf & ~0x1fULL)) {
		idx = 1;
		if (rf & PERF_FORMAT_GROUP)
			nr = buf[0];
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			te = buf[idx++];
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			tr = buf[idx++];
		want = rf & PERF_FORMAT_GROUP ? 8 * (1 + (idx - 1) + nr *
			(1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST))) :
			8 * (uint64_t)(1 + __builtin_popcountll(rf & 0xf & ~PERF_FORMAT_GROUP) +
				       !!(rf & PERF_FORMAT_LOST));
		if ((rf & PERF_FORMAT_GROUP) && (nr < 1 || nr > 512))
			bad = "group of no or too many events";
		else if ((uint64_t)n != want)
			bad = "size not what read_format gives";
		else if ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) &&
			 (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) && tr > te)
			bad = "time_running > time_enabled";
	}
	if (bad)
		c->st->c[C_BAD_READS]++;
	logop(c, "read slot=%d fd=%d (%s) rf=0x%llx len=%zu = %s%s%s", si, s->fd, s->desc,
	      (unsigned long long)rf, len, res(n), bad ? " MALFORMED: " : "", bad ? bad : "");
	pthread_mutex_unlock(&s->mu);
}

static void op_mmap(struct worker *w, struct rng *o)
{
	struct ctx *c = &w->c;
	int si = pick_slot(w->p, o, SW_EVENT), k = below(o, 20);
	struct slot *s = &w->p->slot[si];
	bool ro = chance(o, 10);
	size_t pages;
	void *m;

	/* 1 + 2^n pages; now and then a size perf refuses. */
	pages = k < 17 ? 1 + (1UL << below(o, 5)) : k == 17 ? 1 : k == 18 ? 2 : 3 + below(o, 4);
	pthread_mutex_lock(&s->mu);
	if (s->map) {
		munmap(s->map, s->maplen);
		s->map = NULL;
	}
	op_begin(c, "mmap fd=%d (%s) pages=%zu", s->fd, s->desc, pages);
	m = mmap(NULL, pages * page_size, PROT_READ | (ro ? 0 : PROT_WRITE), MAP_SHARED,
		 s->fd, 0);
	op_end(c);
	note(c, K_MMAP, m == MAP_FAILED ? -1 : 0);
	logop(c, "mmap slot=%d fd=%d (%s) pages=%zu%s = %s", si, s->fd, s->desc, pages,
	      ro ? " ro" : "", m == MAP_FAILED ? res(-1) : "ok");
	if (m != MAP_FAILED) {
		s->map = m;
		s->maplen = pages * page_size;
		s->ro = ro;
	}
	pthread_mutex_unlock(&s->mu);
}

static void op_munmap(struct worker *w, struct rng *o)
{
	struct ctx *c = &w->c;
	int si = pick_slot(w->p, o, SW_RING), r = 0;
	struct slot *s = &w->p->slot[si];

	pthread_mutex_lock(&s->mu);
	if (s->map) {
		op_begin(c, "munmap (%s)", s->desc);
		r = munmap(s->map, s->maplen);
		op_end(c);
		note(c, K_MUNMAP, r);
		s->map = NULL;
	}
	logop(c, "munmap slot=%d = %s", si, res(r));
	pthread_mutex_unlock(&s->mu);
}

/* Bytes of a sample whose fields all have fixed sizes; 0 if some do not. */
static uint64_t sample_size(uint64_t st, uint64_t rf)
{
	const uint64_t variable = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
		PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
		PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX;
	uint64_t n;

	if ((st & variable) || (st >> 25) || ((st & PERF_SAMPLE_READ) &&
					      ((rf & PERF_FORMAT_GROUP) || (rf >> 5))))
		return 0;
	/* WEIGHT and WEIGHT_STRUCT share one u64. */
	n = __builtin_popcountll(st & ~PERF_SAMPLE_READ & ~PERF_SAMPLE_WEIGHT_STRUCT);
	if (st & PERF_SAMPLE_WEIGHT_STRUCT && !(st & PERF_SAMPLE_WEIGHT))
		n++;
	if (st & PERF_SAMPLE_READ)
		n += 1 + __builtin_popcountll(rf & 0x1f);
	return 8 + 8 * n;
}

static void ring_copy(const char *data, uint64_t size, uint64_t off, void *dst, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		((char *)dst)[i] = data[(off + i) & (size - 1)];
}

/*
 * Reads every record between data_tail and data_head and moves the tail:
 * each must be 8-byte sized, fit what is there, have a known type and, for
 * a sample of fixed-size fields, the size its sample_type gives.
 */
static void op_drain(struct worker *w, struct rng *o)
{
	struct ctx *c = &w->c;
	int si = pick_slot(w->p, o, SW_RING);
	struct slot *s = &w->p->slot[si];
	uint64_t head, tail, size, want, recs = 0, samples = 0;
	struct perf_event_mmap_page *pg;
	struct perf_event_header h = { 0 };
	const char *bad = NULL;
	char *data;

	pthread_mutex_lock(&s->mu);
	pg = s->map;
	if (!pg || s->ro || s->maplen <= (size_t)page_size) {
		pthread_mutex_unlock(&s->mu);
		logop(c, "drain slot=%d: no writable ring", si);
		return;
	}
	c->st->tries[K_DRAIN]++;
	data = (char *)pg + (pg->data_offset ? pg->data_offset : (uint64_t)page_size);
	size = pg->data_size ? pg->data_size : s->maplen - page_size;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = s->backward ? head : pg->data_tail;
	want = s->mixed ? 0 : sample_size(s->sample_type, s->read_format);
	if (size & (size - 1))
		bad = "data_size not a power of 2";
	else if (head - tail > size)
		bad = "data_head ran past data_tail";
	while (!bad && tail < head) {
		ring_copy(data, size, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || h.size > head - tail) {
			bad = "record size";
			break;
		}
		if (!h.type || h.type >= PERF_RECORD_MAX) {
			bad = "record type";
			break;
		}
		recs++;
		switch (h.type) {
		case PERF_RECORD_SAMPLE:
			samples++;
			if (want && h.size != want)
				bad = "sample size not what sample_type gives";
			break;
		case PERF_RECORD_LOST: {
			uint64_t lost[2];

			ring_copy(data, size, tail + sizeof(h), lost, sizeof(lost));
			c->st->c[C_LOST_RECORDS]++;
			c->st->c[C_LOST] += lost[1];
			break;
		}
		case PERF_RECORD_THROTTLE:
			c->st->c[C_THROTTLE]++;
			break;
		case PERF_RECORD_UNTHROTTLE:
			c->st->c[C_UNTHROTTLE]++;
			break;
		default:
			c->st->c[C_OTHER_RECORDS]++;
		}
		tail += h.size;
	}
	if (bad)
		c->st->c[C_BAD_RECORDS]++;
	c->st->ok[K_DRAIN]++;
	c->st->c[C_SAMPLES] += samples;
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
	logop(c, "drain slot=%d (%s) st=0x%llx head=%llu records=%llu samples=%llu%s%s", si,
	      s->desc, (unsigned long long)s->sample_type, (unsigned long long)head,
	      (unsigned long long)recs, (unsigned long long)samples,
	      bad ? " MALFORMED: " : "", bad ? bad : "");
	if (bad)
		logop(c, "drain slot=%d bad record at %llu: type %u misc 0x%x size %u (want %llu)",
		      si, (unsigned long long)tail, h.type, h.misc, h.size,
		      (unsigned long long)want);
	pthread_mutex_unlock(&s->mu);
}

static void op_poll(struct worker *w, struct rng *o)
{
	struct ctx *c = &w->c;
	struct pollfd pfd[8];
	int i, n = 1 + below(o, 8), tmo = below(o, 3), r;

	for (i = 0; i < n; i++) {
		pfd[i].fd = __atomic_load_n(&w->p->slot[pick_slot(w->p, o, SW_EVENT)].fd,
					    __ATOMIC_RELAXED);
		pfd[i].events = POLLIN | POLLHUP;
		pfd[i].revents = 0;
	}
	op_begin(c, "poll %d fds %d ms", n, tmo);
	r = poll(pfd, n, tmo);
	op_end(c);
	note(c, K_POLL, r);
	logop(c, "poll fds=%d timeout=%d = %s", n, tmo, res(r));
}

/* O_ASYNC: SIGIO on wakeups, sent from wherever perf wakes the buffer. */
static void op_fcntl(struct worker *w, struct rng *o)
{
	struct ctx *c = &w->c;
	int si = pick_slot(w->p, o, SW_EVENT), on = chance(o, 70), fd, r;

	fd = __atomic_load_n(&w->p->slot[si].fd, __ATOMIC_RELAXED);
	r = fcntl(fd, F_SETOWN, getpid());
	if (r == 0)
		r = fcntl(fd, F_SETFL, on ? O_ASYNC | O_NONBLOCK : O_NONBLOCK);
	note(c, K_FCNTL, r);
	logop(c, "fcntl slot=%d fd=%d async=%d = %s", si, fd, on, res(r));
}

static void op_prctl(struct worker *w, struct rng *o)
{
	struct ctx *c = &w->c;
	int on = chance(o, 50), r;

	r = prctl(on ? PR_TASK_PERF_EVENTS_ENABLE : PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
	note(c, K_PRCTL, r);
	logop(c, "prctl %s = %s", on ? "PERF_EVENTS_ENABLE" : "PERF_EVENTS_DISABLE", res(r));
}

static void reap(struct proc *p, bool block)
{
	int i;

	pthread_mutex_lock(&p->child_mu);
	for (i = 0; i < p->nchild; i++) {
		if (waitpid(p->child[i], NULL, block ? 0 : WNOHANG) != 0)
			p->child[i--] = p->child[--p->nchild];
	}
	pthread_mutex_unlock(&p->child_mu);
}

/*
 * A child that works the events it inherited (read, enable, close) and
 * exits with the rest open: its copies close in exit. Only syscalls and
 * formatting in the child: another thread may have held a lock at fork.
 */
static void op_fork(struct worker *w, struct rng *o)
{
	struct ctx *c = &w->c;
	int n = 1 + below(o, 4), i;
	uint64_t buf[64];
	pid_t pid;

	reap(w->p, false);
	if (w->p->nchild >= 32) {
		logop(c, "fork: too many children");
		return;
	}
	pid = fork();
	note(c, K_FORK, pid);
	if (pid == 0) {
		for (i = 0; i < n; i++) {
			int si = pick_slot(w->p, o, SW_EVENT), fd = w->p->slot[si].fd;
			int k = below(o, 3);
			long r;

			r = k == 0 ? read(fd, buf, sizeof(buf)) : k == 1 ?
			    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) : close(fd);
			logop(c, "child %d: %s fd=%d (slot %d) = %s", (int)getpid(),
			      k == 0 ? "read" : k == 1 ? "ioctl ENABLE" : "close", fd, si, res(r));
		}
		_exit(0);
	}
	logop(c, "fork = %s", res(pid));
	if (pid > 0) {
		pthread_mutex_lock(&w->p->child_mu);
		w->p->child[w->p->nchild++] = pid;
		pthread_mutex_unlock(&w->p->child_mu);
	}
}

static void op_sleep(struct worker *w, struct rng *o)
{
	unsigned int ms = below(o, 4);

	w->c.st->tries[K_SLEEP]++;
	w->c.st->ok[K_SLEEP]++;
	logop(&w->c, "sleep %u ms", ms);
	msleep(ms);
}

/* Operations and their weights (of 100). */
static const struct {
	void (*fn)(struct worker *w, struct rng *o);
	unsigned int weight;
} worker_ops[] = {
	{ op_open, 24 }, { op_close, 8 }, { op_ioctl, 22 }, { op_read, 12 },
	{ op_mmap, 7 }, { op_drain, 11 }, { op_munmap, 3 }, { op_poll, 3 },
	{ op_fork, 1 }, { op_fcntl, 2 }, { op_prctl, 1 }, { op_sleep, 6 },
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	struct ctx *c = &w->c;
	struct rng o;
	unsigned int k, i;

	c->ps->tid = syscall(SYS_gettid);
	while (!should_stop(c)) {
		rng_seed(&o, rnd(&c->r), 0);
		k = below(&o, 100);
		for (i = 0; k >= worker_ops[i].weight; i++)
			k -= worker_ops[i].weight;
		worker_ops[i].fn(w, &o);
		c->nop++;
		c->st->c[C_OPS]++;
		c->ps->nop = c->nop;
		if (cfg.pause_ms)
			msleep(cfg.pause_ms);
		if (c->nop % 2000 == 0)
			kmsg("w%02d #%llu", c->id, (unsigned long long)c->nop);
	}
	return NULL;
}

static uint64_t quota_of(int id)
{
	uint64_t chaos = cfg.chaos ? (cfg.ops + 9) / 10 : 0, rest = cfg.ops - chaos;

	if (!cfg.ops)
		return UINT64_MAX;
	if (id == nworkers)
		return chaos;
	return rest / nworkers + ((uint64_t)id < rest % nworkers);
}

static void ctx_init(struct ctx *c, int id)
{
	memset(c, 0, sizeof(*c));
	c->id = id;
	rng_seed(&c->r, cfg.seed, id + 1);
	c->st = &sh->st[id];
	c->ps = &sh->ps[id];
	c->log_gen = sh->log_gen;
	c->logfd = log_open();
	c->quota = quota_of(id);
}

/* A worker process: its threads, then every event closed in a random order. */
static void proc_run(int pi)
{
	struct proc *p = calloc(1, sizeof(*p));
	struct worker *w = calloc(cfg.threads, sizeof(*w));
	unsigned int t, i;
	struct rng o;

	if (!p || !w)
		_exit(1);
	pthread_mutex_init(&p->child_mu, NULL);
	for (i = 0; i < MAX_SLOTS; i++) {
		pthread_mutex_init(&p->slot[i].mu, NULL);
		p->slot[i].fd = -1;
		p->slot[i].pmu = -1;
		strcpy(p->slot[i].desc, "-");
	}
	for (t = 0; t < cfg.threads; t++) {
		ctx_init(&w[t].c, pi * cfg.threads + t);
		w[t].p = p;
	}
	for (t = 1; t < cfg.threads; t++)
		if (pthread_create(&w[t].thread, NULL, worker_run, &w[t]))
			w[t].thread = 0;
	worker_run(&w[0]);
	for (t = 1; t < cfg.threads; t++)
		if (w[t].thread)
			pthread_join(w[t].thread, NULL);

	rng_seed(&o, rnd(&w[0].c.r), 0);
	for (i = 0; i < cfg.slots; i++) {
		struct slot *s = &p->slot[below(&o, cfg.slots)];

		if (s->fd >= 0 || s->map)
			logop(&w[0].c, "end: close fd=%d unmap=%d (%s)", s->fd, !!s->map, s->desc);
		slot_clear(s);
	}
	for (i = 0; i < cfg.slots; i++)
		slot_clear(&p->slot[i]);
	reap(p, true);
	w[0].c.st->c[C_SIGIO] += sig_io;
	w[0].c.st->c[C_SIGTRAP] += sig_trap;
	_exit(0);
}

/* ---- the watchdog and the table ------------------------------------------ */

static void table(FILE *f)
{
	static const char * const kind_names[K_NR] = {
		"open software", "close", "ioctl ENABLE", "ioctl DISABLE", "ioctl RESET",
		"ioctl REFRESH", "ioctl PERIOD", "ioctl SET_OUTPUT", "ioctl SET_FILTER",
		"ioctl ID", "ioctl PAUSE_OUTPUT", "ioctl SET_BPF", "ioctl MODIFY_ATTRS",
		"ioctl (bogus)", "read", "mmap", "munmap", "drain ring", "poll", "fork",
		"fcntl O_ASYNC", "prctl", "sleep", "sim inject", "sim burst",
		"sim preload", "sim storm", "sim clock", "cpu offline", "cpu online",
		"pci unbind", "pci rebind", "param write", "k8 halt", "p4mp rate",
	};
	static const char * const c_names[C_NR] = {
		"operations", "syscalls", "syscall errors", "samples", "lost records",
		"samples lost", "throttle records", "unthrottle records", "other records",
		"malformed records", "malformed reads", "SIGIO", "SIGTRAP",
		"cleanup failures",
	};
	struct stats t;
	int i, p, k;
	uint64_t o = 0, ok = 0;

	memset(&t, 0, sizeof(t));
	for (p = 0; p <= nworkers; p++) {
		for (k = 0; k < K_NR; k++) {
			t.tries[k] += sh->st[p].tries[k];
			t.ok[k] += sh->st[p].ok[k];
		}
		for (k = 0; k < C_NR; k++)
			t.c[k] += sh->st[p].c[k];
		for (k = 0; k < NR_OPEN_ERR; k++)
			t.open_err[k] += sh->st[p].open_err[k];
		for (k = 0; k < npmus; k++) {
			t.opens[k] += sh->st[p].opens[k];
			t.open_ok[k] += sh->st[p].open_ok[k];
		}
	}
	fprintf(f, "uncore_fuzz: seed %llu, part %s, %u processes x %u threads, %u slots, %.1f s\n",
		(unsigned long long)cfg.seed, cfg.part[0] ? cfg.part : "?", cfg.procs,
		cfg.threads, cfg.slots, (now_ns() - start_ns) / 1e9);
	fprintf(f, "%-28s %10s %10s\n", "pmu", "opens", "ok");
	for (i = 0; i < npmus; i++) {
		fprintf(f, "%-28s %10llu %10llu\n", pmus[i].name,
			(unsigned long long)t.opens[i], (unsigned long long)t.open_ok[i]);
		o += t.opens[i];
		ok += t.open_ok[i];
	}
	fprintf(f, "%-28s %10llu %10llu\n", "(all uncore)", (unsigned long long)o,
		(unsigned long long)ok);
	fprintf(f, "uncore opens refused:");
	for (k = 0; k < NR_OPEN_ERR; k++)
		fprintf(f, " %s %llu", k < NR_OPEN_ERR - 1 ? err_name(open_errnos[k]) : "other",
			(unsigned long long)t.open_err[k]);
	fprintf(f, "\n");
	fprintf(f, "%-28s %10s %10s\n", "operation", "tries", "ok");
	for (k = 0; k < K_NR; k++)
		if (t.tries[k])
			fprintf(f, "%-28s %10llu %10llu\n", kind_names[k],
				(unsigned long long)t.tries[k], (unsigned long long)t.ok[k]);
	for (k = 0; k < C_NR; k++)
		fprintf(f, "%-28s %10llu\n", c_names[k], (unsigned long long)t.c[k]);
	fflush(f);
}

static volatile int run_done, stuck;
static pid_t pids[MAX_PROCS];

/*
 * Every thread of every process of the run (children included): state,
 * where it waits and its kernel stack. A thread stuck on a lock shows
 * who it waits for only with the others beside it.
 */
static void dump_tasks(void)
{
	char path[300], buf[4096], stat[512], *st;
	char **pids, **tids;
	int np, nt, i, j;

	pids = list_dir("/proc", &np);
	for (i = 0; i < np; i++) {
		snprintf(path, sizeof(path), "/proc/%s/comm", pids[i]);
		if (read_file(path, buf, sizeof(buf)) <= 0 || strncmp(buf, "uncore_fuzz", 11))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", pids[i]);
		tids = list_dir(path, &nt);
		for (j = 0; j < nt; j++) {
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", pids[i], tids[j]);
			if (read_file(path, stat, sizeof(stat)) <= 0)
				continue;
			st = strrchr(stat, ')');
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stack", pids[i], tids[j]);
			if (read_file(path, buf, sizeof(buf)) < 0)
				buf[0] = '\0';
			printf("uncore_fuzz: task %s/%s state %c:\n%s", pids[i], tids[j],
			       st && st[1] ? st[2] : '?', buf);
		}
		free_list(tids, nt);
	}
	free_list(pids, np);
}

/*
 * An operation that has not returned for --grace seconds ends the run:
 * what every thread does is printed, the kernel logs its blocked tasks
 * (and, with lockdep, the locks held), and the workers are killed, which
 * ends a deadlock that involves a killable wait of theirs: the run then
 * ends as usual, putting the machine back, with exit status 3. If it is
 * still stuck after another grace, the fuzzer exits at once.
 */
static void *watchdog(void *arg)
{
	uint64_t killed = 0;
	unsigned int i;
	int p;

	(void)arg;
	while (!run_done) {
		uint64_t now = now_ns(), grace = (uint64_t)cfg.grace * 1000000000ULL;
		bool late = false;

		for (p = 0; p <= nworkers; p++) {
			uint64_t t = __atomic_load_n(&sh->ps[p].start_ns, __ATOMIC_ACQUIRE);

			/* An operation begun since now was read is not late. */
			if (!t || t > now || now - t < grace || (killed && t < killed))
				continue;
			if (!late && !killed)
				table(stdout);
			late = true;
			printf("uncore_fuzz: STUCK w%02d #%llu tid %d for %llu s in: %s\n", p,
			       (unsigned long long)sh->ps[p].nop, (int)sh->ps[p].tid,
			       (unsigned long long)(now - t) / 1000000000ULL, sh->ps[p].op);
		}
		if (killed && now - killed > grace) {
			printf("uncore_fuzz: still stuck %u s after the workers were killed (exit 3)\n",
			       cfg.grace);
			dump_tasks();
			fflush(NULL);
			_exit(3);
		}
		if (late && !killed) {
			kmsg("an operation got stuck: blocked tasks and held locks follow");
			write_file("/proc/sysrq-trigger", "d");
			write_file("/proc/sysrq-trigger", "w");
			dump_tasks();
			printf("uncore_fuzz: killing the workers\n");
			fflush(NULL);
			stuck = 1;
			sh->stop = 1;
			for (i = 0; i < cfg.procs; i++)
				if (pids[i] > 0)
					kill(pids[i], SIGKILL);
			killed = now;
		}
		sleep(1);
	}
	return NULL;
}

/* ---- main ---------------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr,
		"usage: uncore_fuzz [--seed N] [--seconds N] [--ops N] [--log FILE] [--log-max MB]\n"
		"	[--procs N] [--threads N] [--slots N] [--grace S] [--pause MS] [--part NAME]\n"
		"	[--no-chaos] [--no-inject] [--no-hotplug] [--no-unbind] [--no-params]\n");
	exit(1);
}

static void parse_args(int argc, char **argv)
{
	bool seeded = false;
	int i, n = 0;

	for (i = 0; i < argc; i++)
		n += snprintf(cmdline + n, sizeof(cmdline) - n, "%s%s", i ? " " : "", argv[i]);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--no-chaos")) {
			cfg.chaos = false;
		} else if (!strcmp(a, "--no-inject")) {
			cfg.inject = false;
		} else if (!strcmp(a, "--no-hotplug")) {
			cfg.hotplug = false;
		} else if (!strcmp(a, "--no-unbind")) {
			cfg.unbind = false;
		} else if (!strcmp(a, "--no-params")) {
			cfg.params = false;
		} else if (!v) {
			usage();
		} else {
			i++;
			if (!strcmp(a, "--seed")) {
				cfg.seed = strtoull(v, NULL, 0);
				seeded = true;
			} else if (!strcmp(a, "--seconds")) {
				cfg.seconds = strtoul(v, NULL, 0);
			} else if (!strcmp(a, "--ops")) {
				cfg.ops = strtoull(v, NULL, 0);
			} else if (!strcmp(a, "--log")) {
				cfg.log = v;
			} else if (!strcmp(a, "--log-max")) {
				cfg.log_max_mb = strtoul(v, NULL, 0);
			} else if (!strcmp(a, "--procs")) {
				cfg.procs = strtoul(v, NULL, 0);
			} else if (!strcmp(a, "--threads")) {
				cfg.threads = strtoul(v, NULL, 0);
			} else if (!strcmp(a, "--slots")) {
				cfg.slots = strtoul(v, NULL, 0);
			} else if (!strcmp(a, "--grace")) {
				cfg.grace = strtoul(v, NULL, 0);
			} else if (!strcmp(a, "--pause")) {
				cfg.pause_ms = strtoul(v, NULL, 0);
			} else if (!strcmp(a, "--part")) {
				snprintf(cfg.part, sizeof(cfg.part), "%s", v);
			} else {
				usage();
			}
		}
	}
	if (!cfg.procs || cfg.procs > MAX_PROCS || !cfg.threads || cfg.threads > MAX_THREADS ||
	    !cfg.slots || cfg.slots > MAX_SLOTS || !cfg.grace || !cfg.log_max_mb)
		usage();
	if (!seeded)
		cfg.seed = now_ns() % 1000000000ULL;
	if (!cfg.seconds && !cfg.ops)
		cfg.seconds = 30;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	pthread_t wd;
	unsigned int i;
	struct ctx c;
	int status, rc = 0;
	unsigned int alive;
	uint64_t t;

	parse_args(argc, argv);
	page_size = sysconf(_SC_PAGESIZE);
	start_ns = now_ns();
	setvbuf(stdout, NULL, _IOLBF, 0);
	discover();
	if (!npmus) {
		fprintf(stderr, "uncore_fuzz: no uncore_* PMU in " PMUS_DIR "\n");
		return 1;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	nworkers = cfg.procs * cfg.threads;
	refresh_pmus();
	printf("uncore_fuzz: %s\n", cmdline);
	printf("uncore_fuzz: replay with --seed %llu and the same options; %d PMUs, %d CPUs, %d packages, part %s\n",
	       (unsigned long long)cfg.seed, npmus, ncpus, npkgs, cfg.part[0] ? cfg.part : "?");
	if (cfg.chaos)
		chaos_init();
	sigaction(SIGIO, &sa, NULL);
	sigaction(SIGTRAP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (cfg.log)
		unlink(cfg.log);

	ctx_init(&c, nworkers);
	logop(&c, "start: %s (seed %llu)", cmdline, (unsigned long long)cfg.seed);
	kmsg("start seed %llu: %s", (unsigned long long)cfg.seed, cmdline);
	/*
	 * From now, not from start_ns: on a loaded machine the setup above
	 * (sysfs, the simulator's templates) can outlast the whole run.
	 */
	if (cfg.seconds)
		deadline_ns = now_ns() + cfg.seconds * 1000000000ULL;

	for (alive = 0, i = 0; i < cfg.procs; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			proc_run(i);
		alive += pids[i] > 0;
	}
	pthread_create(&wd, NULL, watchdog, NULL);

	/* Chaos while the workers run (up to its own quota). */
	c.ps->tid = syscall(SYS_gettid);
	while (alive) {
		struct rng o;

		for (i = 0; i < cfg.procs; i++) {
			if (pids[i] <= 0 || waitpid(pids[i], &status, WNOHANG) != pids[i])
				continue;
			if (!stuck && (!WIFEXITED(status) || WEXITSTATUS(status))) {
				fprintf(stderr, "uncore_fuzz: worker process %u ended badly (0x%x)\n",
					i, status);
				rc = 2;
			}
			pids[i] = 0;
			alive--;
		}
		log_rotate();
		if (!cfg.chaos || should_stop(&c)) {
			msleep(100);
			continue;
		}
		rng_seed(&o, rnd(&c.r), 0);
		chaos_step(&c, &o);
		c.nop++;
		c.st->c[C_OPS]++;
		c.ps->nop = c.nop;
		msleep(below(&o, 20));
	}
	sh->stop = 1;
	if (cfg.chaos)
		chaos_cleanup(&c);
	run_done = 1;
	pthread_join(wd, NULL);
	t = now_ns();
	logop(&c, "end after %.1f s", (t - start_ns) / 1e9);
	kmsg("end seed %llu", (unsigned long long)cfg.seed);
	table(stdout);
	if (stuck) {
		printf("uncore_fuzz: an operation got stuck (exit 3)\n");
		return 3;
	}
	for (i = 0; i < (unsigned int)nworkers + 1; i++) {
		if (sh->st[i].c[C_BAD_RECORDS] || sh->st[i].c[C_BAD_READS])
			rc = 2;
		if (sh->st[i].c[C_CLEANUP_FAILED] && !rc)
			rc = 4;
	}
	return rc;
}
