// SPDX-License-Identifier: GPL-2.0
/*
 * wrapcount PMU CONFIG STEPS STEP_NS
 *
 * Counts one uncore event across many counter wraps in little real time:
 * with the simulator's clock frozen and a counter in rate mode, each of
 * STEPS steps moves sim time on by STEP_NS (debugfs "advance") and reads
 * the event, so the driver sees every wrap through read(2) rather than its
 * poll timer. The event is opened on the first CPU of PMU's cpumask and
 * this process runs there. Prints "count=N" at the end; the test compares
 * N with the simulator's unwrapped total.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CLOCK "/sys/kernel/debug/uncore_sim/clock"
#define HELPER "wrapcount"
#include "pmu_sysfs.h"

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	unsigned long steps, i;
	char adv[64];
	cpu_set_t set;
	uint64_t count;
	int fd, clk, cpu, len;

	if (argc != 5) {
		fprintf(stderr, "usage: wrapcount PMU CONFIG STEPS STEP_NS\n");
		return 2;
	}
	cpu = first_number(argv[1], "cpumask");
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = first_number(argv[1], "type");
	attr.config = strtoull(argv[2], NULL, 0);
	fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
	if (fd < 0)
		die("perf_event_open");
	clk = open(CLOCK, O_WRONLY);
	if (clk < 0)
		die(CLOCK);

	steps = strtoul(argv[3], NULL, 0);
	len = snprintf(adv, sizeof(adv), "advance %s\n", argv[4]);
	for (i = 0; i < steps; i++) {
		if (write(clk, adv, len) != len)
			die("advance");
		if (read(fd, &count, sizeof(count)) != sizeof(count))
			die("read");
	}
	close(fd);
	printf("count=%llu\n", (unsigned long long)count);
	return 0;
}
