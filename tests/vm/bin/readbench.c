// SPDX-License-Identifier: GPL-2.0
/*
 * readbench [-n N] PMU CONFIG
 *
 * What a read(2) of an uncore event costs next to a read(2) of a software
 * event (task-clock), in the same guest run: the ratio is what a tool that
 * polls counts (perf stat -I, a monitoring daemon) pays for the uncore.
 * One uncore event is opened on the first CPU of PMU's cpumask, counting;
 * a task-clock event on the calling thread. Three timings of N reads each,
 * the best of five runs (a run the host took the vCPU away from is slow,
 * not representative):
 *
 *   task_clock  the software event, read on the reading CPU
 *   local       the uncore event, read on its reading CPU: perf calls the
 *               pmu's read there directly
 *   remote      the uncore event, read on another CPU: perf sends an IPI to
 *               the reading CPU, which reads the counter
 *
 * Output: "op=NAME n=N ns=NS_PER_READ" per timing, then the two ratios.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define HELPER "readbench"
#include "pmu_sysfs.h"

#define RUNS 5

static int open_event(__u32 type, __u64 config, int pid, int cpu)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	fd = syscall(SYS_perf_event_open, &attr, pid, cpu, -1, 0);
	if (fd < 0)
		die("perf_event_open");
	return fd;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Best of RUNS timings of n reads of fd, in ns per read. */
static double time_reads(int fd, long n)
{
	double best = 0;
	int r;

	for (r = 0; r < RUNS; r++) {
		double t0 = now_ns(), dt;
		unsigned long long v;
		long i;

		for (i = 0; i < n; i++)
			if (read(fd, &v, sizeof(v)) != sizeof(v))
				die("read");
		dt = (now_ns() - t0) / n;
		if (!r || dt < best)
			best = dt;
	}
	return best;
}

int main(int argc, char **argv)
{
	long n = 10000, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double sw, local, remote;
	int opt, cpu, other, ufd, sfd;
	__u64 config;
	__u32 type;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n')
			goto usage;
		n = strtol(optarg, NULL, 0);
	}
	if (argc - optind != 2 || n <= 0)
		goto usage;
	type = first_number(argv[optind], "type");
	cpu = first_number(argv[optind], "cpumask");
	config = strtoull(argv[optind + 1], NULL, 0);
	/* Any other online CPU reads remotely; the next one will do. */
	other = (cpu + 1) % ncpu;

	ufd = open_event(type, config, -1, cpu);
	pin(cpu);
	sfd = open_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0, -1);
	sw = time_reads(sfd, n);
	local = time_reads(ufd, n);
	pin(other);
	remote = other == cpu ? 0 : time_reads(ufd, n);

	printf("pmu=%s cpu=%d other=%d n=%ld\n", argv[optind], cpu, other, n);
	printf("op=task_clock ns=%.0f\n", sw);
	printf("op=local ns=%.0f ratio=%.1f\n", local, local / sw);
	printf("op=remote ns=%.0f ratio=%.1f\n", remote, remote / sw);
	return 0;
usage:
	fprintf(stderr, "usage: readbench [-n N] PMU CONFIG\n");
	return 2;
}
