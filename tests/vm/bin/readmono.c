// SPDX-License-Identifier: GPL-2.0
/*
 * readmono [-s SECS] PMU CONFIG PERIOD
 *
 * Whether a sampling event's count goes backwards for a reader on another
 * CPU (review pmi-protocol N9). The event is opened on the first CPU of
 * PMU's cpumask, sampling every PERIOD events into a ring buffer nobody
 * reads; the calling thread, pinned to another CPU, reads its count in a
 * tight loop for SECS seconds (default 2) while the caller injects. A read
 * from another CPU has perf read the counter on the reading CPU (an IPI),
 * then take event->count on the reader's CPU, where the reading CPU may
 * be emitting samples at that moment: the driver hands each period to
 * perf_tp_event(), which adds it to the count the driver took it from.
 *
 * Output: "reads=N backwards=B largest=L" (L in events, the largest step
 * back between two consecutive reads), then "final=C", the count at the
 * end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define HELPER "readmono"
#include "pmu_sysfs.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long long v = 0, prev = 0, largest = 0, reads = 0, back = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct perf_event_attr attr;
	double secs = 2, end;
	cpu_set_t set;
	int opt, cpu, fd;

	while ((opt = getopt(argc, argv, "s:")) != -1) {
		if (opt != 's')
			goto usage;
		secs = strtod(optarg, NULL);
	}
	if (argc - optind != 3 || secs <= 0)
		goto usage;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = first_number(argv[optind], "type");
	attr.config = strtoull(argv[optind + 1], NULL, 0);
	attr.sample_period = strtoull(argv[optind + 2], NULL, 0);
	attr.sample_type = PERF_SAMPLE_PERIOD;
	cpu = first_number(argv[optind], "cpumask");
	fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
	if (fd < 0)
		die("perf_event_open");
	/* 1 + 8 pages: samples go somewhere, and are never read. */
	if (mmap(NULL, 9 * sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		 MAP_SHARED, fd, 0) == MAP_FAILED)
		die("mmap");
	CPU_ZERO(&set);
	CPU_SET((cpu + 1) % ncpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");

	end = now_s() + secs;
	while (now_s() < end) {
		if (read(fd, &v, sizeof(v)) != sizeof(v))
			die("read");
		if (reads++ && v < prev) {
			back++;
			if (prev - v > largest)
				largest = prev - v;
		}
		prev = v;
	}
	printf("reads=%llu backwards=%llu largest=%llu\n", reads, back, largest);
	printf("final=%llu\n", v);
	return 0;
usage:
	fprintf(stderr, "usage: readmono [-s SECS] PMU CONFIG PERIOD\n");
	return 2;
}
