// SPDX-License-Identifier: GPL-2.0
/*
 * accbench [-n N] [-c CPU] [-p PKG] [-x CONFIG1] [-t TICKS] [-s PERIOD] PMU CONFIG [CONFIG1 [CONFIG2]]
 *
 * Register accesses per perf operation on one uncore box, from the driver's
 * own per-box access counters (/sys/kernel/debug/uncore_pmu/access). One
 * event is opened disabled on CPU (default: the first CPU of the PMU's
 * cpumask) and driven straight through perf_event_open(2), so that no perf
 * tool work is counted. Each phase zeroes the counters, runs, and reads the
 * row of the box (PMU, PKG) back:
 *
 *   first_add  one PERF_EVENT_IOC_ENABLE on a box with no event: pmu->add
 *              with PERF_EF_START
 *   read       N read(2) calls while the event counts: N pmu->read
 *   first_del  one PERF_EVENT_IOC_DISABLE: pmu->del
 *   add_del    N ENABLE/DISABLE pairs: N pmu->add + pmu->del
 *   add_del_alt  (-x CONFIG1) a second event, the same but for config1, is
 *              opened too; each round enables and disables the second
 *              event, then the first, so every add needs the other filter
 *              value (the first event's is in place when the phase
 *              begins): 2N pairs
 *   idle       (-t TICKS) the event enabled for TICKS + 1/2 poll periods
 *              (debugfs "boxes"), nothing else: the box's poll timer
 *              expires TICKS times. Totals, not per tick: the caller counts
 *              the expiries (tests/vm/bdx/bench.sh uses ftrace). Only sensible
 *              where guest time can run ahead (QEMU -icount sleep=off).
 *
 * With -s, a second event, the same but sampling with period PERIOD, is
 * enabled on the box before the first phase and stays enabled throughout:
 * every phase then measures the counting event beside a sampling one
 * (PERIOD long enough that it never overflows). It is pinned: perf's
 * ctx_resched() at each PERF_EVENT_IOC_ENABLE takes the CPU context's
 * flexible events off the box and puts them back, which would add the
 * sampling event's own del and add to the counting event's phases.
 *
 * No phase pays for another: the read phase starts after the event is
 * enabled and ends before it is disabled, and the pair phases start and end
 * with the event disabled, so nothing needs subtracting.
 *
 * Output, one line per phase, counts per operation (integers when exact):
 *   box=uncore_cbox_0 pkg=0 cpu=0 n=1000 poll_ns=3600000000000
 *   op=read n=1000 msr_rd=1 msr_wr=0 pci_rd=0 pci_wr=0 errors=0
 *
 * PKG defaults to the CPU's physical package id; the driver numbers boxes
 * by logical package id, the same in the test guests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define HELPER "accbench"
#include "pmu_sysfs.h"

#define DEBUGFS "/sys/kernel/debug/uncore_pmu/"

enum { MSR_RD, MSR_WR, PCI_RD, PCI_WR, ERRORS, NSTATS };

static const char * const stat_names[NSTATS] = {
	"msr_rd", "msr_wr", "pci_rd", "pci_wr", "errors",
};

static const char *pmu_name;
static int box_pkg;

/* First line of a file, or -1. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ret = -1;

	if (!f)
		return -1;
	if (fgets(buf, len, f))
		ret = 0;
	fclose(f);
	return ret;
}

static int cpu_pkg(int cpu)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	if (read_line(path, buf, sizeof(buf)))
		die(path);
	return atoi(buf);
}

static void zero_stats(void)
{
	FILE *f = fopen(DEBUGFS "access", "w");

	if (!f || fputs("0\n", f) == EOF || fclose(f))
		die(DEBUGFS "access (write)");
}

/* The box's row: "pmu pkg msr_rd msr_wr pci_rd pci_wr errors". */
static void get_stats(unsigned long long *st)
{
	FILE *f = fopen(DEBUGFS "access", "r");
	char line[256], name[64];
	int pkg, found = 0;

	if (!f)
		die(DEBUGFS "access");
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %d %llu %llu %llu %llu %llu", name, &pkg,
			   &st[MSR_RD], &st[MSR_WR], &st[PCI_RD], &st[PCI_WR],
			   &st[ERRORS]) == 7 &&
		    !strcmp(name, pmu_name) && pkg == box_pkg)
			found = 1;
	}
	fclose(f);
	if (!found) {
		fprintf(stderr, "accbench: no access row for %s package %d\n",
			pmu_name, box_pkg);
		exit(1);
	}
}

/* The box's poll period while it has events, from debugfs "boxes". */
static unsigned long long get_poll_ns(void)
{
	FILE *f = fopen(DEBUGFS "boxes", "r");
	unsigned long long ns = 0, v;
	char line[256], name[64];
	int pkg, cpu, n;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %d %d %d %llu", name, &pkg, &cpu, &n, &v) == 5 &&
		    !strcmp(name, pmu_name) && pkg == box_pkg)
			ns = v;
	}
	fclose(f);
	return ns;
}

/* total / n, as an integer when it divides evenly. */
static void print_per_op(const char *name, unsigned long long total, long n)
{
	if (total % n)
		printf(" %s=%.2f", name, (double)total / n);
	else
		printf(" %s=%llu", name, total / n);
}

static void report(const char *op, long n)
{
	unsigned long long st[NSTATS];
	int i;

	get_stats(st);
	printf("op=%s n=%ld", op, n);
	for (i = 0; i < NSTATS; i++)
		print_per_op(stat_names[i], st[i], n);
	printf("\n");
	if (st[ERRORS])
		fprintf(stderr, "accbench: %s: %llu failed accesses\n", op, st[ERRORS]);
}

static int open_event(int type, int cpu, unsigned long long config,
		      unsigned long long config1, unsigned long long config2,
		      unsigned long long period)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.config1 = config1;
	attr.config2 = config2;
	attr.sample_period = period;
	attr.pinned = !!period;
	attr.disabled = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
	if (fd < 0)
		die("perf_event_open");
	return fd;
}

static void ctl(int fd, unsigned long req)
{
	if (ioctl(fd, req, 0))
		die("ioctl");
}

/* value, time enabled, time running */
static void read_event(int fd, __u64 *v)
{
	if (read(fd, v, 3 * sizeof(*v)) != 3 * sizeof(*v))
		die("read");
}

/* Time running did not grow: perf did not put the event on the box. */
static void fail_not_run(const char *phase)
{
	fprintf(stderr, "accbench: %s: %s: the event did not run\n", pmu_name,
		phase);
	exit(1);
}

/*
 * The event counts alone for @ticks and a half poll periods. The timer was
 * armed by the add, just before the counters are zeroed, so exactly @ticks
 * expiries fall inside the window.
 */
static void idle(int fd, int ticks)
{
	unsigned long long ns;
	struct timespec ts;

	ctl(fd, PERF_EVENT_IOC_ENABLE);
	ns = get_poll_ns();
	if (!ns)
		die("no poll period in " DEBUGFS "boxes");
	ns = ns * ticks + ns / 2;
	ts.tv_sec = ns / 1000000000ULL;
	ts.tv_nsec = ns % 1000000000ULL;
	zero_stats();
	while (nanosleep(&ts, &ts))
		if (errno != EINTR)
			die("nanosleep");
	report("idle", 1);
	ctl(fd, PERF_EVENT_IOC_DISABLE);
}

static void bad_args(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-n N] [-c CPU] [-p PKG] [-x CONFIG1] [-t TICKS] [-s PERIOD] PMU CONFIG [CONFIG1 [CONFIG2]]\n",
		prog);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long long config, config1 = 0, config2 = 0, alt1 = 0, period = 0;
	int opt, cpu = -1, type, fd, fd2 = -1, fds = -1, have_alt = 0, ticks = 0;
	long i, n = 1000;
	cpu_set_t set;
	__u64 v[3], ran;

	box_pkg = -1;
	while ((opt = getopt(argc, argv, "n:c:p:x:t:s:")) != -1) {
		switch (opt) {
		case 'n':
			n = strtol(optarg, NULL, 0);
			break;
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'p':
			box_pkg = atoi(optarg);
			break;
		case 'x':
			alt1 = strtoull(optarg, NULL, 0);
			have_alt = 1;
			break;
		case 't':
			ticks = atoi(optarg);
			break;
		case 's':
			period = strtoull(optarg, NULL, 0);
			if (!period)
				bad_args(argv[0]);
			break;
		default:
			bad_args(argv[0]);
		}
	}
	if (argc - optind < 2 || argc - optind > 4 || n < 1)
		bad_args(argv[0]);
	pmu_name = argv[optind];
	config = strtoull(argv[optind + 1], NULL, 0);
	if (argc - optind > 2)
		config1 = strtoull(argv[optind + 2], NULL, 0);
	if (argc - optind > 3)
		config2 = strtoull(argv[optind + 3], NULL, 0);

	type = first_number(pmu_name, "type");
	if (cpu < 0)
		cpu = first_number(pmu_name, "cpumask");
	if (box_pkg < 0)
		box_pkg = cpu_pkg(cpu);

	/* On the event's CPU, perf runs each operation without an IPI. */
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");

	fd = open_event(type, cpu, config, config1, config2, 0);
	if (have_alt)
		fd2 = open_event(type, cpu, config, alt1, config2, 0);
	if (period) {
		fds = open_event(type, cpu, config, config1, config2, period);
		ctl(fds, PERF_EVENT_IOC_ENABLE);
	}

	zero_stats();
	ctl(fd, PERF_EVENT_IOC_ENABLE);
	printf("box=%s pkg=%d cpu=%d n=%ld poll_ns=%llu\n", pmu_name, box_pkg,
	       cpu, n, get_poll_ns());
	report("first_add", 1);

	zero_stats();
	for (i = 0; i < n; i++)
		read_event(fd, v);
	report("read", n);
	/* An event perf could not schedule is not running: nothing was read. */
	ran = v[2];
	if (!ran)
		fail_not_run("read");

	zero_stats();
	ctl(fd, PERF_EVENT_IOC_DISABLE);
	report("first_del", 1);

	zero_stats();
	for (i = 0; i < n; i++) {
		ctl(fd, PERF_EVENT_IOC_ENABLE);
		ctl(fd, PERF_EVENT_IOC_DISABLE);
	}
	report("add_del", n);
	read_event(fd, v);
	if (v[2] == ran)
		fail_not_run("add_del");

	if (fd2 >= 0) {
		ran = v[2];
		zero_stats();
		for (i = 0; i < n; i++) {
			ctl(fd2, PERF_EVENT_IOC_ENABLE);
			ctl(fd2, PERF_EVENT_IOC_DISABLE);
			ctl(fd, PERF_EVENT_IOC_ENABLE);
			ctl(fd, PERF_EVENT_IOC_DISABLE);
		}
		report("add_del_alt", 2 * n);
		read_event(fd, v);
		if (v[2] == ran)
			fail_not_run("add_del_alt");
		read_event(fd2, v);
		if (!v[2])
			fail_not_run("add_del_alt, second event");
		close(fd2);
	}
	if (ticks > 0)
		idle(fd, ticks);
	if (fds >= 0) {
		read_event(fds, v);
		if (!v[2])
			fail_not_run("the sampling event");
		close(fds);
	}
	close(fd);
	return 0;
}
